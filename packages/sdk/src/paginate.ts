import type { Client } from 'openapi-fetch';
import { RootlineError } from './client.js';
import type { paths } from './generated/schema.js';

/** `pagination` beside `data` in the envelope of a list. */
export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

type GetOk<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer B } } } };
}
  ? B
  : never;

/** Whether a GET path takes a `page` query parameter (a list answered whole has `pagination` but no `page`). */
type TakesPage<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? 'page' extends keyof NonNullable<Q>
    ? true
    : false
  : false;

/** The GET paths whose answer is a standard page: `data` an array, `pagination` beside it, `page` in the query. */
export type PagedPath = {
  [P in keyof paths]: GetOk<P> extends { data: unknown[]; pagination: Pagination }
    ? TakesPage<P> extends true
      ? P
      : never
    : never;
}[keyof paths];

/** The item type of a paged list. */
export type PageItem<P extends PagedPath> = GetOk<P> extends { data: (infer T)[] } ? T : never;

type Params<P extends PagedPath> = paths[P]['get'] extends { parameters: infer X } ? X : never;
type Query<P extends PagedPath> = Params<P> extends { query?: infer Q } ? Omit<NonNullable<Q>, 'page'> : never;

export interface PaginateOptions<P extends PagedPath> {
  /** The query, without `page` (set `limit` for the page size). */
  query?: Query<P>;
  /** Path parameters, for lists under a resource. */
  path?: Params<P> extends { path: infer T } ? T : never;
  /** The first page to read (default 1). */
  startPage?: number;
  /** Headers sent with each page request. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * Every item of a paged list, page after page, until the last page (`pagination.totalPages`):
 * `for await (const plant of paginate(client, '/api/plants/search', { query: { q: 'basil' } })) …`.
 * A failed page throws a `RootlineError`.
 */
export async function* paginate<P extends PagedPath>(
  client: Client<paths>,
  path: P,
  options: PaginateOptions<P> = {},
): AsyncGenerator<PageItem<P>, void, undefined> {
  // One GET by path name; the types above have already tied path and parameters together.
  const get = client.GET as unknown as (
    path: string,
    init: object,
  ) => Promise<{ data?: { data?: unknown; pagination?: Pagination }; error?: unknown; response: Response }>;
  for (let page = options.startPage ?? 1; ; page++) {
    const result = await get(path, {
      params: { query: { ...(options.query as object), page }, ...(options.path ? { path: options.path } : {}) },
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!result.data) throw RootlineError.from(result);
    const { data, pagination } = result.data;
    if (!Array.isArray(data)) throw new Error(`${path} did not answer a list in data`);
    for (const item of data) yield item as PageItem<P>;
    if (!pagination || data.length === 0 || page >= pagination.totalPages) return;
  }
}
