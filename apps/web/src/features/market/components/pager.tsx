import { MARKET } from '../strings';

const S = MARKET.browse;

/** Previous / next page buttons with where one is, when there is more than one page. */
export function Pager({
  page,
  pages,
  onPage,
  label = S.pages,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  label?: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {S.previous}
      </button>
      <span>{S.page(page, pages)}</span>
      <button type="button" className="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {S.next}
      </button>
    </nav>
  );
}
