import { useEffect, useRef, useState } from 'react';
import { Field } from '../../../components/field';
import { ErrorAlert } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { type Batch, useFailBatch } from '../api/farms';
import { FARMS } from '../strings';

const S = FARMS.fail;

/**
 * Closes an open batch as failed. A first button only asks; the batch is closed once its reason is given and
 * confirmed, since a failed batch cannot be harvested or reopened.
 */
export function FailBatch({ batch }: { batch: Batch }) {
  const fail = useFailBatch(batch.id);
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (asking) (form.current?.elements.namedItem('reason') as HTMLInputElement | null)?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <p>
        <button type="button" className="danger" onClick={() => setAsking(true)}>
          {S.ask}
        </button>
      </p>
    );
  }
  const err = fail.error;
  return (
    <form
      ref={form}
      className="form"
      aria-labelledby="fail-title"
      onSubmit={(e) => {
        e.preventDefault();
        fail.mutate({ reason: reason.trim() });
      }}
    >
      <h3 id="fail-title">{S.title}</h3>
      <p>{S.warning}</p>
      <ErrorAlert error={err} />
      <Field
        label={S.reason}
        name="reason"
        required
        maxLength={500}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        error={errorFor(err, 'reason')}
      />
      <div className="inline-form">
        <button type="submit" className="danger" disabled={fail.isPending || reason.trim() === ''}>
          {fail.isPending ? S.busy : S.confirm}
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setAsking(false);
            setReason('');
            fail.reset();
          }}
        >
          {S.cancel}
        </button>
      </div>
    </form>
  );
}
