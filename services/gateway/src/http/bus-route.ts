import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Bus } from '@rootline/bus';
import {
  Envelope,
  type ErrorCode,
  ListEnvelope,
  PaginatedEnvelope,
  Pagination,
  type RequestOf,
  type SubjectDef,
} from '@rootline/contracts';
import { call, callForward, isPageSchema } from '@rootline/host';
import { type ObjectOptions, type TObject, type TProperties, type TSchema, Type, TypeGuard } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import type { RoutePolicy } from '../plugins/auth.js';
import { gatewayErrorCodes, operationSchema } from '../plugins/openapi.js';
import { ok, okJson, okList, okPage, okPageJson } from './envelope.js';
import { operationIdOf } from './operation-id.js';
import { callContext } from './request-context.js';

/** What routes that call the bus need from the gateway. */
export interface BusRouteDeps {
  bus: Bus;
  /** Default wait for a service's reply. */
  timeoutMs: number;
}

/** A key of a subject's request object. */
export type RequestKey<D extends SubjectDef> = keyof RequestOf<D> & string;

/** The names of the `:name` segments of a route path, e.g. `'hash'` for `/blocks/:hash/verify`. */
export type PathParams<U extends string> = U extends `${string}:${infer P}/${infer Rest}`
  ? P | PathParams<`/${Rest}`>
  : U extends `${string}:${infer P}`
    ? P
    : never;

/**
 * Holds when every path parameter of `U` is a key of the subject's request; otherwise the route's `url` gets a
 * type no string has, and `pnpm typecheck` names the stray parameter in the error.
 */
export type PathMatchesRequest<D extends SubjectDef, U extends string> = [PathParams<U>] extends [RequestKey<D>]
  ? unknown
  : { url: { readonly 'path parameter that is not a key of the request': Exclude<PathParams<U>, RequestKey<D>> } };

/**
 * One HTTP operation answered by one bus subject. Its inputs are the subject's request, split by place: the
 * `:name` segments of `url` are path parameters, `query` names the keys read from the query string (for GET
 * and DELETE every key not in the path), and the rest is the JSON body. The gateway derives the schema of
 * each part from the contract, so a route cannot accept what its subject does not (ADR 023).
 */
export interface BusRouteSpec<D extends SubjectDef, U extends string = string> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path inside the domain plugin's prefix, e.g. `/:plantId`; each parameter is a key of the request. */
  url: U;
  /**
   * Former paths that still answer, as the same operation, but are left out of the OpenAPI document (where two
   * paths would be ambiguous); docs/permissions.md lists them with the path they stand for. Same parameters as
   * `url`.
   */
  aliases?: readonly U[];
  /** Overrides the operationId derived from the subject (`operationIdOf`), e.g. for a second path to it. */
  operationId?: string;
  summary: string;
  description?: string;
  tags: string[];
  policy: RoutePolicy;
  subject: D;
  /** Request keys read from the query string of a POST, PUT or PATCH (GET and DELETE read all of them there). */
  query?: readonly RequestKey<D>[];
  /** Schema of `data` on success; the subject's reply schema by default. */
  reply?: TSchema;
  /** Success status (default 200). */
  status?: 200 | 201 | 202;
  /** A request body shown in the documentation. */
  example?: unknown;
  /** Error codes the service may answer with (NOT_FOUND, DUPLICATE…); the gateway's own are added. */
  errors?: ErrorCode[];
  /** Overrides the default reply timeout. */
  timeoutMs?: number;
  /** Builds the subject's input; by default the validated params, query and body merged into one object. */
  input?: (req: FastifyRequest) => RequestOf<D> | Promise<RequestOf<D>>;
  /**
   * A list operation: the subject answers `{ items, pagination }`; the items go to `data` and the
   * pagination object beside it. `item` is the schema of one item. A list with facts about the whole of it
   * (totals, a cursor) answers them in `meta`, whose schema is `meta`, and they go beside `data` too. A list whose
   * pagination object extends the spec's names its schema in `pagination`.
   */
  page?: { item: TSchema; meta?: TSchema; pagination?: TSchema };
  /**
   * The Cache-Control header of a success, from the input (e.g. long-lived and immutable when the request names a
   * fixed tree size); none by default.
   */
  cache?: (input: RequestOf<D>) => string;
  /**
   * Completes the subject's answer before it is sent (the gateway's own knowledge, e.g. the current account names
   * beside recorded ones: `withAccountNames`). The answer is then parsed and serialised here, not forwarded as text.
   */
  answer?: (data: unknown) => Promise<unknown>;
  /** A list answered whole: the subject answers `{ items }` (and `meta`); the items go to `data`, `meta` beside. */
  list?: { item: TSchema; meta?: TSchema };
}

/** The schemas of the parts of an HTTP request, each a part of the subject's request schema. */
export interface RequestParts {
  params?: TObject;
  querystring: TObject;
  body?: TObject;
}

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

function pick(request: TObject, keys: readonly string[], options: ObjectOptions = {}): TObject {
  const properties: TProperties = {};
  for (const key of keys) properties[key] = request.properties[key] as TSchema;
  // Unknown names are refused in every part: a misspelt optional parameter is a caller's bug.
  return Type.Object(properties, { ...options, additionalProperties: false });
}

/**
 * Splits a subject's request schema into the route's path parameters, query string and body (see
 * `BusRouteSpec`). Throws at start-up for what the types cannot catch: a request that is not an object.
 */
export function requestParts(spec: {
  method: string;
  url: string;
  subject: SubjectDef;
  query?: readonly string[] | undefined;
}): RequestParts {
  const request = spec.subject.request;
  if (!TypeGuard.IsObject(request)) {
    throw new Error(`${spec.subject.subject}: a bus route needs an object request schema`);
  }
  const keys = Object.keys(request.properties);
  const path = [...spec.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);
  for (const k of [...path, ...(spec.query ?? [])]) {
    if (!keys.includes(k)) throw new Error(`${spec.subject.subject}: "${k}" is not a key of its request`);
  }
  const withBody = WITH_BODY.has(spec.method);
  const query = withBody ? [...(spec.query ?? [])] : keys.filter((k) => !path.includes(k));
  const rest = keys.filter((k) => !path.includes(k) && !query.includes(k));
  const { description } = request;
  return {
    ...(path.length ? { params: pick(request, path) } : {}),
    querystring: pick(request, query),
    ...(withBody && rest.length ? { body: pick(request, rest, description ? { description } : {}) } : {}),
  };
}

/** A Fastify instance with the TypeBox type provider, as route plugins receive it. */
export type TypeBoxInstance = Parameters<FastifyPluginAsyncTypebox>[0];

interface PageReply {
  items: unknown[];
  pagination: Pagination;
  meta?: unknown;
}

/** Error codes any bus-backed operation can produce, beyond the service's own. */
function gatewayErrors(parts: RequestParts, policy: RoutePolicy): ErrorCode[] {
  return [...gatewayErrorCodes({ ...parts, policy }), 'UNAVAILABLE'];
}

/** A validated part of the request, keeping only the properties its schema declares. */
function declared(schema: TSchema | undefined, value: unknown): object {
  // Value.Clean drops what the schema does not list (e.g. a stray query parameter), so the service
  // receives exactly its declared input.
  return schema ? (Value.Clean(schema, value) as object) : {};
}

function mergedInput(req: FastifyRequest, parts: RequestParts): Record<string, unknown> {
  return {
    ...declared(parts.querystring, req.query),
    ...declared(parts.params, req.params),
    ...declared(parts.body, req.body),
  };
}

/**
 * Whether a route's page is the subject's reply as it is: the same item, pagination and meta schemas (the very
 * objects of the contracts), and nothing else in the reply, so the service's text is what the route documents.
 */
function pageIsTheReply(page: NonNullable<BusRouteSpec<SubjectDef, string>['page']>, reply: TSchema): boolean {
  if (!isPageSchema(reply)) return false;
  const props = (reply as unknown as { properties: Record<string, TSchema & { items?: TSchema }> }).properties;
  return (
    props.items?.items === page.item && props.pagination === (page.pagination ?? Pagination) && props.meta === page.meta
  );
}

/**
 * Declares an operation whose handler is one bus call: schemas and documentation from the contracts, the
 * caller's policy in the route config, and the reply wrapped in the success envelope.
 */
export function busRoute<D extends SubjectDef, U extends string>(
  app: TypeBoxInstance,
  deps: BusRouteDeps,
  spec: BusRouteSpec<D, U> & PathMatchesRequest<D, U>,
): void {
  const parts = requestParts(spec);
  const status = spec.status ?? 200;
  const data = spec.reply ?? spec.subject.reply;
  // A reply that is an array is a list answered whole: `pagination` beside it like every list (ADR 188).
  const wholeArray = !spec.page && !spec.list && TypeGuard.IsArray(data);
  const success = spec.page
    ? PaginatedEnvelope(spec.page.item, spec.page.meta, spec.page.pagination)
    : spec.list
      ? ListEnvelope(spec.list.item, spec.list.meta)
      : wholeArray
        ? ListEnvelope(data.items)
        : Envelope(data);
  const timeoutMs = spec.timeoutMs ?? deps.timeoutMs;
  const config: FastifyContextConfig = spec.policy;
  // A reply the service wrote by that same schema (`replyWriter`) is forwarded as text, not parsed and serialised
  // again: a single object, or a page whose items, pagination and meta are the subject's own. Whole lists, pages
  // shaped otherwise and routes with a reply schema of their own are shaped and serialised here.
  const forward =
    spec.reply === undefined &&
    !spec.answer &&
    !spec.list &&
    !wholeArray &&
    (!spec.page || pageIsTheReply(spec.page, spec.subject.reply));

  const schema = operationSchema({
    ...spec,
    ...parts,
    operationId: spec.operationId ?? operationIdOf(spec.subject.subject),
    description: spec.description ?? spec.subject.summary,
    status,
    success,
    errors: [...gatewayErrors(parts, spec.policy), ...(spec.errors ?? [])],
  });
  for (const url of [spec.url, ...(spec.aliases ?? [])]) {
    app.route({
      method: spec.method,
      url,
      config: url === spec.url ? config : { ...config, aliasOf: spec.url },
      schema: url === spec.url ? schema : { ...schema, hide: true },
      handler,
    });
  }

  async function handler(req: FastifyRequest, reply: FastifyReply) {
    // Fastify validated each part against its schema; together they form the subject's request.
    const input = spec.input ? await spec.input(req) : (mergedInput(req, parts) as RequestOf<D>);
    if (forward) {
      const answer = await callForward(deps.bus, spec.subject, input, callContext(req), timeoutMs);
      reply.code(status);
      if (spec.cache) reply.header('cache-control', spec.cache(input));
      if ('data' in answer) {
        if (!spec.page) return ok(answer.data);
        const { items, pagination, meta } = answer.data as PageReply;
        return okPage(items, pagination, meta);
      }
      if ('page' in answer && !spec.page) {
        // A route that answers a page reply whole (not as a page envelope): put it back together.
        return ok({ ...JSON.parse(answer.page.head), items: JSON.parse(answer.page.items) });
      }
      reply.type('application/json; charset=utf-8');
      return 'page' in answer ? okPageJson(answer.page.head, answer.page.items) : okJson(answer.json);
    }
    const called = await call(deps.bus, spec.subject, input, callContext(req), timeoutMs);
    const result = spec.answer ? await spec.answer(called) : called;
    reply.code(status);
    if (spec.cache) reply.header('cache-control', spec.cache(input));
    if (spec.page) {
      const { items, pagination, meta } = result as PageReply;
      return okPage(items, pagination, meta);
    }
    if (spec.list) {
      const { items, meta } = result as Omit<PageReply, 'pagination'>;
      return okList(items, meta);
    }
    if (wholeArray) return okList(result as unknown[]);
    return ok(result);
  }
}
