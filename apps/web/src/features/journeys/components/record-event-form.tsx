import { useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { EMPTY_LOCATION, LocationPicker, type LocationValue, toApiLocation } from '../../../components/location-picker';
import { ErrorAlert, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { KeptNotice } from '../../outbox/components/kept-notice';
import { EVENT_KINDS, type EventKind, TRANSPORT_MODES, type TransportMode, useRecordEvent } from '../api/journey';
import { nowLocal, withLocalOffset } from '../lib/time';
import { JOURNEYS } from '../strings';

const S = JOURNEYS.record;

/** Records one event of the plant's journey; distance and CO2e are computed by Rootline from the legs. */
export function RecordEventForm({ plantId, start }: { plantId: string; start: LocationValue }) {
  const record = useRecordEvent(plantId);
  const [kind, setKind] = useState<EventKind>('distribution');
  const [when, setWhen] = useState(nowLocal);
  const [mode, setMode] = useState<TransportMode>('bicycle');
  const [mass, setMass] = useState('');
  const [withFrom, setWithFrom] = useState(true);
  const [from, setFrom] = useState(start);
  const [to, setTo] = useState(EMPTY_LOCATION);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <section className="card" aria-labelledby="record-heading">
      <h2 id="record-heading">{S.title}</h2>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          const target = toApiLocation(to);
          setProblem(target ? null : S.missingTo);
          if (!target) return;
          const origin = withFrom ? toApiLocation(from) : null;
          record.mutate(
            {
              kind,
              body: {
                plantId,
                eventTime: withLocalOffset(when),
                to: target,
                ...(origin ? { from: origin } : {}),
                transportMode: mode,
                ...(mass ? { massKg: Number(mass) } : {}),
                ...(kind === 'harvest' ? { quantity: { value: Number(mass || 1), unit: 'kg' as const } } : {}),
              },
            },
            { onSuccess: () => setTo(EMPTY_LOCATION) },
          );
        }}
      >
        <ErrorAlert error={problem ?? record.error} />
        {record.data?.status === 'sent' && <Notice>{S.done}</Notice>}
        <KeptNotice result={record.data} />
        <SelectField
          label={S.kind}
          name="kind"
          value={kind}
          onChange={(v) => setKind(v as EventKind)}
          options={EVENT_KINDS.map((k) => ({ value: k, label: S.kinds(k) }))}
        />
        <Field
          label={S.when}
          name="eventTime"
          type="datetime-local"
          required
          value={when}
          onChange={(e) => setWhen(e.target.value)}
          error={errorFor(record.error, 'eventTime')}
        />
        <SelectField
          label={S.mode}
          name="transportMode"
          value={mode}
          onChange={(v) => setMode(v as TransportMode)}
          options={TRANSPORT_MODES.map((m) => ({ value: m, label: JOURNEYS.mode(m) }))}
        />
        <Field
          label={kind === 'harvest' ? S.quantity : S.mass}
          name="massKg"
          type="number"
          min="0"
          step="any"
          value={mass}
          onChange={(e) => setMass(e.target.value)}
          error={errorFor(record.error, 'massKg')}
        />
        <label className="checkbox">
          <input type="checkbox" checked={withFrom} onChange={(e) => setWithFrom(e.target.checked)} />
          {S.addFrom}
        </label>
        {withFrom && <LocationPicker legend={S.from} value={from} onChange={setFrom} />}
        <LocationPicker legend={S.to} value={to} onChange={setTo} />
        <button type="submit" disabled={record.isPending}>
          {record.isPending ? S.busy : S.submit}
        </button>
      </form>
    </section>
  );
}
