import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AppError,
  Envelope,
  JourneyEvent,
  JourneyMeta,
  QrData,
  type QrFormat,
  TRANSPORT_EVENT_KINDS,
  type TransportEventKind,
  transportBlockVerify,
  transportEventRecord,
  transportFootprintGet,
  transportHandoffAccept,
  transportJourneyGet,
  transportPageRender,
  transportQrGet,
} from '@rootline/contracts';
import { call } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { type BusRouteDeps, busRoute, requestParts } from '../http/bus-route.js';
import { ok } from '../http/envelope.js';
import { type AccountName, boundParty, type GivenParty, withAccountNames } from '../http/party-names.js';
import { callContext } from '../http/request-context.js';
import { gatewayErrorCodes, operationSchema } from '../plugins/openapi.js';
import type { NamingRouteDeps } from './plants.js';

const TAGS = ['Transport'];

/** Business step and disposition of each kind in GS1 EPCIS 2.0 terms (CBV 2.0), as docs/transport.md lists them. */
const EPCIS: Record<TransportEventKind, string> = {
  'seed-acquisition': 'bizStep `receiving`, disposition `in_progress`',
  planting: 'bizStep `commissioning`, disposition `active`',
  growing: 'bizStep `transporting` (moved while growing), disposition `in_transit`',
  harvest: 'bizStep `creating_class_instance` (a produce lot is created), disposition `active`; needs `quantity`',
  distribution: 'bizStep `shipping`, disposition `in_transit`',
  'seed-saving': 'bizStep `storing`, disposition `in_progress`',
  'seed-sharing': 'bizStep `shipping` to another grower, disposition `in_transit`; needs `recipient`',
};

/**
 * When each example happens: sent in this order (acquisition, planting, growing, harvest, seed saving,
 * distribution, sharing), a plant's journey never runs backwards.
 */
const EXAMPLE_TIMES: Record<TransportEventKind, string> = {
  'seed-acquisition': '2026-03-14T10:00:00+01:00',
  planting: '2026-04-20T09:30:00+02:00',
  growing: '2026-05-18T16:00:00+02:00',
  harvest: '2026-08-03T08:00:00+02:00',
  distribution: '2026-08-07T09:15:00+02:00',
  'seed-saving': '2026-08-09T14:00:00+02:00',
  'seed-sharing': '2026-09-12T11:00:00+02:00',
};

/** A realistic body per kind, shown in the OpenAPI document. */
function example(kind: TransportEventKind): Record<string, unknown> {
  const base = {
    plantId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
    eventTime: EXAMPLE_TIMES[kind],
    to: { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' },
    privacyLevel: 'city',
  };
  const { plantId: _, ...lotOnly } = base;
  switch (kind) {
    case 'seed-acquisition':
      return {
        ...lotOnly,
        seedLotId: 'lot_tomato-2026-a',
        quantity: { value: 50, unit: 'seeds' },
        from: { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' },
        transportMode: 'bicycle',
      };
    case 'planting':
      return { ...base, seedLotId: 'lot_tomato-2026-a', quantity: { value: 1, unit: 'plants' } };
    case 'growing':
      return {
        ...base,
        from: { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' },
        to: { latitude: 52.3731, longitude: 4.8922, city: 'Amsterdam', country: 'NL' },
        transportMode: 'cargo-bike',
        massKg: 12,
        notes: 'Moved to the community greenhouse',
      };
    case 'harvest':
      return { ...base, quantity: { value: 4.2, unit: 'kg' } };
    case 'distribution':
      return {
        ...base,
        from: { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' },
        to: { latitude: 52.1601, longitude: 4.497, city: 'Leiden', country: 'NL' },
        transportMode: 'hgv-refrigerated',
        massKg: 4.2,
        recipient: { id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1ME' },
        sensorReadings: [
          { at: '2026-08-07T09:30:00+02:00', temperatureC: 4.1, humidityPercent: 91 },
          { at: '2026-08-07T10:30:00+02:00', temperatureC: 4.6, humidityPercent: 90 },
        ],
      };
    case 'seed-saving':
      return { ...base, seedLotId: 'lot_tomato-2026-b', quantity: { value: 12, unit: 'g' } };
    case 'seed-sharing':
      return {
        ...lotOnly,
        seedLotId: 'lot_tomato-2026-b',
        quantity: { value: 2, unit: 'packets' },
        from: { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' },
        to: { latitude: 51.9244, longitude: 4.4777, city: 'Rotterdam', country: 'NL' },
        transportMode: 'rail',
        massKg: 0.02,
        // A party without an account: its name is as the caller states it, shown as stated by them.
        recipient: { id: 'rotterdam-seed-library', name: 'Rotterdam Seed Library' },
      };
  }
}

const EVENT_FIELDS =
  'Modelled on a GS1 EPCIS 2.0 ObjectEvent. **What**: `plantId` and/or `seedLotId`, with `quantity` (value and ' +
  'unit). **When**: `eventTime`, RFC 3339 with its offset. **Where**: `to` (and `from` for a movement), Location ' +
  'objects to which `privacyLevel` is applied before they are stored or written to the ledger, as for plants. ' +
  '**How**: optional `sensorReadings` (time, temperatureC, humidityPercent) for cold chain. Also `transportMode` ' +
  '(default none), `distanceKm` (haversine between the given points when absent), `massKg` (from a kg or g quantity ' +
  'when absent), `handler` (default: the caller; only an ADMIN may name another account, 403 FORBIDDEN ' +
  '`reason: not-self` otherwise), `recipient`, `notes` (kept off the ledger; shown only to the handler, the ' +
  'recipient and the plant’s owner).\n\n' +
  '**Names**: the handler and a recipient with an account (`usr_…` id) carry their account’s display name: leave ' +
  '`name` out (it is filled in) or send the account’s own; any other name is 400 VALIDATION_ERROR (`details: ' +
  '{ field: handler.name | recipient.name, reason: not-account-name }`). A recipient without an account (a shop, ' +
  'a co-op: an id no account has), or a handler an ADMIN names without one, is recorded with the name you state ' +
  '(400 `reason: name-required` without one), shown as stated by you (`statedBy`: your account’s id and current ' +
  'name; set by the gateway, whatever the body says).\n\n' +
  '**Distances**: the answer gives the measured distance and CO2e; everyone else sees them rounded to the step of ' +
  '`privacyLevel` (fuzzy 5 km, city 10 km, country 100 km; none when hidden), on the ledger too.\n\n' +
  '**Custody**: the handler must be a custodian of the plant and the seed lot named (403 FORBIDDEN, details ' +
  '`{ field: plantId | seedLotId, reason: not-custodian }`): a plant’s owner, a seed lot’s first handler, or a ' +
  'recipient of a distribution or seed-sharing event who accepted it (`POST /api/transport/handoffs/{eventId}/accept`). ' +
  'An ADMIN may record for anyone. ' +
  'A plant must exist (404 NOT_FOUND otherwise) and its journey cannot run backwards in time (400, counting the ' +
  'plant’s events still being recorded, so two events sent at once cannot both pass against the same journey). A mistake is ' +
  'corrected by a new event with `corrects` naming the event it replaces (same plant and lot; exempt from the time ' +
  'rule; only by the corrected event’s handler or an ADMIN, 403 `{ field: corrects, reason: not-handler }` ' +
  'otherwise), never by an edit. Answers 201 with the event id, its block hash, the recording time, the distance and ' +
  'kg CO2e, once the block is mined, and emits `transport.completed`. Send an `Idempotency-Key` to retry safely: ' +
  'a retry with the same key and body answers the first 201 (same id and block hash) and records nothing more.';

/**
 * The event body with its parties bound to accounts (ADR 176): the handler is the signed-in account when the body
 * names none, and carries its account's name; a recipient with an account carries its account's name, one without
 * keeps the name the caller states. The accounts (and so their names) are the gateway's, not the service's. The
 * `self` rule has already let only an ADMIN name another handler.
 */
export async function withParties(req: FastifyRequest, accountName: AccountName): Promise<Record<string, unknown>> {
  const body = { ...(req.body as Record<string, unknown>) };
  const user = req.principal?.user;
  if (!user) throw new AppError('UNAUTHORIZED', 'This action needs a signed-in user', { reason: 'sign-in-required' });
  // Who stated the name of a party without an account is the caller, by their account's name (never the body's).
  const given = (body.handler as GivenParty | undefined) ?? { id: user.id };
  body.handler = await boundParty({ id: given.id, name: given.name }, 'handler', accountName, user.name);
  const recipient = body.recipient as GivenParty | undefined;
  if (recipient) {
    body.recipient = await boundParty({ id: recipient.id, name: recipient.name }, 'recipient', accountName, user.name);
  }
  return body;
}

/** Journey events, journeys, footprints and block verification under /api/transport. */
export const transportRoutes: FastifyPluginAsyncTypebox<NamingRouteDeps> = async (app, deps) => {
  for (const kind of TRANSPORT_EVENT_KINDS) {
    busRoute(app, deps, {
      method: 'POST',
      url: `/${kind}`,
      summary: `Record a ${kind} event`,
      description: `EPCIS mapping: ${EPCIS[kind]}.\n\n${EVENT_FIELDS}`,
      tags: TAGS,
      policy: {
        permission: 'transport:write',
        idempotent: true,
        object: [
          { rule: 'self', field: 'handler.id' },
          { rule: 'custodian', field: 'plantId', record: 'plant' },
          { rule: 'custodian', field: 'seedLotId', record: 'seed lot' },
          { rule: 'owner', field: 'corrects', record: 'transport event', why: 'its handler' },
        ],
      },
      subject: transportEventRecord[kind],
      status: 201,
      errors: ['NOT_FOUND', 'CHAIN_ERROR', 'IDEMPOTENCY_KEY_REUSED'],
      example: example(kind),
      input: async (req) => (await withParties(req, deps.accountName)) as never,
    });
  }

  busRoute(app, deps, {
    method: 'POST',
    url: '/handoffs/:eventId/accept',
    summary: 'Accept a handoff',
    description:
      'The recipient named in a distribution or seed-sharing event accepts it (EPCIS: the event is the shipping, ' +
      'this the receiving) and becomes a custodian of the plant and seed lot it names: from then on they may record ' +
      'events on them (planting, growing, harvest, seed-saving, further handoffs). Custody is added, not moved: the ' +
      'plant’s owner and the sender stay custodians. Only the named recipient may accept (403 FORBIDDEN, ' +
      '`reason: not-recipient`, an ADMIN included); an event that is no handoff or names no recipient is 404 ' +
      'NOT_FOUND; a handoff since corrected is 409 CONFLICT (accept its correction). Accepting again answers 200 ' +
      'with the first acceptance’s time and changes nothing.',
    tags: TAGS,
    policy: {
      permission: 'transport:write',
      object: { rule: 'party', field: 'eventId', record: 'handoff', why: 'only the recipient it names' },
    },
    subject: transportHandoffAccept,
    status: 200,
    errors: ['NOT_FOUND', 'CONFLICT'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/journey/:plantId',
    summary: 'Journey of a plant',
    description:
      'The plant’s events in time order (by instant, then recording order), each with its block hash, and totals ' +
      '(distance, kg CO2e, hours from first to last event). Also included: the events of the seed lots the plant’s ' +
      'events name that name no plant themselves (the lot’s journey before it became this plant). A parent plant’s ' +
      'journey is not included; follow the lineage (`/api/plants/lineage/{plantId}`) for it. A corrected event stays ' +
      'listed with `correctedBy` and is left out of the totals. `data` is one page of the events (`page` from 1, ' +
      '`limit` default 100, at most 1,000), with `pagination` beside it, and `meta` the journey as a whole: ' +
      '`plantId`, `seedLots`, `nextAfter` (the cursor of the next page, passed as `after`; null on the last page) and ' +
      '`totals`, which always cover every event, not only the page’s. An event’s `notes` are shown to its handler, ' +
      'its recipient, the plant’s owner and ADMINs, and are null for anyone else. Handlers and recipients carry the ' +
      'name recorded, the account’s current name beside it when it differs (`accountName`), and for a party ' +
      'without an account who stated its name (`statedBy`).',
    tags: TAGS,
    policy: {
      public: true,
      identifiesCaller: true,
      object: { rule: 'public', field: 'plantId', record: 'plant', why: 'notes only to the parties' },
    },
    subject: transportJourneyGet,
    // The handlers' and recipients' current account names beside the recorded ones (ADR 194).
    answer: (data) => withAccountNames(data, deps.accountNames),
    page: { item: JourneyEvent, meta: JourneyMeta },
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/footprint/:userId',
    summary: 'Carbon footprint of a user',
    description:
      'kg CO2e of the events the user handled: in total, by transport mode, by event kind, per kg of harvested ' +
      'produce, and against conventional logistics (the delivered mass over 1,640 km by diesel HGV). Emission ' +
      'factors and their sources: docs/transport.md. Only the user, or an ADMIN, may read it (403 otherwise).',
    tags: TAGS,
    policy: { permission: 'transport:read', object: { rule: 'self', field: 'userId' } },
    subject: transportFootprintGet,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/verify/:blockHash',
    summary: 'Verify a block',
    description:
      'The ledger’s own verification of the block: its hash, proof of work, link to its predecessor, Merkle root and ' +
      'each transaction’s payload hash, with a verdict (`valid` or `invalid`) and the reason for each failed check. ' +
      'Each transaction names the journey event it records, if any. 404 NOT_FOUND for an unknown hash.',
    tags: TAGS,
    policy: { permission: 'transport:read', object: { rule: 'public', field: 'blockHash', record: 'block' } },
    subject: transportBlockVerify,
    errors: ['NOT_FOUND'],
  });
};

/**
 * The QR code and the public page: the service answers each in one bus call; the route sends a PNG, an SVG or
 * HTML as such instead of in the JSON envelope (errors keep the envelope).
 */
export const transportPublicRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  const qrParts = requestParts({ method: 'GET', url: '/qr/:id', subject: transportQrGet });
  app.route({
    method: 'GET',
    url: '/qr/:id',
    config: {
      permission: 'transport:read',
      object: { rule: 'public', field: 'id', record: 'plant or transport event' },
    },
    schema: operationSchema({
      ...qrParts,
      operationId: 'getQrCode',
      summary: 'QR code of a plant or seed lot',
      description:
        'The public verification URL (`<PUBLIC_URL>/api/transport/trace/{id}`; without PUBLIC_URL, the address the ' +
        'request came to) a shopper can scan, and the payload ' +
        'the code encodes (that URL). `format=json` (default) answers the envelope; `png` answers the image ' +
        '(`image/png`, 320 px) and `svg` the vector image (`image/svg+xml`). 404 NOT_FOUND for an unknown plant or a ' +
        'seed lot without events.',
      tags: TAGS,
      status: 200,
      success: Envelope(QrData),
      errors: [
        ...gatewayErrorCodes({ ...qrParts, policy: { permission: 'transport:read' } }),
        'NOT_FOUND',
        'UNAVAILABLE',
      ],
    }),
    handler: async (req, reply) => {
      const input = { ...(req.params as { id: string }), ...(req.query as { format?: QrFormat }) };
      const qr = await call(deps.bus, transportQrGet, input as never, callContext(req), deps.timeoutMs);
      if (qr.format === 'json' || qr.body === null) return ok(qr);
      reply.type(qr.contentType);
      return qr.format === 'png' ? Buffer.from(qr.body, 'base64') : qr.body;
    },
  });

  const pageParts = requestParts({ method: 'GET', url: '/trace/:id', subject: transportPageRender });
  app.route({
    method: 'GET',
    url: '/trace/:id',
    config: { public: true, object: { rule: 'public', field: 'id', record: 'plant or transport event' } },
    schema: operationSchema({
      ...pageParts,
      operationId: 'getTracePage',
      summary: 'Public verification page',
      description:
        'Plain server-rendered HTML for a phone, opened from a QR code, no sign-in: the plant (names, generation, ' +
        'location as its privacy level allows), a lineage summary, its journey with distances and kg CO2e, and the ' +
        'ledger verdict of each block (from the ledger’s own verification). No person’s name and no event notes are ' +
        'shown.',
      tags: TAGS,
      status: 200,
      success: Type.String({ description: 'The page' }),
      mediaType: 'text/html',
      errors: [...gatewayErrorCodes({ ...pageParts, policy: { public: true } }), 'NOT_FOUND', 'UNAVAILABLE'],
    }),
    handler: async (req, reply) => {
      const { html } = await call(
        deps.bus,
        transportPageRender,
        req.params as { id: string },
        callContext(req),
        deps.timeoutMs,
      );
      reply.type('text/html; charset=utf-8');
      return html;
    },
  });
};
