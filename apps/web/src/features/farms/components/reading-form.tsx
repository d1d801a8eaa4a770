import { type FormEvent, useState } from 'react';
import { Field } from '../../../components/field';
import { ErrorAlert } from '../../../components/status';
import { fieldErrors } from '../../../lib/errors';
import { type ReadingInput, useRecordReadings } from '../api/farms';
import { FARMS } from '../strings';
import { metricLabel } from './readings-charts';
import './reading-form.css';

const S = FARMS.record;
type Metric = keyof typeof FARMS.metrics;
const METRICS = Object.keys(FARMS.metrics) as Metric[];
type Values = Record<Metric, string>;
const EMPTY = Object.fromEntries(METRICS.map((m) => [m, ''])) as Values;

/**
 * The API's error for one input (its field ends with the name: `body/readings/0/ph`, `readings.0.at`), in words: a
 * bound the shared wording states ("Enter 100 or less.") is said as what it means for a reading.
 */
function errorOf(error: unknown, name: string): string | undefined {
  const message = fieldErrors(error).find((f) => f.field === name || new RegExp(`[/.]${name}$`).test(f.field))?.message;
  return message?.replace(/^Enter (.+) or less\.$/, S.atMost('$1')).replace(/^Enter (.+) or more\.$/, S.atLeast('$1'));
}

/** A reading entered by hand: the metrics the readings contract holds, its time defaulting to now. */
export function ReadingForm({ batchId }: { batchId: string }) {
  const record = useRecordReadings(batchId);
  const [values, setValues] = useState<Values>(EMPTY);
  const [at, setAt] = useState('');
  const [local, setLocal] = useState<Partial<Record<Metric | 'form', string>>>({});
  const err = record.error;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems: Partial<Record<Metric | 'form', string>> = {};
    const reading: Record<string, number | string> = {};
    for (const m of METRICS) {
      const text = values[m].trim().replace(',', '.');
      if (text === '') continue;
      const n = Number(text);
      if (Number.isFinite(n)) reading[m] = n;
      else problems[m] = S.notNumber;
    }
    if (Object.keys(reading).length === 0 && Object.keys(problems).length === 0) problems.form = S.needOne;
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    if (at) reading.at = new Date(at).toISOString();
    record.mutate(
      { readings: [reading as ReadingInput] },
      {
        onSuccess: () => {
          setValues(EMPTY);
          setAt('');
        },
      },
    );
  };

  const result = record.isSuccess && !record.isPending ? record.data : null;
  return (
    <section className="card" aria-labelledby="record-reading">
      <h2 id="record-reading">{S.title}</h2>
      <p className="hint">{S.lead}</p>
      <form className="form" noValidate onSubmit={submit} aria-labelledby="record-reading">
        {fieldErrors(err).length > 0 ? (
          <p className="field-error" role="alert">
            {S.checkFields}
          </p>
        ) : (
          <ErrorAlert error={err} />
        )}
        {local.form && (
          <p className="field-error" role="alert">
            {local.form}
          </p>
        )}
        <fieldset>
          <legend>{S.metrics}</legend>
          <div className="reading-fields">
            {METRICS.map((m) => (
              <Field
                key={m}
                label={metricLabel(m)}
                name={m}
                inputMode="decimal"
                autoComplete="off"
                value={values[m]}
                onChange={(e) => setValues((v) => ({ ...v, [m]: e.target.value }))}
                error={local[m] ?? errorOf(err, m)}
              />
            ))}
          </div>
        </fieldset>
        <Field
          label={S.at}
          name="at"
          type="datetime-local"
          step={1}
          value={at}
          onChange={(e) => setAt(e.target.value)}
          hint={S.atHint}
          error={errorOf(err, 'at')}
        />
        <button type="submit" disabled={record.isPending}>
          {record.isPending ? S.busy : S.submit}
        </button>
        {result && (
          <p role="status">{result.accepted === 0 ? S.duplicate : S.saved(result.inTarget === result.accepted)}</p>
        )}
      </form>
    </section>
  );
}
