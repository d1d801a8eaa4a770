import { type Pagination, paginate } from '@rootline/contracts';

/** Rows skipped at most: far past any real list, and well inside PostgreSQL's bigint OFFSET. */
const MAX_OFFSET = 2 ** 50;

/** Page and limit (their defaults come from the contract), and the rows to skip. */
export function pageWindow({ page, limit }: { page: number; limit: number }) {
  return { page, limit, offset: Math.min((page - 1) * limit, MAX_OFFSET) };
}

/** A list answer: the page's items and the spec's pagination object. */
export function pageOf<T>(
  items: T[],
  page: number,
  limit: number,
  total: number,
): { items: T[]; pagination: Pagination } {
  return { items, pagination: paginate(page, limit, total) };
}
