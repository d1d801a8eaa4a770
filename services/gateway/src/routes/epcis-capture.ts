import { readFileSync } from 'node:fs';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AppError,
  EPCIS_CAPTURE_ERROR_BEHAVIOURS,
  EPCIS_CAPTURE_FILE_SIZE_LIMIT,
  EPCIS_CAPTURE_LIMIT,
  EPCIS_CAPTURE_LIST_LIMIT,
  type EpcisCaptureErrorBehaviour,
  EpcisCaptureId,
  EpcisCaptureJob,
  transportEpcisCapture,
  transportEpcisCaptureGet,
  transportEpcisCaptureList,
} from '@rootline/contracts';
import { EPCIS_CONTEXT_URL } from '@rootline/domain';
import { call } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyReply } from 'fastify';
import type { BusRouteDeps } from '../http/bus-route.js';
import { type AccountName, boundParty } from '../http/party-names.js';
import { callContext } from '../http/request-context.js';
import { CAPTURE_LIMIT_DOC_HEADERS, CAPTURE_LIMIT_HEADERS, problemResponses, VERSION_HEADERS } from './epcis-common.js';

const TAGS = ['Transport'];

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext resolution.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** GS1's EPCIS 2.0 JSON schema, vendored unmodified (vendor/gs1-epcis/README.md), compiled on first use. */
let validateDocument: ReturnType<Ajv['compile']> | undefined;
function gs1Validator(): ReturnType<Ajv['compile']> {
  if (!validateDocument) {
    const schema = JSON.parse(
      readFileSync(new URL('../../vendor/gs1-epcis/EPCIS-JSON-Schema.json', import.meta.url), 'utf8'),
    );
    const ajv = new Ajv({ strict: false, allErrors: false });
    addFormats(ajv);
    validateDocument = ajv.compile(schema);
  }
  return validateDocument;
}

/** The first of GS1's schema errors, as a problem's detail (`/epcisBody/eventList/0: must have …`). */
const schemaError = (errors: ErrorObject[] | null | undefined) => {
  const e = errors?.[0];
  return e ? `${e.instancePath || '/'}: ${e.message ?? 'is not valid'}` : 'not an EPCIS 2.0 document';
};

/** The example document: two events on the walk's plant, as a partner's system would send them. */
const PLANT_EPC = 'urn:rootline:plant:plt_01HZX3K6Q2W8N4B7T5R9V0C1MD';
const EXAMPLE_DOCUMENT = {
  '@context': [EPCIS_CONTEXT_URL],
  type: 'EPCISDocument',
  schemaVersion: '2.0',
  creationDate: '2026-10-02T09:00:00Z',
  epcisBody: {
    eventList: [
      {
        type: 'ObjectEvent',
        eventID: 'urn:uuid:6f1c2b1e-1d0a-4c49-9a7e-3b2f1d0c9e81',
        eventTime: '2026-10-01T09:00:00+02:00',
        eventTimeZoneOffset: '+02:00',
        epcList: [PLANT_EPC],
        action: 'OBSERVE',
        bizStep: 'storing',
        disposition: 'in_progress',
        readPoint: { id: 'geo:52.37,4.89' },
        bizLocation: { id: 'geo:52.37,4.89' },
      },
      {
        type: 'ObjectEvent',
        eventID: 'urn:uuid:0b7d4f3a-8a55-4e8e-8a51-2e6f0f9d3c12',
        eventTime: '2026-10-01T15:00:00+02:00',
        eventTimeZoneOffset: '+02:00',
        epcList: [PLANT_EPC],
        action: 'OBSERVE',
        bizStep: 'shipping',
        disposition: 'in_transit',
        sourceList: [{ type: 'location', source: 'geo:52.37,4.89' }],
        destinationList: [{ type: 'location', destination: 'geo:52.16,4.5' }],
      },
    ],
  },
};

const EXAMPLE_JOB = {
  captureID: 'cap_01HZX3K6Q2W8N4B7T5R9V0C1MD',
  createdAt: '2026-10-02T09:00:00.000Z',
  finishedAt: '2026-10-02T09:00:04.000Z',
  running: false,
  success: false,
  captureErrorBehaviour: 'proceed',
  eventCount: 2,
  capturedCount: 1,
  errors: [
    {
      type: 'epcisException:SecurityException',
      title: 'Access to resource forbidden',
      status: 403,
      detail: 'plantId: only a custodian of the plant may record its events',
      instance: 'urn:uuid:0b7d4f3a-8a55-4e8e-8a51-2e6f0f9d3c12',
      code: 'FORBIDDEN',
      details: { field: 'plantId', reason: 'not-custodian' },
    },
  ],
};

const EventList = Type.Array(Type.Unknown(), { description: `At most ${EPCIS_CAPTURE_LIMIT} events` });

/**
 * An EPCISDocument, or an EPCISQueryDocument (a query's answer, captured as the standard says it may be), loosely:
 * GS1's JSON schema checks it in full.
 */
const CaptureDocument = Type.Object(
  {
    '@context': Type.Unknown({ description: 'JSON-LD context: GS1’s EPCIS context, and any of your own' }),
    type: Type.Union([Type.Literal('EPCISDocument'), Type.Literal('EPCISQueryDocument')]),
    schemaVersion: Type.String({ maxLength: 10, description: '`2.0`' }),
    creationDate: Type.String({ format: 'date-time' }),
    epcisBody: Type.Object({
      eventList: Type.Optional(EventList),
      queryResults: Type.Optional(Type.Object({ resultsBody: Type.Object({ eventList: EventList }) })),
    }),
  },
  {
    description:
      'An EPCIS 2.0 EPCISDocument (JSON or JSON-LD), or an EPCISQueryDocument, valid under GS1’s EPCIS JSON schema',
    examples: [EXAMPLE_DOCUMENT],
  },
);

/** The events of a captured document, either kind. */
const eventsOf = (doc: {
  epcisBody: { eventList?: unknown[]; queryResults?: { resultsBody: { eventList: unknown[] } } };
}) => doc.epcisBody.eventList ?? doc.epcisBody.queryResults?.resultsBody.eventList ?? [];

const JOB_HEADERS = {
  Location: { type: 'string', description: 'The capture job: `/api/epcis/capture/{captureID}`' },
  'GS1-EPCIS-Version': { type: 'string', description: 'EPCIS version' },
  'GS1-CBV-Version': { type: 'string', description: 'CBV version' },
  ...CAPTURE_LIMIT_DOC_HEADERS,
};

const CAPTURE_DESCRIPTION =
  'The capture interface of GS1’s EPCIS 2.0 REST binding (the standard’s OpenAPI, `REST Bindings/openapi.yaml`, ' +
  '`POST /capture`): an `EPCISDocument` (`application/json` or `application/ld+json`, GS1’s JSON-LD context), or an ' +
  '`EPCISQueryDocument` (a query’s answer), is ' +
  'checked against GS1’s EPCIS JSON schema (400 `epcisException:ValidationException` otherwise) and the limits ' +
  `(\`GS1-EPCIS-Capture-Limit\`: ${EPCIS_CAPTURE_LIMIT} events; \`GS1-EPCIS-Capture-File-Size-Limit\`: ` +
  `${EPCIS_CAPTURE_FILE_SIZE_LIMIT} bytes; 413 \`epcisException:CaptureLimitExceededException\` over them), then ` +
  'answered 202 with the capture job (`Location: /api/epcis/capture/{captureID}`) while its events are recorded ' +
  'in the background.\n\n' +
  '**What is captured** (docs/epcis.md): ObjectEvents (ADD or OBSERVE) on one plant each (its GS1 Digital Link or ' +
  '`urn:rootline:plant:<id>` in `epcList`) with business step `commissioning` (planting), `transporting` ' +
  '(growing), `creating_class_instance` (harvest: the mass in `quantityList`, KGM or GRM), `shipping` ' +
  '(distribution) or `storing` (seed saving), and TransformationEvents turning a plant (`inputEPCList`) into a mass ' +
  'of produce (`outputQuantityList`: a harvest). Places are geo URIs (`bizLocation` or `readPoint`; a movement’s ' +
  '`sourceList` / `destinationList` of type `location`), recorded at the city privacy level. Each becomes a journey ' +
  'event recorded as `POST /api/transport/{kind}` records it, by you as its handler: the same custody rule, time ' +
  'order and ledger transaction. Its `eventID` is kept: capturing it again records nothing more.\n\n' +
  '**Refused per event**, as problems in the job’s `errors` (`instance`: the eventID): an EPC that names no plant ' +
  'here or an unknown plant (`NoSuchResourceException`, 404), a plant you do not hold (`SecurityException`, 403), ' +
  'an event the checks refuse (`ValidationException`, 400), another event type, business step, DELETE, an error ' +
  'declaration or a handoff to a party (`ImplementationException`, 501: record those through /api/transport).\n\n' +
  '`GS1-Capture-Error-Behaviour`: `rollback` (default) records nothing when any event is refused by the checks; ' +
  '`proceed` records the others. Errors are RFC 7807 problems with the standard’s types.';

const jobOf = (id: string) => `/api/epcis/capture/${id}`;

function withCaptureHeaders(reply: FastifyReply): FastifyReply {
  return reply.headers({ ...VERSION_HEADERS, ...CAPTURE_LIMIT_HEADERS }).header('cache-control', 'no-store');
}

/** `OPTIONS /capture`, `POST /capture`, `GET /capture` and `GET /capture/{captureId}` (ADR 301). */
export function captureRoutes(
  app: Parameters<FastifyPluginAsyncTypebox>[0],
  deps: BusRouteDeps & { accountName: AccountName },
): void {
  // JSON-LD is JSON: the standard's documents come as either type.
  app.addContentTypeParser(
    'application/ld+json',
    { parseAs: 'string', bodyLimit: EPCIS_CAPTURE_FILE_SIZE_LIMIT },
    app.getDefaultJsonParser('error', 'error'),
  );

  app.route({
    method: 'POST',
    url: '/capture',
    bodyLimit: EPCIS_CAPTURE_FILE_SIZE_LIMIT,
    config: {
      permission: 'transport:write',
      object: {
        rule: 'none',
        why: 'the plants its events name are checked event by event, as custody (refused ones are listed in the job)',
      },
    },
    schema: {
      operationId: 'captureEpcisDocument',
      summary: 'EPCIS 2.0 capture',
      description: CAPTURE_DESCRIPTION,
      tags: TAGS,
      headers: Type.Object({
        'gs1-capture-error-behaviour': Type.Optional(
          Type.Union(
            EPCIS_CAPTURE_ERROR_BEHAVIOURS.map((b) => Type.Literal(b)),
            {
              description: 'rollback (default): nothing is recorded when an event is refused; proceed: the others are',
            },
          ),
        ),
      }),
      body: CaptureDocument,
      response: {
        202: {
          description: 'Accepted: the capture job, running',
          headers: JOB_HEADERS,
          content: {
            'application/json': {
              schema: EpcisCaptureJob,
              example: { ...EXAMPLE_JOB, finishedAt: null, running: true, success: true, capturedCount: 0, errors: [] },
            },
          },
        },
        ...problemResponses(
          {
            400: 'VALIDATION_ERROR',
            401: 'UNAUTHORIZED',
            403: 'FORBIDDEN',
            413: 'PAYLOAD_TOO_LARGE',
            415: 'VALIDATION_ERROR',
            429: 'RATE_LIMITED',
            500: 'INTERNAL',
            503: 'UNAVAILABLE',
          },
          true,
        ),
      },
    },
    handler: async (req, reply) => {
      const document = req.body as Parameters<typeof eventsOf>[0];
      if (eventsOf(document).length > EPCIS_CAPTURE_LIMIT) {
        throw new AppError('PAYLOAD_TOO_LARGE', `At most ${EPCIS_CAPTURE_LIMIT} events per capture`);
      }
      const validate = gs1Validator();
      if (!validate(document)) {
        throw new AppError('VALIDATION_ERROR', schemaError(validate.errors), { field: 'body' });
      }
      const user = req.principal?.user;
      if (!user) throw new AppError('UNAUTHORIZED', 'This action needs a signed-in user');
      const handler = await boundParty({ id: user.id }, 'handler', deps.accountName, user.name);
      const errorBehaviour =
        ((req.headers as Record<string, string | undefined>)['gs1-capture-error-behaviour'] as
          | EpcisCaptureErrorBehaviour
          | undefined) ?? 'rollback';
      const job = await call(
        deps.bus,
        transportEpcisCapture,
        { document, errorBehaviour, handler: { id: handler.id, name: handler.name } },
        callContext(req),
        deps.timeoutMs,
      );
      return withCaptureHeaders(reply)
        .code(202)
        .header('location', jobOf(job.captureID))
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(job) as never);
    },
  });

  app.route({
    method: 'OPTIONS',
    url: '/capture',
    config: { public: true, object: { rule: 'none', why: 'the capture interface’s own settings' } },
    schema: {
      operationId: 'discoverEpcisCapture',
      summary: 'EPCIS 2.0 capture settings',
      description:
        'The standard’s discovery of the capture interface (`OPTIONS /capture`): 204 with the methods (`Allow`), the ' +
        'EPCIS and CBV versions, the limits (`GS1-EPCIS-Capture-Limit`: events per capture; ' +
        '`GS1-EPCIS-Capture-File-Size-Limit`: bytes) and the default `GS1-Capture-Error-Behaviour` (`rollback`). ' +
        'The limits are on every capture answer too.',
      tags: TAGS,
      response: {
        204: {
          type: 'null',
          description: 'The capture interface’s settings, in headers',
          headers: {
            Allow: { type: 'string', description: '`OPTIONS, POST, GET`' },
            'GS1-EPCIS-Version': JOB_HEADERS['GS1-EPCIS-Version'],
            'GS1-CBV-Version': JOB_HEADERS['GS1-CBV-Version'],
            'GS1-Capture-Error-Behaviour': { type: 'string', description: 'The default: `rollback`' },
            ...CAPTURE_LIMIT_DOC_HEADERS,
          },
        },
        ...problemResponses({ 429: 'RATE_LIMITED', 500: 'INTERNAL' }, true),
      },
    },
    handler: async (_req, reply) =>
      withCaptureHeaders(reply)
        .headers({ allow: 'OPTIONS, POST, GET', 'gs1-capture-error-behaviour': 'rollback' })
        .code(204)
        .send(),
  });

  app.route({
    method: 'GET',
    url: '/capture',
    config: { permission: 'transport:read', object: { rule: 'own' } },
    schema: {
      operationId: 'listEpcisCaptureJobs',
      summary: 'EPCIS 2.0 capture jobs',
      description:
        `Your latest capture jobs (at most ${EPCIS_CAPTURE_LIST_LIMIT}), newest first, as the standard’s list of ` +
        '`CaptureJob`s (one page: no `Link` header).',
      tags: TAGS,
      response: {
        200: {
          description: 'Success: the capture jobs',
          headers: { 'GS1-EPCIS-Version': JOB_HEADERS['GS1-EPCIS-Version'] },
          content: { 'application/json': { schema: Type.Array(EpcisCaptureJob), example: [EXAMPLE_JOB] } },
        },
        ...problemResponses({ 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 429: 'RATE_LIMITED', 500: 'INTERNAL' }, true),
      },
    },
    handler: async (req, reply) => {
      const { jobs } = await call(deps.bus, transportEpcisCaptureList, {}, callContext(req), deps.timeoutMs);
      return withCaptureHeaders(reply)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(jobs) as never);
    },
  });

  app.route({
    method: 'GET',
    url: '/capture/:captureId',
    config: {
      permission: 'transport:read',
      object: { rule: 'owner', field: 'captureId', record: 'capture job', why: 'the account that captured' },
    },
    schema: {
      operationId: 'getEpcisCaptureJob',
      summary: 'EPCIS 2.0 capture job',
      description:
        'The state of a capture job, as the standard’s `CaptureJob`: `running` while its events are being recorded, ' +
        '`success` false once any event was refused, with one RFC 7807 problem per refused event in `errors` ' +
        '(`instance`: its eventID, or its place in the document) and `capturedCount`, the events recorded. Only the ' +
        'account that captured it (or an ADMIN) reads it (403 `epcisException:SecurityException`); an unknown id is ' +
        '404 `epcisException:NoSuchNameException`. A job left running by a restart is ended as failed after 15 ' +
        'minutes: capture the document again (what was recorded is not repeated).',
      tags: TAGS,
      params: Type.Object({ captureId: EpcisCaptureId }),
      response: {
        200: {
          description: 'Success: the capture job',
          headers: { 'GS1-EPCIS-Version': JOB_HEADERS['GS1-EPCIS-Version'] },
          content: { 'application/json': { schema: EpcisCaptureJob, example: EXAMPLE_JOB } },
        },
        ...problemResponses(
          { 400: 'VALIDATION_ERROR', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 500: 'INTERNAL' },
          true,
        ),
      },
    },
    handler: async (req, reply) => {
      const job = await call(
        deps.bus,
        transportEpcisCaptureGet,
        req.params as { captureId: string },
        callContext(req),
        deps.timeoutMs,
      );
      return withCaptureHeaders(reply)
        .header('gs1-capture-error-behaviour', job.captureErrorBehaviour)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(job) as never);
    },
  });
}
