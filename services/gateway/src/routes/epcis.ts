import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  EPCIS_EVENT_TYPES,
  EPCIS_PER_PAGE_MAX,
  EpcisEpc,
  EpcisEventsQuery,
  type ErrorCode,
  transportEpcisEvents,
} from '@rootline/contracts';
import { appLink } from '@rootline/contracts/app-links';
import { EPCIS_CONTEXT_URL, GIAI_AI, plantIdOfGiai, rootlineNamespace } from '@rootline/domain';
import { call, DEFAULT_PUBLIC_URL } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BusRouteDeps } from '../http/bus-route.js';
import type { AccountName } from '../http/party-names.js';
import { callContext } from '../http/request-context.js';
import { captureRoutes } from './epcis-capture.js';
import { problemResponses, sendProblem, VERSION_HEADERS } from './epcis-common.js';
import { queryRoutes } from './epcis-queries.js';
import { subscriptionRoutes } from './epcis-subscriptions.js';

const TAGS = ['Transport'];

const QUERY_ERRORS: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  429: 'RATE_LIMITED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** The query string: the standard's names only; any other parameter is refused (a QueryParameterException). */
const Query = Type.Object(EpcisEventsQuery.properties, { additionalProperties: false });

/** An EPCISQueryDocument, loosely: the events are checked against GS1's JSON schema in the tests. */
const QueryDocument = Type.Object(
  {
    '@context': Type.Array(Type.Unknown()),
    type: Type.Literal('EPCISQueryDocument'),
    schemaVersion: Type.Literal('2.0'),
    creationDate: Type.String(),
    epcisBody: Type.Object({
      queryResults: Type.Object({
        queryName: Type.Literal('SimpleEventQuery'),
        resultsBody: Type.Object({ eventList: Type.Array(Type.Unknown()) }),
      }),
    }),
  },
  { description: 'An EPCIS 2.0 query document (JSON-LD) of ObjectEvents' },
);

const PAGE_HEADERS = {
  Link: {
    type: 'string',
    description:
      '`<…>; rel="next"` with the URL of the next page (its `nextPageToken`) while there are more events; absent on ' +
      'the last page',
  },
  'GS1-EPCIS-Version': { type: 'string', description: 'EPCIS version of the answer' },
  'GS1-CBV-Version': { type: 'string', description: 'CBV version of the answer' },
};

const EXAMPLE_EVENT = {
  type: 'ObjectEvent',
  eventTime: '2026-05-01T10:00:00+02:00',
  eventTimeZoneOffset: '+02:00',
  recordTime: '2026-05-01T08:00:01.000Z',
  eventID: 'urn:uuid:2f0b5c1e-4a0b-5d8e-9c1f-3b2a1d0e9f87',
  epcList: ['https://rootline.example/8004/9520000ABj_o5muLiKkWfRcJ2BgaN'],
  action: 'OBSERVE',
  bizStep: 'shipping',
  disposition: 'in_transit',
  readPoint: { id: 'geo:52.37,4.89' },
  sourceList: [{ type: 'location', source: 'geo:52.37,4.89' }],
  destinationList: [{ type: 'location', destination: 'geo:52.16,4.5' }],
  'rootline:kind': 'distribution',
  'rootline:transportMode': 'bicycle',
  'rootline:distanceKm': 35,
  'rootline:kgCo2e': 0,
  'rootline:proofBundle': 'https://rootline.example/api/transparency/proofs/transactions/tx_01HZX3K6Q2W8N4B7T5R9V0C1MD',
};

const EXAMPLE_DOCUMENT = {
  '@context': [EPCIS_CONTEXT_URL, { rootline: 'https://rootline.example/ns/epcis#' }],
  type: 'EPCISQueryDocument',
  schemaVersion: '2.0',
  creationDate: '2026-05-02T09:00:00.000Z',
  epcisBody: { queryResults: { queryName: 'SimpleEventQuery', resultsBody: { eventList: [EXAMPLE_EVENT] } } },
};

const QUERY_DESCRIPTION =
  'GS1’s EPCIS 2.0 REST query binding (the standard’s OpenAPI, `REST Bindings/openapi.yaml`) over every plant’s ' +
  'journey events, as an `EPCISQueryDocument` (`application/ld+json`) of ObjectEvents with GS1’s JSON-LD context. ' +
  'Parameters have the standard’s names; lists are pipe-delimited (`EQ_bizStep=shipping|receiving`). Pages: ' +
  `\`perPage\` events (default 30, at most ${EPCIS_PER_PAGE_MAX}); while there are more, the \`Link\` header names ` +
  'the next page (`rel="next"`, with its `nextPageToken`). Identifiers (docs/epcis.md): events as `urn:uuid:`, ' +
  'plants as GS1 Digital Link URIs (`<PUBLIC_URL>/8004/<GIAI>`), places as geo URIs at each event’s privacy level ' +
  '(none when hidden). Each event links its ledger proof bundle (`rootline:proofBundle`). The events show what the ' +
  'public journey shows, to anyone: no names, no notes. Errors are RFC 7807 problems with the standard’s types.';

/** The EPCIS 2.0 query interface under /api/epcis, with the standard's error model. */
export const epcisRoutes: FastifyPluginAsyncTypebox<BusRouteDeps & { accountName: AccountName }> = async (
  app,
  deps,
) => {
  app.setErrorHandler((err, req, reply) => sendProblem(err, req, reply));
  captureRoutes(app, deps);

  async function answer(req: FastifyRequest, reply: FastifyReply, input: Record<string, unknown>) {
    const out = await call(deps.bus, transportEpcisEvents, input as never, callContext(req), deps.timeoutMs);
    reply.headers(VERSION_HEADERS);
    if (out.nextPageToken) {
      const url = new URL(req.url, 'http://gateway');
      const next = new URL(`${req.publicUrl ?? DEFAULT_PUBLIC_URL}${url.pathname}`);
      for (const [k, v] of url.searchParams) if (k !== 'nextPageToken') next.searchParams.append(k, v);
      next.searchParams.set('nextPageToken', out.nextPageToken);
      reply.header('link', `<${next.href}>; rel="next"`);
    }
    reply.header('cache-control', 'no-store');
    return reply.type('application/ld+json; charset=utf-8').send(JSON.stringify(out.document) as never);
  }

  const success = {
    200: {
      description: 'Success: an EPCIS query document',
      headers: PAGE_HEADERS,
      content: { 'application/ld+json': { schema: QueryDocument, example: EXAMPLE_DOCUMENT } },
    },
  };

  queryRoutes(app, deps, answer, success, QUERY_ERRORS);
  subscriptionRoutes(app, deps);

  app.route({
    method: 'GET',
    url: '/events',
    config: {
      public: true,
      identifiesCaller: true,
      object: { rule: 'none', why: 'every plant’s public journey events, as journeys show them' },
    },
    schema: {
      operationId: 'queryEpcisEvents',
      summary: 'EPCIS 2.0 events query',
      description: QUERY_DESCRIPTION,
      tags: TAGS,
      querystring: Query,
      response: { ...success, ...problemResponses(QUERY_ERRORS) },
    },
    handler: async (req, reply) => answer(req, reply, req.query as Record<string, unknown>),
  });

  app.route({
    method: 'GET',
    url: '/epcs/:epc/events',
    config: {
      public: true,
      identifiesCaller: true,
      object: { rule: 'public', field: 'epc', record: 'plant', why: 'its public journey events' },
    },
    schema: {
      operationId: 'queryEpcisEventsOfEpc',
      summary: 'EPCIS 2.0 events of an EPC',
      description:
        'The events whose `epcList` names the EPC (a plant’s GS1 Digital Link URI or `urn:rootline:plant:<id>`, ' +
        'URL-encoded in the path, or the bare plant id), with the query parameters and pages of `GET /api/epcis/events`. A harvest names ' +
        'its plant in `rootline:harvestedFrom` (its `epcList` is empty: it creates the plant’s produce, a class), so ' +
        'it is not among them. An EPC that names no plant here, or an unknown plant, is 404 ' +
        '(`epcisException:NoSuchResourceException`).',
      tags: TAGS,
      params: Type.Object({ epc: EpcisEpc }),
      querystring: Query,
      response: { ...success, ...problemResponses({ ...QUERY_ERRORS, 404: 'NOT_FOUND' }) },
    },
    handler: async (req, reply) =>
      answer(req, reply, { ...(req.query as Record<string, unknown>), epc: (req.params as { epc: string }).epc }),
  });

  app.route({
    method: 'GET',
    url: '/eventTypes',
    config: { public: true, object: { rule: 'none', why: 'the repository’s own vocabulary' } },
    schema: {
      operationId: 'listEpcisEventTypes',
      summary: 'EPCIS 2.0 event types',
      description:
        'The event types this repository holds, as the standard’s `Collection` (journey events are ObjectEvents). ' +
        'One page: no `Link` header.',
      tags: TAGS,
      response: {
        200: {
          description: 'Success: the event types',
          headers: { 'GS1-EPCIS-Version': PAGE_HEADERS['GS1-EPCIS-Version'] },
          content: {
            'application/ld+json': {
              schema: Type.Object({
                '@context': Type.Array(Type.Unknown()),
                type: Type.Literal('Collection'),
                member: Type.Array(Type.String()),
              }),
              example: { '@context': [EPCIS_CONTEXT_URL], type: 'Collection', member: [...EPCIS_EVENT_TYPES] },
            },
          },
        },
        ...problemResponses({ 429: 'RATE_LIMITED', 500: 'INTERNAL' }),
      },
    },
    handler: async (_req, reply) =>
      reply
        .headers(VERSION_HEADERS)
        .type('application/ld+json; charset=utf-8')
        .send(
          // Written here: the route's schema documents it, no serialiser needs compiling.
          JSON.stringify({
            '@context': [EPCIS_CONTEXT_URL],
            type: 'Collection',
            member: [...EPCIS_EVENT_TYPES],
          }) as never,
        ),
  });
};

/** The `rootline` vocabulary of EPCIS extension fields, as a JSON-LD context with each term described. */
export function rootlineVocabulary(publicUrl: string): Record<string, unknown> {
  const ns = rootlineNamespace(publicUrl);
  const term = (id: string, type: string | null, comment: string) => ({
    '@id': `${ns}${id}`,
    ...(type ? { '@type': type } : {}),
    'rdfs:comment': comment,
  });
  return {
    '@context': {
      rootline: ns,
      rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
      xsd: 'http://www.w3.org/2001/XMLSchema#',
      kind: term('kind', 'xsd:string', 'The kind of journey event (seed-acquisition, planting, growing, harvest…)'),
      transportMode: term('transportMode', 'xsd:string', 'How it travelled (none, bicycle, electric-van…)'),
      distanceKm: term('distanceKm', 'xsd:decimal', 'Distance in km, rounded to the step of its privacy level'),
      kgCo2e: term('kgCo2e', 'xsd:decimal', 'kg CO2e of that distance by that mode'),
      corrects: term('corrects', '@id', 'The event this one corrects (its eventID)'),
      harvestedFrom: term('harvestedFrom', '@id', 'The plant a harvest was taken from (its GS1 Digital Link URI)'),
      proofBundle: term('proofBundle', '@id', 'The ledger proof bundle of the transaction that recorded the event'),
    },
    '@id': ns.replace(/#$/, ''),
    'rdfs:label': 'Rootline EPCIS extension vocabulary',
    'rdfs:seeAlso': EPCIS_CONTEXT_URL,
  };
}

/**
 * Outside /api: the GS1 Digital Link resolver of plants (`/8004/<GIAI>`) and the vocabulary of the `rootline`
 * namespace (`/ns/epcis`). Not API operations (left out of the OpenAPI document, as the web app's pages are):
 * identifiers that resolve.
 */
export const identifierRoutes: FastifyPluginAsyncTypebox<{ companyPrefix: string }> = async (app, opts) => {
  app.route({
    method: 'GET',
    url: `/${GIAI_AI}/:giai`,
    config: { public: true, object: { rule: 'public', field: 'giai', record: 'plant', why: 'its public page' } },
    schema: {
      hide: true,
      params: Type.Object({ giai: Type.String({ minLength: 1, maxLength: 30 }) }),
      querystring: Type.Object({ linkType: Type.Optional(Type.String({ maxLength: 100 })) }),
    },
    handler: async (req, reply) => {
      const { giai } = req.params as { giai: string };
      const { linkType } = req.query as { linkType?: string };
      const plantId = plantIdOfGiai(giai, opts.companyPrefix);
      if (!plantId) {
        return reply
          .code(404)
          .send({ success: false, data: null, error: { code: 'NOT_FOUND', message: `No plant has GIAI ${giai}` } });
      }
      const base = req.publicUrl ?? '';
      const self = `${base}/${GIAI_AI}/${giai}`;
      // GS1 Digital Link link types: the EPCIS events, the product information page (the app's plant page), or by
      // default the public verification page a QR code opens.
      const target =
        linkType === 'gs1:epcis'
          ? `${base}/api/epcis/epcs/${encodeURIComponent(self)}/events`
          : linkType === 'gs1:pip'
            ? `${base}${appLink('plant', { plantId })}`
            : `${base}${appLink('trace', { id: plantId })}`;
      reply.header('link', `<${self}>; rel="owl:sameAs"`);
      return reply.redirect(target, 307);
    },
  });

  app.route({
    method: 'GET',
    url: '/ns/epcis',
    config: { public: true, object: { rule: 'none', why: 'a vocabulary' } },
    schema: { hide: true },
    handler: async (req, reply) =>
      reply
        .header('cache-control', 'public, max-age=86400')
        .type('application/ld+json; charset=utf-8')
        .send(JSON.stringify(rootlineVocabulary(req.publicUrl ?? DEFAULT_PUBLIC_URL), null, 2)),
  });
};
