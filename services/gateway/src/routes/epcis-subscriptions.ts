import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  EPCIS_SUBSCRIPTION_LIMIT,
  EpcisQueryName,
  EpcisSubscription,
  EpcisSubscriptionCreated,
  EpcisSubscriptionId,
  EpcisSubscriptionInput,
  transportEpcisSubscriptionCreate,
  transportEpcisSubscriptionDelete,
  transportEpcisSubscriptionGet,
  transportEpcisSubscriptionList,
} from '@rootline/contracts';
import { call } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BusRouteDeps } from '../http/bus-route.js';
import { callContext } from '../http/request-context.js';
import { problemResponses, VERSION_HEADERS } from './epcis-common.js';

const TAGS = ['Transport'];

const EXAMPLE_SUBSCRIPTION = {
  subscriptionID: 'sub_01HZX3K6Q2W8N4B7T5R9V0C1MD',
  queryName: 'shipped-this-season',
  dest: 'https://partner.example.org/epcis/results',
  stream: true,
  schedule: null,
  reportIfEmpty: false,
  initialRecordTime: '2026-10-01T00:00:00.000Z',
  createdAt: '2026-10-02T09:00:00.000Z',
  nextDueAt: null,
  webhookId: 'whk_01HZX3K6Q2W8N4B7T5R9V0C1ME',
};
const EXAMPLE_SCHEDULED = {
  ...EXAMPLE_SUBSCRIPTION,
  subscriptionID: 'sub_01HZX3K6Q2W8N4B7T5R9V0C1MF',
  dest: 'https://partner.example.org/epcis/nightly',
  stream: false,
  schedule: { hour: '1', minute: '5' },
  reportIfEmpty: true,
  initialRecordTime: null,
  nextDueAt: '2026-10-03T01:05:00.000Z',
  webhookId: 'whk_01HZX3K6Q2W8N4B7T5R9V0C1MG',
};
const EXAMPLE_CREATED = { ...EXAMPLE_SUBSCRIPTION, signingSecret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0' };

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
  why: 'the account that stored the query and its subscriptions: another account’s are not found',
} as const;

/**
 * The standard's query subscriptions (`/queries/{queryName}/subscriptions`, ADR 313): each delivered to `dest` by a
 * signed webhook of the account (Standard Webhooks), which the subscription creates and its deletion removes.
 */
export function subscriptionRoutes(app: Parameters<FastifyPluginAsyncTypebox>[0], deps: BusRouteDeps): void {
  const authErrors = { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 429: 'RATE_LIMITED', 500: 'INTERNAL' } as const;
  const QueryParams = Type.Object({ queryName: EpcisQueryName });
  const Params = Type.Object({ queryName: EpcisQueryName, subscriptionID: EpcisSubscriptionId });
  const one = (req: FastifyRequest) => req.params as { queryName: string; subscriptionID: string };

  app.route({
    method: 'POST',
    url: '/queries/:queryName/subscriptions',
    config: { permission: 'transport:read', object: OWNER_RULE },
    schema: {
      operationId: 'createEpcisSubscription',
      summary: 'EPCIS 2.0 query subscription: create',
      description:
        'Subscribes `dest` to a named query of yours (the standard’s `POST /queries/{queryName}/subscriptions`): ' +
        'with `stream: true`, each journey event recorded from now on that the query matches (recorded through ' +
        '`/api/transport` or captured) is sent as an `EPCISQueryDocument` with `queryName` and `subscriptionID`. ' +
        'With a `schedule` (the standard’s QuerySchedule, in UTC), each due time sends what it matches among the ' +
        'events recorded since the last delivery, and an empty result only with `reportIfEmpty`. With ' +
        '`initialRecordTime`, what it matches among the events recorded since then is sent first. Delivery is ' +
        'a webhook of yours to `dest`, created with the subscription: Standard Webhooks signatures keyed by ' +
        '`signatureToken` (or a generated secret, shown once as `signingSecret`), retries and a delivery log under ' +
        '`/api/transparency/webhooks/{webhookId}`. As GS1’s REST binding sends results, the body is the bare ' +
        '`EPCISQueryDocument` (`application/ld+json`) with `GS1-Signature: sha256=<hex HMAC-SHA256 of the body ' +
        'keyed by signatureToken>` beside the Standard Webhooks headers. Neither `stream: true` nor a schedule, both, a schedule the standard ' +
        'refuses (a value outside its range, a backwards range, never due) or a `dest` the platform may not reach ' +
        'is 400 `epcisException:SubscriptionControlsException`. A name you have not ' +
        `stored is 404; at most ${EPCIS_SUBSCRIPTION_LIMIT} subscriptions per query (409). Answers 201 with ` +
        '`Location: /api/epcis/queries/{queryName}/subscriptions/{subscriptionID}`.',
      tags: TAGS,
      params: QueryParams,
      body: EpcisSubscriptionInput,
      response: {
        201: {
          description: 'Success: the subscription and its webhook are made',
          headers: { Location: { type: 'string', description: 'The subscription' } },
          content: { 'application/json': { schema: EpcisSubscriptionCreated, example: EXAMPLE_CREATED } },
        },
        ...problemResponses({ 400: 'VALIDATION_ERROR', 404: 'NOT_FOUND', 409: 'CONFLICT', ...authErrors }, false, true),
      },
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const body = req.body as Record<string, unknown>;
      const { queryName } = req.params as { queryName: string };
      const created = await call(
        deps.bus,
        transportEpcisSubscriptionCreate,
        { ...body, queryName } as never,
        callContext(req),
        deps.timeoutMs,
      );
      const location = `/api/epcis/queries/${encodeURIComponent(queryName)}/subscriptions/${created.subscriptionID}`;
      return json(reply.code(201).header('location', location), created);
    },
  });

  app.route({
    method: 'GET',
    url: '/queries/:queryName/subscriptions',
    config: { permission: 'transport:read', object: OWNER_RULE },
    schema: {
      operationId: 'listEpcisSubscriptions',
      summary: 'EPCIS 2.0 query subscriptions',
      description:
        'The subscriptions of a named query of yours, oldest first (one page: no `Link` header). A name you have ' +
        'not stored is 404.',
      tags: TAGS,
      params: QueryParams,
      response: {
        200: {
          description: 'Success: the subscriptions',
          content: {
            'application/json': {
              schema: Type.Array(EpcisSubscription),
              example: [EXAMPLE_SUBSCRIPTION, EXAMPLE_SCHEDULED],
            },
          },
        },
        ...problemResponses({ 400: 'VALIDATION_ERROR', 404: 'NOT_FOUND', ...authErrors }, false, true),
      },
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const { queryName } = req.params as { queryName: string };
      const { subscriptions } = await call(
        deps.bus,
        transportEpcisSubscriptionList,
        { queryName },
        callContext(req),
        deps.timeoutMs,
      );
      return json(reply, subscriptions);
    },
  });

  app.route({
    method: 'GET',
    url: '/queries/:queryName/subscriptions/:subscriptionID',
    config: { permission: 'transport:read', object: OWNER_RULE },
    schema: {
      operationId: 'getEpcisSubscription',
      summary: 'EPCIS 2.0 query subscription',
      description:
        'A subscription of a named query of yours (never its secret). One you do not have is 404 ' +
        '(`epcisException:NoSuchResourceException`), another account’s too.',
      tags: TAGS,
      params: Params,
      response: {
        200: {
          description: 'Success: the subscription',
          content: { 'application/json': { schema: EpcisSubscription, example: EXAMPLE_SUBSCRIPTION } },
        },
        ...problemResponses({ 400: 'VALIDATION_ERROR', 404: 'NOT_FOUND', ...authErrors }, false, true),
      },
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) =>
      json(reply, await call(deps.bus, transportEpcisSubscriptionGet, one(req), callContext(req), deps.timeoutMs)),
  });

  app.route({
    method: 'DELETE',
    url: '/queries/:queryName/subscriptions/:subscriptionID',
    config: { permission: 'transport:read', object: OWNER_RULE },
    schema: {
      operationId: 'deleteEpcisSubscription',
      summary: 'EPCIS 2.0 query subscription: delete',
      description:
        'Ends a subscription of yours (204) and deletes its webhook: nothing more is sent, pending deliveries ' +
        'included. One you do not have is 404.',
      tags: TAGS,
      params: Params,
      response: {
        204: { type: 'null', description: 'Success: the subscription and its webhook are deleted' },
        ...problemResponses({ 400: 'VALIDATION_ERROR', 404: 'NOT_FOUND', ...authErrors }, false, true),
      },
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      await call(deps.bus, transportEpcisSubscriptionDelete, one(req), callContext(req), deps.timeoutMs);
      return reply.headers(VERSION_HEADERS).code(204).send();
    },
  });
}
