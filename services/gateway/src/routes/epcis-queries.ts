import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  EPCIS_NAMED_QUERY_LIMIT,
  EpcisEventsQuery,
  EpcisNamedQuery,
  EpcisQueryName,
  EpcisStoredQuery,
  type ErrorCode,
  transportEpcisQueryCreate,
  transportEpcisQueryDelete,
  transportEpcisQueryGet,
  transportEpcisQueryList,
} from '@rootline/contracts';
import { call } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BusRouteDeps } from '../http/bus-route.js';
import { callContext } from '../http/request-context.js';
import { problemResponses, VERSION_HEADERS } from './epcis-common.js';

const TAGS = ['Transport'];

const EXAMPLE_QUERY = {
  name: 'shipped-this-season',
  query: { EQ_bizStep: 'shipping', GE_eventTime: '2026-03-01T00:00:00Z' },
  createdAt: '2026-10-02T09:00:00.000Z',
};

const json = (reply: FastifyReply, body: unknown) =>
  reply
    .headers(VERSION_HEADERS)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(body) as never);

const OWNER_RULE = {
  rule: 'owner',
  field: 'queryName',
  record: 'named query',
  why: 'the account that stored it: another account’s name is not found',
} as const;

/** Paging parameters of `GET /queries/{queryName}/events`: the rest is the stored query. */
const PagingQuery = Type.Object(
  { perPage: EpcisEventsQuery.properties.perPage, nextPageToken: EpcisEventsQuery.properties.nextPageToken },
  { additionalProperties: false },
);

/**
 * The standard's named queries (`/queries`, ADR 304), each account's own: stored with the parameters of
 * `GET /events`, answered as it answers (`answer`, the query route's).
 */
export function queryRoutes(
  app: Parameters<FastifyPluginAsyncTypebox>[0],
  deps: BusRouteDeps,
  answer: (req: FastifyRequest, reply: FastifyReply, input: Record<string, unknown>) => Promise<FastifyReply>,
  success: Record<number, unknown>,
  queryErrors: Record<number, ErrorCode>,
): void {
  const authErrors = { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 429: 'RATE_LIMITED', 500: 'INTERNAL' } as const;

  app.route({
    method: 'POST',
    url: '/queries',
    config: { permission: 'transport:read', object: { rule: 'own' } },
    schema: {
      operationId: 'createEpcisNamedQuery',
      summary: 'EPCIS 2.0 named query: create',
      description:
        'Stores a query under a name of yours (the standard’s `POST /queries`): `query` holds the parameters of ' +
        '`GET /api/epcis/events` (not `perPage` or `nextPageToken`), checked as that route checks them (400 ' +
        '`epcisException:QueryParameterException`). Names are yours alone: another account may use the same one. A ' +
        `name you already use is 409; at most ${EPCIS_NAMED_QUERY_LIMIT} queries per account. Answers 201 with ` +
        '`Location: /api/epcis/queries/{queryName}`.',
      tags: TAGS,
      body: Type.Object(
        { name: EpcisQueryName, query: EpcisStoredQuery },
        { additionalProperties: false, examples: [{ name: EXAMPLE_QUERY.name, query: EXAMPLE_QUERY.query }] },
      ),
      response: {
        201: {
          description: 'Success: the query is stored',
          headers: { Location: { type: 'string', description: 'The stored query' } },
          content: { 'application/json': { schema: EpcisNamedQuery, example: EXAMPLE_QUERY } },
        },
        ...problemResponses({ 400: 'VALIDATION_ERROR', 409: 'CONFLICT', ...authErrors }),
      },
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const body = req.body as { name: string; query: Record<string, unknown> };
      const stored = await call(deps.bus, transportEpcisQueryCreate, body as never, callContext(req), deps.timeoutMs);
      return json(reply.code(201).header('location', `/api/epcis/queries/${encodeURIComponent(stored.name)}`), stored);
    },
  });

  app.route({
    method: 'GET',
    url: '/queries',
    config: { permission: 'transport:read', object: { rule: 'own' } },
    schema: {
      operationId: 'listEpcisNamedQueries',
      summary: 'EPCIS 2.0 named queries',
      description: 'Your named queries, by name (one page: no `Link` header).',
      tags: TAGS,
      response: {
        200: {
          description: 'Success: the named queries',
          content: { 'application/json': { schema: Type.Array(EpcisNamedQuery), example: [EXAMPLE_QUERY] } },
        },
        ...problemResponses(authErrors),
      },
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const { queries } = await call(deps.bus, transportEpcisQueryList, {}, callContext(req), deps.timeoutMs);
      return json(reply, queries);
    },
  });

  const Params = Type.Object({ queryName: EpcisQueryName });
  const named = (req: FastifyRequest) => ({ name: (req.params as { queryName: string }).queryName });

  app.route({
    method: 'GET',
    url: '/queries/:queryName',
    config: { permission: 'transport:read', object: OWNER_RULE },
    schema: {
      operationId: 'getEpcisNamedQuery',
      summary: 'EPCIS 2.0 named query',
      description:
        'A named query of yours: its name and parameters. A name you have not stored is 404 ' +
        '(`epcisException:NoSuchResourceException`), another account’s too.',
      tags: TAGS,
      params: Params,
      response: {
        200: {
          description: 'Success: the named query',
          content: { 'application/json': { schema: EpcisNamedQuery, example: EXAMPLE_QUERY } },
        },
        ...problemResponses({ 400: 'VALIDATION_ERROR', 404: 'NOT_FOUND', ...authErrors }),
      },
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) =>
      json(reply, await call(deps.bus, transportEpcisQueryGet, named(req), callContext(req), deps.timeoutMs)),
  });

  app.route({
    method: 'DELETE',
    url: '/queries/:queryName',
    config: { permission: 'transport:read', object: OWNER_RULE },
    schema: {
      operationId: 'deleteEpcisNamedQuery',
      summary: 'EPCIS 2.0 named query: delete',
      description: 'Deletes a named query of yours (204). A name you have not stored is 404.',
      tags: TAGS,
      params: Params,
      response: {
        204: { type: 'null', description: 'Success: the query is deleted' },
        ...problemResponses({ 400: 'VALIDATION_ERROR', 404: 'NOT_FOUND', ...authErrors }),
      },
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      await call(deps.bus, transportEpcisQueryDelete, named(req), callContext(req), deps.timeoutMs);
      return reply.headers(VERSION_HEADERS).code(204).send();
    },
  });

  app.route({
    method: 'GET',
    url: '/queries/:queryName/events',
    config: { permission: 'transport:read', object: OWNER_RULE },
    schema: {
      operationId: 'queryEpcisNamedQueryEvents',
      summary: 'EPCIS 2.0 events of a named query',
      description:
        'Runs a named query of yours: the answer of `GET /api/epcis/events` with its stored parameters, in pages ' +
        '(`perPage`, and the `Link` header naming the next page with its `nextPageToken`). A name you have not ' +
        'stored is 404.',
      tags: TAGS,
      params: Params,
      querystring: PagingQuery,
      response: { ...success, ...problemResponses({ ...queryErrors, ...authErrors, 404: 'NOT_FOUND' }) },
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const stored = await call(deps.bus, transportEpcisQueryGet, named(req), callContext(req), deps.timeoutMs);
      return answer(req, reply, { ...stored.query, ...(req.query as Record<string, unknown>) });
    },
  });
}
