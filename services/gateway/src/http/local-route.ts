import {
  Envelope,
  type ErrorCode,
  ListEnvelope,
  PaginatedEnvelope,
  type Pagination,
  wholeList,
} from '@rootline/contracts';
import { type Static, type TSchema, Type, TypeGuard } from '@sinclair/typebox';
import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import type { RoutePolicy } from '../plugins/auth.js';
import { gatewayErrorCodes, operationSchema } from '../plugins/openapi.js';
import type { TypeBoxInstance } from './bus-route.js';
import { ok, okList, okPage } from './envelope.js';

type Maybe<T extends TSchema | undefined> = T extends TSchema ? Static<T> : unknown;

/** One HTTP operation the gateway answers itself (identity lives in the gateway, not behind the bus). */
export interface LocalRouteSpec<
  B extends TSchema | undefined,
  P extends TSchema | undefined,
  Q extends TSchema | undefined,
  R extends TSchema,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path inside the plugin's prefix. */
  url: string;
  /** The operation's name for client generators: camelCase, verb first (`signIn`, `listApiTokens`). */
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  policy: RoutePolicy;
  body?: B;
  params?: P;
  querystring?: Q;
  /** Schema of `data` on success; of one item for a list (`page`). */
  reply: R;
  /**
   * A list operation: the handler returns `{ items, pagination }`; the items go to `data` and the
   * pagination object beside it.
   */
  page?: boolean;
  /** Success status (default 200). */
  status?: 200 | 201 | 202;
  /** A request body shown in the documentation. */
  example?: Maybe<B>;
  /** A success `data` shown in the documentation (one item for a list). */
  replyExample: Static<R>;
  /** Error codes the operation answers with beyond the gateway's own. */
  errors?: ErrorCode[];
  /** Extra route config (e.g. `rateLimit: false`). */
  config?: Omit<FastifyContextConfig, 'public' | 'permission'>;
  /** Returns `data`; the envelope and status are added. May also redirect through `reply`. */
  handler: (
    req: FastifyRequest<{ Body: Maybe<B>; Params: Maybe<P>; Querystring: Maybe<Q> }>,
    reply: FastifyReply,
  ) => Promise<Static<R> | { items: Static<R>[]; pagination: Pagination }>;
}

/**
 * Declares a gateway-local operation the way `busRoute` declares bus-backed ones: schemas from the contracts,
 * the access policy in the route config, documentation with request and response examples, and the result
 * wrapped in the success envelope.
 */
export function localRoute<
  B extends TSchema | undefined,
  P extends TSchema | undefined,
  Q extends TSchema | undefined,
  R extends TSchema,
>(app: TypeBoxInstance, spec: LocalRouteSpec<B, P, Q, R>): void {
  const status = spec.status ?? 200;
  // A reply that is an array is a list answered whole: `pagination` beside it like every list (ADR 188).
  const wholeArray = !spec.page && TypeGuard.IsArray(spec.reply);
  const example = spec.page
    ? {
        success: true,
        data: [spec.replyExample],
        error: null,
        pagination: { page: 1, limit: 20, total: 1, totalPages: 1 },
      }
    : wholeArray
      ? {
          success: true,
          data: spec.replyExample,
          error: null,
          pagination: wholeList((spec.replyExample as unknown[]).length),
        }
      : { success: true, data: spec.replyExample, error: null };
  const envelope = spec.page
    ? PaginatedEnvelope(spec.reply)
    : wholeArray
      ? ListEnvelope((spec.reply as unknown as { items: TSchema }).items)
      : Envelope(spec.reply);
  const success = { ...envelope, examples: [example] };
  // Unknown query parameters are refused, as on bus routes: a misspelt optional parameter is a caller's bug.
  const querystring = spec.querystring
    ? { ...spec.querystring, additionalProperties: false }
    : Type.Object({}, { additionalProperties: false });
  app.route({
    method: spec.method,
    url: spec.url,
    config: { ...spec.config, ...spec.policy },
    schema: operationSchema({
      ...spec,
      querystring,
      status,
      success,
      errors: [...gatewayErrorCodes({ ...spec, querystring }), ...(spec.errors ?? [])],
    }),
    handler: async (req, reply) => {
      const data = await spec.handler(req as never, reply);
      if (reply.sent) return reply;
      reply.code(status);
      if (spec.page) {
        const { items, pagination } = data as { items: unknown[]; pagination: Pagination };
        return okPage(items, pagination);
      }
      if (wholeArray) return okList(data as unknown[]);
      return ok(data);
    },
  });
}
