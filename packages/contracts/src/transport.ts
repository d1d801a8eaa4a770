import { type Static, type TObject, Type } from '@sinclair/typebox';
import { Location, Owner, PartyInput, PrefixedId, RecordedParty, SeedLotId, Text, Timestamp } from './common.js';
import { Defaulted, defineEvent, defineSubject, type InputOf, Named, type SubjectDef } from './define.js';
import { Pagination } from './envelope.js';
import { PlantId, PRIVACY_LEVELS, StringEnum } from './plants.js';

/** The seven kinds of journey event, in the order a plant usually meets them (see docs/transport.md). */
export const TRANSPORT_EVENT_KINDS = [
  'seed-acquisition',
  'planting',
  'growing',
  'harvest',
  'distribution',
  'seed-saving',
  'seed-sharing',
] as const;
export type TransportEventKind = (typeof TRANSPORT_EVENT_KINDS)[number];

/** How goods moved; `none` is an event without a journey (planting in place). Factors: docs/transport.md. */
export const TRANSPORT_MODES = [
  'none',
  'walking',
  'bicycle',
  'cargo-bike',
  'electric-van',
  'diesel-van',
  'car',
  'hgv-diesel',
  'hgv-refrigerated',
  'rail',
  'ship',
  'air',
] as const;
export type TransportMode = (typeof TRANSPORT_MODES)[number];

export const QUANTITY_UNITS = ['kg', 'g', 'seeds', 'plants', 'packets'] as const;

export const TransportEventId = PrefixedId('tev', 'Transport event identifier');

/** A seed handoff across nodes (ADR 309): a `urn:uuid`, lowercase, the same on both nodes. */
export const HANDOFF_ID_PATTERN = '^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
export const HandoffId = Type.String({
  pattern: HANDOFF_ID_PATTERN,
  description: 'A seed handoff across nodes: a `urn:uuid`, the same on the giving and the receiving node (ADR 309)',
  examples: ['urn:uuid:3f2b8c1e-9d4a-4e6b-8f1c-2a7d5e9b0c34'],
});

/** Event time with its offset (EPCIS eventTime + eventTimeZoneOffset in one RFC 3339 string). */
const EventTime = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$',
  description: 'When it happened, RFC 3339 with its time-zone offset, e.g. 2026-05-04T09:30:00+02:00',
  examples: ['2026-05-04T09:30:00+02:00'],
});

export const Quantity = Type.Object(
  {
    value: Type.Number({ exclusiveMinimum: 0, maximum: 1e9 }),
    unit: StringEnum(QUANTITY_UNITS, { description: 'kg, g, seeds, plants or packets' }),
  },
  { additionalProperties: false },
);
export type Quantity = Static<typeof Quantity>;

export const SensorReading = Type.Object(
  {
    at: EventTime,
    temperatureC: Type.Optional(Type.Number({ minimum: -80, maximum: 80 })),
    humidityPercent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  },
  { additionalProperties: false },
);
export type SensorReading = Static<typeof SensorReading>;

/**
 * Who handled an event. The whole field defaults to the caller, named as their account is; `name` alone may be left
 * out when `id` is the caller's. Naming another account is for ADMINs recording on someone's behalf, with its name.
 */
export const EventHandler = Type.Object(
  {
    id: Text({ minLength: 1, maxLength: 120, description: 'The handler’s account id; only an ADMIN may name another' }),
    name: Type.Optional(
      Text({
        minLength: 1,
        maxLength: 200,
        description: 'Shown as the handler; default: the account’s name when `id` is the caller’s (required otherwise)',
      }),
    ),
    nameStatedBy: PartyInput.properties.nameStatedBy,
  },
  {
    additionalProperties: false,
    description:
      'Who handled it. Default: the caller, with the name of their account. Only an ADMIN may name another ' +
      'account (403 FORBIDDEN, `reason: not-self`, otherwise), and then gives its name',
  },
);

/** The recipient of a handoff: a party (an account, or one without an account under a stated name). */
export const RecipientInput = PartyInput;

/** Readings one event may carry at most. */
export const MAX_SENSOR_READINGS = 500;

const eventFields = {
  plantId: Type.Optional(PlantId),
  seedLotId: Type.Optional(SeedLotId),
  quantity: Type.Optional(Quantity),
  eventTime: EventTime,
  from: Type.Optional(Location),
  to: Location,
  privacyLevel: Defaulted(
    StringEnum(PRIVACY_LEVELS, {
      default: 'exact',
      description: 'Applied to `from` and `to` before they are stored or written to the ledger, as for plants',
    }),
  ),
  transportMode: Defaulted(
    StringEnum(TRANSPORT_MODES, { default: 'none', description: 'How it moved; `none` when nothing travelled' }),
  ),
  distanceKm: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 40_075,
      description: 'Distance travelled; haversine from `from` to `to` when absent (0 without `from`)',
    }),
  ),
  massKg: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 1e6,
      description: 'Mass moved; from `quantity` when it is in kg or g, else 0',
    }),
  ),
  handler: Type.Optional(EventHandler),
  recipient: Type.Optional(RecipientInput),
  sensorReadings: Type.Optional(Type.Array(SensorReading, { maxItems: MAX_SENSOR_READINGS })),
  corrects: Type.Optional(TransportEventId),
  notes: Type.Optional(Text({ maxLength: 1000 })),
};

/**
 * What a handoff across nodes hands on (ADR 310): the lot's crop, variety and harvest year (public on the lot's node
 * already), on the ledger with the handoff id, so the receiving node makes its lot from what it verified.
 */
export const HandoffLot = Type.Object(
  {
    crop: Text({ minLength: 1, maxLength: 120 }),
    variety: Type.Optional(Text({ minLength: 1, maxLength: 120 })),
    harvestYear: Type.Integer({ minimum: 1900, maximum: 2100 }),
  },
  {
    additionalProperties: false,
    description: 'With `handoffId` only: the handed lot’s crop, variety and harvest year, written to the ledger',
  },
);
export type HandoffLot = Static<typeof HandoffLot>;

/** The request body of one kind: what, when, where, why (the kind), how; harvest needs a quantity, sharing a recipient. */
function eventInput(kind: TransportEventKind) {
  return Type.Object(
    {
      ...eventFields,
      ...(kind === 'harvest' ? { quantity: Quantity } : {}),
      ...(kind === 'seed-sharing'
        ? {
            recipient: RecipientInput,
            handoffId: Type.Optional(
              Type.String({
                ...HandoffId,
                description:
                  'Seed handed to or from a grower on another node: the handoff id both nodes record (ADR 309). ' +
                  'Written to the ledger with the event, so the other node can verify it',
              }),
            ),
            handoffLot: Type.Optional(HandoffLot),
          }
        : {}),
    },
    { additionalProperties: false, description: `A ${kind} event, modelled on a GS1 EPCIS 2.0 ObjectEvent` },
  ) as unknown as TObject<typeof eventFields>;
}

export const TransportEventResult = Named(
  'TransportEventReceipt',
  Type.Object({
    id: TransportEventId,
    blockHash: Type.String({ description: 'Hash of the block that recorded the event' }),
    timestamp: Timestamp,
    distanceKm: Type.Number({
      description:
        'Given, or haversine between the given locations: the measured figure, answered to the handler only (others ' +
        'see it rounded to the privacy level’s step, or none when hidden)',
    }),
    kgCo2e: Type.Number({ description: 'Emissions of the movement (docs/transport.md), as measured' }),
  }),
);
export type TransportEventResult = Static<typeof TransportEventResult>;

/** One subject per kind: `transport.<kind>.record`. */
export const transportEventRecord = Object.fromEntries(
  TRANSPORT_EVENT_KINDS.map((kind) => [
    kind,
    defineSubject({
      subject: `transport.${kind}.record`,
      request: eventInput(kind),
      reply: TransportEventResult,
      summary: `Record a ${kind} event on the ledger`,
    }),
  ]),
) as Record<TransportEventKind, SubjectDef<ReturnType<typeof eventInput>, typeof TransportEventResult>>;

/** A journey event as its handler receives it (defaults filled in). */
export type TransportEventInput = InputOf<(typeof transportEventRecord)['planting']>;

/** The recipient as a journey shows it: a recorded party, and (kept for older clients) `nameStatedBy`. */
export const RecordedRecipient = Named(
  'RecordedRecipient',
  Type.Object(
    {
      ...RecordedParty.properties,
      nameStatedBy: Type.Union([Type.String(), Type.Null()], {
        description:
          'Superseded by `statedBy`. For a party without an account, the account name of who stated its name when ' +
          'the event was recorded; null for an account (and for events recorded before names were bound)',
      }),
    },
    {
      examples: [
        {
          id: 'coop-leiden-food',
          name: 'Leiden Food Co-op',
          statedBy: { id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD', name: 'Bob Visser' },
          nameStatedBy: 'Bob Visser',
        },
      ],
    },
  ),
);
export type RecordedRecipient = Static<typeof RecordedRecipient>;

export const JourneyLocation = Type.Union([Location, Type.Null()], {
  description: 'As stored, after the privacy level; null when hidden or not given',
});

export const JourneyEvent = Named(
  'TransportEvent',
  Type.Object({
    id: TransportEventId,
    kind: StringEnum(TRANSPORT_EVENT_KINDS),
    plantId: Type.Union([PlantId, Type.Null()]),
    seedLotId: Type.Union([Type.String(), Type.Null()]),
    quantity: Type.Union([Quantity, Type.Null()]),
    eventTime: Type.String({ description: 'As given, with its offset' }),
    from: JourneyLocation,
    to: JourneyLocation,
    privacyLevel: StringEnum(PRIVACY_LEVELS),
    transportMode: StringEnum(TRANSPORT_MODES),
    distanceKm: Type.Union([Type.Number(), Type.Null()], {
      description:
        'As anyone may see it: exact for an `exact` event, rounded to the step of its privacy level otherwise ' +
        '(fuzzy 5 km, city 10 km, country 100 km), null when `hidden`. The measured figure counts only in the ' +
        'handler’s own footprint',
    }),
    massKg: Type.Number(),
    kgCo2e: Type.Union([Type.Number(), Type.Null()], {
      description: 'Emissions of the distance shown (null when hidden)',
    }),
    handler: RecordedParty,
    recipient: Type.Union([RecordedRecipient, Type.Null()]),
    sensorReadings: Type.Array(SensorReading),
    corrects: Type.Union([TransportEventId, Type.Null()]),
    correctedBy: Type.Union([TransportEventId, Type.Null()], {
      description: 'The latest event correcting this one; a corrected event is left out of the totals',
    }),
    handoffId: Type.Union([HandoffId, Type.Null()], {
      description: 'A seed-sharing event of a handoff across nodes: its id, the same on both nodes (ADR 309)',
    }),
    notes: Type.Union([Type.String(), Type.Null()], {
      description:
        'Private to the event’s parties (handler, recipient, the plant’s owner) and ADMINs: null for anyone else. ' +
        'Never on the ledger',
    }),
    blockHash: Type.String(),
    recordedAt: Timestamp,
  }),
);
export type JourneyEvent = Static<typeof JourneyEvent>;

export const JourneyTotals = Type.Object({
  events: Type.Integer({ minimum: 0, description: 'Events counted (corrected ones left out)' }),
  distanceKm: Type.Number(),
  kgCo2e: Type.Number(),
  durationHours: Type.Number({ description: 'From the first to the last counted event' }),
});

/** Events per journey page: a page of the default size stays a small answer, the largest holds a long journey. */
export const JOURNEY_PAGE = { defaultLimit: 100, maxLimit: 1000 } as const;

export const JourneyQuery = Type.Object({
  page: Defaulted(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page of events, from 1' })),
  limit: Defaulted(
    Type.Integer({
      minimum: 1,
      maximum: JOURNEY_PAGE.maxLimit,
      default: JOURNEY_PAGE.defaultLimit,
      description: `Events per page (default ${JOURNEY_PAGE.defaultLimit}, at most ${JOURNEY_PAGE.maxLimit})`,
    }),
  ),
  after: Type.Optional(
    PrefixedId(
      'tev',
      'Cursor: the id of the last event of the previous page (`nextAfter`). The page starts after it, read off ' +
        'the index however deep; `page` is not used with it',
    ),
  ),
});

/** What a journey page carries about the whole journey, beside its events (`meta` of the HTTP answer). */
export const JourneyMeta = Named(
  'JourneyMeta',
  Type.Object(
    {
      plantId: PlantId,
      seedLots: Type.Array(Type.String(), {
        description: 'Seed lots the plant’s events name; their own events are included',
      }),
      nextAfter: Type.Union([TransportEventId, Type.Null()], {
        description: 'Cursor of the next page (pass it as `after`): the last event of this page; null on the last page',
      }),
      totals: JourneyTotals,
    },
    {
      description: 'The journey as a whole: its plant, seed lots, the next page’s cursor and the totals of every event',
    },
  ),
);
export type JourneyMeta = Static<typeof JourneyMeta>;

/** One page of a journey: its events (`data` of the HTTP answer), the pagination and the journey's `meta`. */
export const Journey = Type.Object({
  items: Type.Array(JourneyEvent, {
    description: 'One page of the events, in event-time order (UTC instant), then recording order',
  }),
  pagination: Pagination,
  meta: JourneyMeta,
});
export type Journey = Static<typeof Journey>;

export const transportJourneyGet = defineSubject({
  subject: 'transport.journey.get',
  request: Type.Object({ plantId: PlantId, ...JourneyQuery.properties }),
  reply: Journey,
  summary: 'A plant’s journey events in time order with totals',
});

/** Kinds of event that hand a plant or seed lot to a `recipient` (EPCIS shipping); the recipient accepts it. */
export const HANDOFF_KINDS = ['distribution', 'seed-sharing'] as const satisfies readonly TransportEventKind[];

export const HandoffAcceptance = Type.Object(
  {
    eventId: TransportEventId,
    kind: StringEnum(HANDOFF_KINDS),
    plantId: Type.Union([PlantId, Type.Null()], { description: 'The plant handed over, if the event names one' }),
    seedLotId: Type.Union([Type.String(), Type.Null()], { description: 'The seed lot handed over, if named' }),
    recipient: Owner,
    acceptedAt: Timestamp,
  },
  {
    description:
      'A handoff the recipient accepted (EPCIS receiving): the recipient is from then on a custodian of what it names',
    examples: [
      {
        eventId: 'tev_01HZX3K6Q2W8N4B7T5R9V0C1MD',
        kind: 'distribution',
        plantId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
        seedLotId: null,
        recipient: { id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1ME', name: 'Leiden Food Co-op' },
        acceptedAt: '2026-08-07T11:00:00.000Z',
      },
    ],
  },
);
export type HandoffAcceptance = Static<typeof HandoffAcceptance>;

export const transportHandoffAccept = defineSubject({
  subject: 'transport.handoff.accept',
  request: Type.Object(
    { eventId: TransportEventId },
    { additionalProperties: false, examples: [{ eventId: 'tev_01HZX3K6Q2W8N4B7T5R9V0C1MD' }] },
  ),
  reply: HandoffAcceptance,
  summary: 'The recipient of a distribution or seed-sharing event accepts it and becomes a custodian',
});

const Breakdown = Type.Object({
  events: Type.Integer({ minimum: 0 }),
  distanceKm: Type.Number(),
  kgCo2e: Type.Number(),
});

export const Footprint = Named(
  'Footprint',
  Type.Object({
    userId: Type.String(),
    events: Type.Integer({ minimum: 0 }),
    distanceKm: Type.Number(),
    kgCo2e: Type.Number(),
    byMode: Type.Record(Type.String(), Breakdown, { description: 'Per transport mode that occurs' }),
    byKind: Type.Record(Type.String(), Breakdown, { description: 'Per event kind that occurs' }),
    produceKg: Type.Number({ description: 'Harvested mass (harvest events in kg or g)' }),
    kgCo2ePerKgProduce: Type.Union([Type.Number(), Type.Null()], { description: 'Null without harvested mass' }),
    baseline: Type.Object({
      kgCo2e: Type.Number({ description: 'The same delivered mass over conventional logistics (docs/transport.md)' }),
      savedKgCo2e: Type.Number({ description: 'Baseline minus the actual emissions of distribution events' }),
      method: Type.String(),
    }),
  }),
);
export type Footprint = Static<typeof Footprint>;

export const transportFootprintGet = defineSubject({
  subject: 'transport.footprint.get',
  request: Type.Object({
    userId: Text({ minLength: 1, maxLength: 120, examples: ['usr_01HZX3K6Q2W8N4B7T5R9V0C1MD'] }),
  }),
  reply: Footprint,
  summary: 'Carbon footprint of a user’s journey events',
});

export const BlockCheck = Type.Object({
  index: Type.Integer({ minimum: 0 }),
  hash: Type.String(),
  previousHash: Type.String(),
  merkleRoot: Type.String(),
  difficulty: Type.Integer({ minimum: 0 }),
  nonce: Type.Integer({ minimum: 0 }),
  timestamp: Type.String(),
  verdict: StringEnum(['valid', 'invalid'] as const),
  checks: Type.Object(
    {
      hash: Type.Boolean(),
      proofOfWork: Type.Boolean(),
      link: Type.Boolean(),
      merkleRoot: Type.Boolean(),
      transactions: Type.Boolean(),
    },
    { description: 'Each check the ledger ran, true when it passed' },
  ),
  problems: Type.Array(Type.Object({ code: Type.String(), reason: Type.String() })),
  transactions: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.String(),
      payloadHash: Type.String(),
      transportEventId: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});
export type BlockCheck = Static<typeof BlockCheck>;

export const transportBlockVerify = defineSubject({
  subject: 'transport.block.verify',
  request: Type.Object({
    blockHash: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description: 'Block hash, 64 lowercase hex digits',
      examples: ['0000a3f1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e'],
    }),
  }),
  reply: BlockCheck,
  summary: 'Integrity of one block, from the ledger’s own verification',
});

export const QR_FORMATS = ['json', 'png', 'svg'] as const;
export type QrFormat = (typeof QR_FORMATS)[number];

export const QrData = Type.Object({
  id: Type.String(),
  subject: StringEnum(['plant', 'seed-lot'] as const),
  url: Type.String({ description: 'The public verification page a shopper opens' }),
  payload: Type.String({
    description:
      'The exact text encoded in the QR code: a plant’s GS1 Digital Link URI (`<PUBLIC_URL>/8004/<GIAI>`, which ' +
      'redirects to the page), a seed lot’s page URL',
  }),
  format: StringEnum(QR_FORMATS),
  contentType: Type.String(),
  body: Type.Union([Type.String(), Type.Null()], {
    description: 'png: base64 of the image; svg: the SVG text; json: null',
  }),
});
export type QrData = Static<typeof QrData>;

export const QrQuery = Type.Object({
  format: Defaulted(StringEnum(QR_FORMATS, { default: 'json', description: 'json (default), png or svg' })),
});

export const QrTarget = Type.String({
  pattern: '^(plt_[A-Za-z0-9]{10,40}|lot_[A-Za-z0-9-]{3,60})$',
  description: 'A plant id or a seed lot id',
  examples: ['plt_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
});

export const transportQrGet = defineSubject({
  subject: 'transport.qr.get',
  request: Type.Object({ id: QrTarget, ...QrQuery.properties }),
  reply: QrData,
  summary: 'QR code of a plant (its GS1 Digital Link URI) or seed lot, leading to its public verification page',
});

export const transportPageRender = defineSubject({
  subject: 'transport.page.render',
  request: Type.Object({ id: QrTarget }),
  reply: Type.Object({ html: Type.String() }),
  summary: 'The public verification page of a plant or seed lot, as HTML',
});

/** A journey event was accepted and recorded on the ledger (public kind `transport.completed`). */
export const transportCompleted = defineEvent({
  subject: 'evt.transport.event.recorded',
  kind: 'transport.completed',
  payload: Type.Object({
    eventId: Type.String(),
    kind: Type.String(),
    plantId: Type.Union([Type.String(), Type.Null()]),
    seedLotId: Type.Union([Type.String(), Type.Null()]),
    handlerId: Type.String(),
    recipientId: Type.Union([Type.String(), Type.Null()]),
    transportMode: Type.String(),
    distanceKm: Type.Union([Type.Number(), Type.Null()], {
      description: 'Rounded to the step of the event’s privacy level; null when hidden (docs/transport.md)',
    }),
    kgCo2e: Type.Union([Type.Number(), Type.Null()], { description: 'For the rounded distance; null when hidden' }),
    eventTime: Type.String(),
    corrects: Type.Union([Type.String(), Type.Null()]),
    epcisEventId: Type.Optional(
      Type.String({
        description:
          'The EPCIS `eventID` the event was captured under (`POST /api/epcis/capture`, ADR 302); absent for an event ' +
          'recorded through /api/transport or captured without one',
      }),
    ),
  }),
});
