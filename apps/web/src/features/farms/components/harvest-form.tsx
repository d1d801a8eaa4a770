import { useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { ErrorAlert } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { type Batch, type HarvestInput, useHarvest } from '../api/farms';
import { FARMS } from '../strings';

const S = FARMS.harvest;
type Grade = HarvestInput['qualityGrade'];

/** Records the harvest of an open batch on the ledger; a closed batch shows its harvest. */
export function HarvestPanel({ batch }: { batch: Batch }) {
  const harvest = useHarvest(batch.id);
  const [yieldKg, setYieldKg] = useState('');
  const [grade, setGrade] = useState<Grade>('grade-a');
  const [notes, setNotes] = useState('');
  const done = batch.harvest;
  const err = harvest.error;
  return (
    <section className="card" aria-labelledby="harvest-title">
      <h2 id="harvest-title">{S.title}</h2>
      {done ? (
        <div role="status">
          <p>
            <strong>{S.done(formatNumber(done.yieldKg, 2))}</strong> {S.grades[done.qualityGrade]},{' '}
            {formatDateTime(done.harvestedAt)}
          </p>
          {done.early && <p>{S.early}</p>}
          <p>
            {S.block}: #{done.block.index} <span className="mono">{done.block.hash.slice(0, 16)}…</span>
          </p>
        </div>
      ) : batch.state === 'failed' ? (
        <p>{S.closed}</p>
      ) : (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            harvest.mutate({
              yieldKg: Number(yieldKg),
              qualityGrade: grade,
              ...(notes.trim() ? { notes: notes.trim() } : {}),
            });
          }}
        >
          <ErrorAlert error={err} />
          <div className="row">
            <Field
              label={S.yield}
              name="yieldKg"
              type="number"
              min={0}
              step="any"
              required
              value={yieldKg}
              onChange={(e) => setYieldKg(e.target.value)}
              error={errorFor(err, 'yieldKg')}
            />
            <SelectField
              label={S.grade}
              name="qualityGrade"
              value={grade}
              onChange={(v) => setGrade(v as Grade)}
              options={Object.entries(S.grades).map(([value, label]) => ({ value, label }))}
              error={errorFor(err, 'qualityGrade')}
            />
          </div>
          <Field
            label={S.notes}
            name="notes"
            maxLength={2000}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            error={errorFor(err, 'notes')}
          />
          <button type="submit" disabled={harvest.isPending}>
            {harvest.isPending ? S.busy : S.submit}
          </button>
        </form>
      )}
    </section>
  );
}
