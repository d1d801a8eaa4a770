import { PAGE_DEFAULTS } from '@rootline/contracts';

/** Rows skipped at most: far past any real list, and well inside PostgreSQL's bigint OFFSET. */
const MAX_OFFSET = 2 ** 50;

/** Page and limit with their defaults, and the rows to skip (a page beyond any list stays a valid, empty one). */
export function pageWindow(input: { page?: number; limit?: number }): { page: number; limit: number; offset: number } {
  const page = input.page ?? PAGE_DEFAULTS.page;
  const limit = input.limit ?? PAGE_DEFAULTS.limit;
  return { page, limit, offset: Math.min((page - 1) * limit, MAX_OFFSET) };
}
