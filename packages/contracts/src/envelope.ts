import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Defaulted } from './define.js';
import { ErrorBody } from './errors.js';

/** The spec's pagination object, carried beside `data` in paginated responses. */
export const Pagination = Type.Object(
  {
    page: Type.Integer({ minimum: 1 }),
    limit: Type.Integer({ minimum: 1 }),
    total: Type.Integer({ minimum: 0 }),
    totalPages: Type.Integer({ minimum: 0 }),
  },
  { $id: 'Pagination' },
);
export type Pagination = Static<typeof Pagination>;

/** Defaults and bounds of `page` and `limit` on every list endpoint. */
export const PAGE_DEFAULTS = { page: 1, limit: 20, maxLimit: 100, maxPage: 1_000_000 } as const;

export const PageQuery = Type.Object({
  page: Defaulted(
    Type.Integer({
      minimum: 1,
      maximum: PAGE_DEFAULTS.maxPage,
      default: PAGE_DEFAULTS.page,
      description: `Page number, from 1 (at most ${PAGE_DEFAULTS.maxPage})`,
    }),
  ),
  limit: Defaulted(
    Type.Integer({
      minimum: 1,
      maximum: PAGE_DEFAULTS.maxLimit,
      default: PAGE_DEFAULTS.limit,
      description: `Items per page (default ${PAGE_DEFAULTS.limit}, at most ${PAGE_DEFAULTS.maxLimit})`,
    }),
  ),
});
export type PageQuery = Static<typeof PageQuery>;

/** Builds the pagination object for a page of `total` items. */
export function paginate(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, totalPages: Math.ceil(total / limit) };
}

/**
 * The pagination of a list answered whole: one page holding all `total` items (a page size of at least 1, as the
 * schema wants; no page at all when the list is empty), so a client reads every list the same way (ADR 188).
 */
export function wholeList(total: number): Pagination {
  return paginate(1, Math.max(total, 1), total);
}

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

/** Success envelope around a payload schema. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({
    success: Type.Literal(true),
    data,
    error: Type.Null(),
  });
}

/**
 * Success envelope of a paginated list: the page's items in `data`, the pagination object beside it (the spec's,
 * or one that extends it, as search's), and, for a list that carries facts about the whole of it (a journey's
 * totals, a plant's current environment), `meta`.
 */
export function PaginatedEnvelope<T extends TSchema>(item: T, meta?: TSchema, pagination: TSchema = Pagination) {
  return Type.Object({
    success: Type.Literal(true),
    data: Type.Array(item),
    error: Type.Null(),
    pagination,
    ...(meta ? { meta } : {}),
  });
}

/**
 * Success envelope of a list answered whole: the items in `data`, the pagination of its one page beside them (see
 * `wholeList`), and `meta` when the list carries one.
 */
export function ListEnvelope<T extends TSchema>(item: T, meta?: TSchema) {
  return Type.Object({
    success: Type.Literal(true),
    data: Type.Array(item),
    error: Type.Null(),
    pagination: Pagination,
    ...(meta ? { meta } : {}),
  });
}

/** Failure envelope: success false, data null, error with code and message. */
export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    data: Type.Null(),
    error: ErrorBody,
  },
  { $id: 'ErrorEnvelope' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;
