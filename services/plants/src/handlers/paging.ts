/** Rows skipped at most: far past any real list, and well inside PostgreSQL's bigint OFFSET. */
const MAX_OFFSET = 2 ** 50;

/** Page and limit (their defaults come from the contract), and the rows to skip (a page beyond any list stays valid). */
export function pageWindow({ page, limit }: { page: number; limit: number }): {
  page: number;
  limit: number;
  offset: number;
} {
  return { page, limit, offset: Math.min((page - 1) * limit, MAX_OFFSET) };
}
