import { formatDateTime } from '../../../lib/format';
import { CATEGORIES } from '../lib/fields';
import { ENVIRONMENT } from '../strings';

const S = ENVIRONMENT.page;

/** The plant's records, newest first: when, and which categories each one set. */
export function RecordHistory({
  items,
  page,
  totalPages,
  onPage,
}: {
  items: readonly ({ id: string; recordedAt: string } & Record<string, unknown>)[];
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
}) {
  return (
    <section className="card" aria-labelledby="records-heading">
      <h2 id="records-heading">{S.history}</h2>
      {items.length === 0 ? (
        <p>{S.noHistory}</p>
      ) : (
        <ul className="results">
          {items.map((r) => (
            <li key={r.id}>
              <strong>{formatDateTime(r.recordedAt)}</strong>:{' '}
              {CATEGORIES.filter((c) => r[c.key] !== undefined)
                .map((c) => c.inText)
                .join(', ')}
            </li>
          ))}
        </ul>
      )}
      {totalPages > 1 && (
        <nav className="pager" aria-label={S.history}>
          <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            {S.newer}
          </button>
          <span>{S.pageOf(page, totalPages)}</span>
          <button type="button" className="secondary" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
            {S.older}
          </button>
        </nav>
      )}
    </section>
  );
}
