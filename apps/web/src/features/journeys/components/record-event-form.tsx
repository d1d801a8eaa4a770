import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Field, SelectField } from '../../../components/field';
import {
  EMPTY_LOCATION,
  LocationPicker,
  type LocationValue,
  locationValueOf,
  toApiLocation,
} from '../../../components/location-picker';
import { ErrorAlert, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { type OutboxEdit, outboxEditOf } from '../../outbox/api/outbox';
import { KeptNotice } from '../../outbox/components/kept-notice';
import { EVENT_KINDS, type EventKind, TRANSPORT_MODES, type TransportMode, useRecordEvent } from '../api/journey';
import { nowLocal, withLocalOffset } from '../lib/time';
import { JOURNEYS } from '../strings';

const S = JOURNEYS.record;

/** The form's fields: empty, or from a refused event's body (its "Edit" in the outbox). */
function fieldsOf(edit: OutboxEdit | null, start: LocationValue) {
  const body = edit?.body;
  const quantity = body?.quantity as { value?: unknown } | undefined;
  const mass = body?.massKg ?? quantity?.value;
  return {
    kind: (EVENT_KINDS as readonly string[]).includes(edit?.eventKind ?? '')
      ? (edit?.eventKind as EventKind)
      : 'distribution',
    // The time was sent as typed with the browser's offset after it: its first 16 characters are what was typed.
    when: typeof body?.eventTime === 'string' ? body.eventTime.slice(0, 16) : nowLocal(),
    mode: (typeof body?.transportMode === 'string' ? body.transportMode : 'bicycle') as TransportMode,
    mass: typeof mass === 'number' ? String(mass) : '',
    withFrom: body ? body.from !== undefined : true,
    from: body?.from ? locationValueOf(body.from) : start,
    to: body ? locationValueOf(body.to) : EMPTY_LOCATION,
  };
}

/**
 * Records one event of the plant's journey; distance and CO2e are computed by Rootline from the legs. Opened from a
 * refused outbox item, it has that item's fields, and the event recorded replaces it.
 */
export function RecordEventForm({ plantId, start }: { plantId: string; start: LocationValue }) {
  const here = useLocation();
  const edit = outboxEditOf(here.state, 'event');
  const navigate = useNavigate();
  const record = useRecordEvent(plantId, edit?.id);
  const [initial] = useState(() => fieldsOf(edit, start));
  const [kind, setKind] = useState<EventKind>(initial.kind);
  const [when, setWhen] = useState(initial.when);
  const [mode, setMode] = useState<TransportMode>(initial.mode);
  const [mass, setMass] = useState(initial.mass);
  const [withFrom, setWithFrom] = useState(initial.withFrom);
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
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
            {
              onSuccess: () => {
                setTo(EMPTY_LOCATION);
                // The refused item it was edited from is gone: the form is a plain one again.
                if (edit) navigate(`${here.pathname}${here.search}`, { replace: true, state: null });
              },
            },
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
