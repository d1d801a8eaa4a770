import { COMMON } from '../lib/strings';

const S = COMMON.pager;

/** Previous and next buttons around "Page n of m", shown when there is more than one page. */
export function Pager({
  page,
  totalPages,
  onPage,
  label,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  label: string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {S.previous}
      </button>
      <span>{S.page(page, totalPages)}</span>
      <button type="button" className="secondary" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        {S.next}
      </button>
    </nav>
  );
}
