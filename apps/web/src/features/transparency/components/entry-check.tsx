import { ErrorAlert } from '../../../components/status';
import { formatDateTime } from '../../../lib/format';
import { type EntryCheck, useCheckEntry } from '../api/audit';
import { TRANSPARENCY } from '../strings';

const S = TRANSPARENCY.audit;

function label(check: EntryCheck): string {
  if (check.step === 'content') return check.result ? S.checks.content : S.checks.contentHidden;
  if (check.step === 'inclusion') return S.checks.inclusion(check.detail);
  return S.checks.signature;
}

/** Checks one entry in this browser and lists each check with its outcome. */
export function EntryCheckButton({
  index,
  leafHash,
  content,
}: {
  index: number;
  leafHash?: string;
  content: unknown | null;
}) {
  const check = useCheckEntry();
  const r = check.data;
  return (
    <div className="entry-check">
      <button
        type="button"
        className="secondary small"
        disabled={check.isPending}
        onClick={() => check.mutate({ index, ...(leafHash ? { leafHash } : {}), content })}
      >
        {check.isPending ? S.checking : S.verify(index)}
      </button>
      <ErrorAlert error={check.error} />
      <div aria-live="polite">
        {r && (
          <div className="check-result">
            <p className={r.valid ? 'alert alert-ok' : 'alert alert-error'}>
              {r.valid ? S.valid(index) : S.invalid(index)}
            </p>
            <ul className="checks" aria-label={S.verify(index)}>
              {r.checks.map((c) => (
                <li key={c.step}>
                  <span className={c.result === null ? 'badge' : c.result.valid ? 'badge ok' : 'badge bad'}>
                    {c.result === null ? S.skipped : c.result.valid ? S.pass : S.fail}
                  </span>{' '}
                  {label(c)}
                  {c.result?.problems.map((p) => (
                    <div key={p} className="field-error">
                      {p}
                    </div>
                  ))}
                </li>
              ))}
            </ul>
            <dl className="facts small">
              <dt>{S.head}</dt>
              <dd>
                {S.size} {r.head.treeSize}, {S.signedAt} {formatDateTime(r.head.timestamp)}
              </dd>
              <dt>{S.root}</dt>
              <dd className="mono">{r.head.rootHash}</dd>
            </dl>
          </div>
        )}
      </div>
    </div>
  );
}
