import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Bus } from '@rootline/bus';
import {
  Envelope,
  type ErrorCode,
  PaginatedEnvelope,
  type Pagination,
  type RequestOf,
  type SubjectDef,
} from '@rootline/contracts';
import { call } from '@rootline/host';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import { ok, okPage } from './envelope.js';
import type { RoutePolicy } from './plugins/auth.js';
import { gatewayErrorCodes, operationSchema } from './plugins/openapi.js';
import { callContext } from './request-context.js';

/** What routes that call the bus need from the gateway. */
export interface BusRouteDeps {
  bus: Bus;
  /** Default wait for a service's reply. */
  timeoutMs: number;
}

/** One HTTP operation answered by one bus subject. */
export interface BusRouteSpec<D extends SubjectDef> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path inside the domain plugin's prefix, e.g. `/:plantId`. */
  url: string;
  summary: string;
  description?: string;
  tags: string[];
  policy: RoutePolicy;
  subject: D;
  body?: TSchema;
  params?: TSchema;
  querystring?: TSchema;
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
  input?: (req: FastifyRequest) => RequestOf<D>;
  /**
   * A list operation: the subject answers `{ items, pagination }`; the items go to `data` and the
   * pagination object beside it. `item` is the schema of one item.
   */
  page?: { item: TSchema };
}

/** A Fastify instance with the TypeBox type provider, as route plugins receive it. */
export type TypeBoxInstance = Parameters<FastifyPluginAsyncTypebox>[0];

interface PageReply {
  items: unknown[];
  pagination: Pagination;
}

/** Error codes any bus-backed operation can produce, beyond the service's own. */
function gatewayErrors(spec: BusRouteSpec<SubjectDef>): ErrorCode[] {
  return [...gatewayErrorCodes(spec), 'UNAVAILABLE'];
}

/** A validated part of the request, keeping only the properties its schema declares. */
function declared(schema: TSchema | undefined, value: unknown): object {
  // Value.Clean drops what the schema does not list (e.g. a stray query parameter), so the service
  // receives exactly its declared input.
  return schema ? (Value.Clean(schema, value) as object) : {};
}

function mergedInput(req: FastifyRequest, spec: BusRouteSpec<SubjectDef>): Record<string, unknown> {
  return {
    ...declared(spec.querystring, req.query),
    ...declared(spec.params, req.params),
    ...declared(spec.body, req.body),
  };
}

/**
 * Declares an operation whose handler is one bus call: schemas and documentation from the contracts, the
 * caller's policy in the route config, and the reply wrapped in the success envelope.
 */
export function busRoute<D extends SubjectDef>(app: TypeBoxInstance, deps: BusRouteDeps, spec: BusRouteSpec<D>): void {
  const status = spec.status ?? 200;
  const data = spec.reply ?? spec.subject.reply;
  const success = spec.page ? PaginatedEnvelope(spec.page.item) : Envelope(data);
  const timeoutMs = spec.timeoutMs ?? deps.timeoutMs;
  const config: FastifyContextConfig = spec.policy;

  app.route({
    method: spec.method,
    url: spec.url,
    config,
    schema: operationSchema({
      ...spec,
      description: spec.description ?? spec.subject.summary,
      status,
      success,
      errors: [...gatewayErrors(spec), ...(spec.errors ?? [])],
    }),
    handler: async (req, reply) => {
      // Fastify validated each part against its schema; together they form the subject's request.
      const input = spec.input ? spec.input(req) : (mergedInput(req, spec) as RequestOf<D>);
      const result = await call(deps.bus, spec.subject, input, callContext(req), timeoutMs);
      reply.code(status);
      if (spec.page) {
        const { items, pagination } = result as PageReply;
        return okPage(items, pagination);
      }
      return ok(result);
    },
  });
}
