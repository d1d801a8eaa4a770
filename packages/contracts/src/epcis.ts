import { type Static, Type } from '@sinclair/typebox';
import { Text, Timestamp } from './common.js';
import { Defaulted, defineEvent, defineSubject, Named } from './define.js';

/**
 * The EPCIS 2.0 REST query binding (GS1's EPCIS 2.0 OpenAPI, `REST Bindings/openapi.yaml`) over the journey events:
 * the query parameters Rootline answers, with the standard's names. Lists are pipe-delimited, as the standard's
 * `style: pipeDelimited` says (`EQ_bizStep=shipping|receiving`).
 */

/** Event types Rootline's repository holds: journey events are ObjectEvents. */
export const EPCIS_EVENT_TYPES = ['ObjectEvent'] as const;

/** Events per page when `perPage` is absent (the standard's default) and at most. */
export const EPCIS_PER_PAGE_DEFAULT = 30;
export const EPCIS_PER_PAGE_MAX = 1000;

const PipeList = (description: string, example: string) =>
  Type.Optional(Text({ minLength: 1, maxLength: 4000, description, examples: [example] }));

/** An instant with its offset (the standard's `format: date-time`). */
const QueryTime = (description: string) =>
  Type.Optional(
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$',
      maxLength: 40,
      description,
      examples: ['2026-05-01T00:00:00.000+02:00'],
    }),
  );

export const EpcisEventsQuery = Type.Object({
  eventType: PipeList(
    'Only events of these types (`ObjectEvent`; other standard types match nothing here)',
    'ObjectEvent',
  ),
  GE_eventTime: QueryTime('Only events with `eventTime` at or after this instant'),
  LT_eventTime: QueryTime('Only events with `eventTime` before this instant'),
  EQ_bizStep: PipeList(
    'Only events with one of these business steps: CBV bare words (`shipping`) or their URIs',
    'shipping|receiving',
  ),
  EQ_disposition: PipeList('Only events with one of these dispositions: CBV bare words or their URIs', 'in_transit'),
  MATCH_epc: PipeList(
    'Only events whose `epcList` holds one of these EPCs: plants’ GS1 Digital Link URIs (any host) or ' +
      '`urn:rootline:plant:<id>`. Patterns (`urn:epc:idpat:…`) are not supported',
    'https://rootline.example/8004/9520000ABj_o5muLiKkWfRcJ2BgaN',
  ),
  MATCH_anyEPC: PipeList(
    'As MATCH_epc: ObjectEvents have no parentID, childEPCs, inputEPCList or outputEPCList',
    'https://rootline.example/8004/9520000ABj_o5muLiKkWfRcJ2BgaN',
  ),
  EQ_bizLocation: PipeList(
    'Only events whose `bizLocation` is one of these geo URIs (`geo:<lat>,<lon>`, as the events carry them)',
    'geo:52.37,4.89',
  ),
  perPage: Defaulted(
    Type.Integer({
      minimum: 1,
      maximum: EPCIS_PER_PAGE_MAX,
      default: EPCIS_PER_PAGE_DEFAULT,
      description: `Most events in the answer (default ${EPCIS_PER_PAGE_DEFAULT}, at most ${EPCIS_PER_PAGE_MAX})`,
    }),
  ),
  nextPageToken: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_-]{1,400}$',
      description: 'Where the next page starts: the token of the `Link: <…>; rel="next"` header of the page before',
    }),
  ),
});
export type EpcisEventsQuery = Static<typeof EpcisEventsQuery>;

/** An EPC as the path of `/epcs/{epc}/events` names it (URL-encoded in the path). */
export const EpcisEpc = Text({
  minLength: 1,
  maxLength: 1000,
  description:
    'A plant’s GS1 Digital Link URI (`https://rootline.example/8004/9520000ABj_o5muLiKkWfRcJ2BgaN`) or ' +
    '`urn:rootline:plant:<id>`, URL-encoded, or the bare plant id',
  examples: ['urn:rootline:plant:plt_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
});

export const EpcisQueryAnswer = Type.Object({
  document: Type.Unknown({ description: 'An EPCIS 2.0 EPCISQueryDocument (JSON-LD)' }),
  nextPageToken: Type.Union([Type.String(), Type.Null()], {
    description: 'The token of the next page; null on the last page',
  }),
});
export type EpcisQueryAnswer = Static<typeof EpcisQueryAnswer>;

export const transportEpcisEvents = defineSubject({
  subject: 'transport.epcis.events',
  request: Type.Object({ ...EpcisEventsQuery.properties, epc: Type.Optional(EpcisEpc) }),
  reply: EpcisQueryAnswer,
  summary:
    'Journey events as an EPCIS 2.0 query document: filtered as the standard says, a page at a time (`epc`: only ' +
    'the events of that EPC, as GET /epcs/{epc}/events)',
});

/**
 * The capture side of the binding (ADR 301, 302): `POST /capture` takes an EPCISDocument, answers 202 with the
 * capture job, and the transport service records its events as journey events in the background.
 */

/** Most events one capture may hold (`GS1-EPCIS-Capture-Limit`) and most bytes (`GS1-EPCIS-Capture-File-Size-Limit`). */
export const EPCIS_CAPTURE_LIMIT = 500;
export const EPCIS_CAPTURE_FILE_SIZE_LIMIT = 1_048_576;
/** Capture jobs one list answers: the caller's latest. */
export const EPCIS_CAPTURE_LIST_LIMIT = 100;

/** What happens when an event is refused (`GS1-Capture-Error-Behaviour`). */
export const EPCIS_CAPTURE_ERROR_BEHAVIOURS = ['rollback', 'proceed'] as const;
export type EpcisCaptureErrorBehaviour = (typeof EPCIS_CAPTURE_ERROR_BEHAVIOURS)[number];

export const EpcisCaptureId = Type.String({
  pattern: '^cap_[A-Za-z0-9]{10,40}$',
  description: 'A capture job id',
  examples: ['cap_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
});

/** An RFC 7807 problem about one event of a capture (the standard's `errors` of a capture job). */
export const EpcisCaptureError = Named(
  'EpcisCaptureError',
  Type.Object({
    type: Type.String({ description: 'The problem type: `epcisException:<name>` of the EPCIS 2.0 standard' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String({ description: 'The refused event: its `eventID`, or its place in the document' }),
    code: Type.String({ description: 'Rootline’s error code' }),
    details: Type.Optional(Type.Unknown()),
  }),
);
export type EpcisCaptureError = Static<typeof EpcisCaptureError>;

/** A capture job as the standard's `CaptureJob`, with the counts and the finishing time beside it. */
export const EpcisCaptureJob = Named(
  'EpcisCaptureJob',
  Type.Object({
    captureID: EpcisCaptureId,
    createdAt: Timestamp,
    finishedAt: Type.Union([Timestamp, Type.Null()], { description: 'When it ended; null while running' }),
    running: Type.Boolean({ description: 'Still recording events' }),
    success: Type.Boolean({ description: 'No event was refused (so far)' }),
    captureErrorBehaviour: Type.Union(
      EPCIS_CAPTURE_ERROR_BEHAVIOURS.map((b) => Type.Literal(b)),
      { description: 'rollback: nothing recorded if any event is refused; proceed: the others are' },
    ),
    eventCount: Type.Integer({ minimum: 0, description: 'Events in the document' }),
    capturedCount: Type.Integer({ minimum: 0, description: 'Events recorded (or already recorded before)' }),
    errors: Type.Array(EpcisCaptureError, { description: 'One problem per refused event; empty on success' }),
  }),
);
export type EpcisCaptureJob = Static<typeof EpcisCaptureJob>;

export const transportEpcisCapture = defineSubject({
  subject: 'transport.epcis-captures.create',
  request: Type.Object({
    document: Type.Unknown({ description: 'The EPCISDocument, already checked against GS1’s JSON schema' }),
    errorBehaviour: Type.Union(
      EPCIS_CAPTURE_ERROR_BEHAVIOURS.map((b) => Type.Literal(b)),
      { description: 'GS1-Capture-Error-Behaviour' },
    ),
    handler: Type.Object({
      id: Text({ minLength: 1, maxLength: 120, description: 'The caller’s account' }),
      name: Text({ minLength: 1, maxLength: 200, description: 'Its name, as the handler of the events' }),
    }),
  }),
  reply: EpcisCaptureJob,
  summary: 'Start a capture job: its events are recorded as journey events in the background',
});

export const transportEpcisCaptureGet = defineSubject({
  subject: 'transport.epcis-captures.get',
  request: Type.Object({ captureId: EpcisCaptureId }),
  reply: EpcisCaptureJob,
  summary: 'A capture job of the caller’s',
});

export const transportEpcisCaptureList = defineSubject({
  subject: 'transport.epcis-captures.list',
  request: Type.Object({}),
  reply: Type.Object({ jobs: Type.Array(EpcisCaptureJob) }),
  summary: 'The caller’s latest capture jobs, newest first',
});

/**
 * Named queries (ADR 304): the standard's `/queries`. A query is stored under a name by the account that created it,
 * with the parameters `GET /events` takes (without the paging ones), and answered as `/events` answers.
 */

/** Most named queries one account keeps. */
export const EPCIS_NAMED_QUERY_LIMIT = 100;

export const EpcisQueryName = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9._~-]{0,99}$',
  description: 'The name of a query: letters, digits, `.`, `_`, `~` and `-` (it is a path segment), at most 100',
  examples: ['shipped-this-season'],
});

/** The parameters a named query keeps: those of `GET /events` but the paging ones. */
const { perPage: _perPage, nextPageToken: _nextPageToken, ...storedQuery } = EpcisEventsQuery.properties;
export const EpcisStoredQuery = Named(
  'EpcisStoredQuery',
  Type.Object(storedQuery, {
    additionalProperties: false,
    description: 'The query parameters of `GET /api/epcis/events` (not `perPage` or `nextPageToken`)',
  }),
);
export type EpcisStoredQuery = Static<typeof EpcisStoredQuery>;

export const EpcisNamedQuery = Named(
  'EpcisNamedQuery',
  Type.Object({
    name: EpcisQueryName,
    query: EpcisStoredQuery,
    createdAt: Timestamp,
  }),
);
export type EpcisNamedQuery = Static<typeof EpcisNamedQuery>;

export const transportEpcisQueryCreate = defineSubject({
  subject: 'transport.epcis-queries.create',
  request: Type.Object({ name: EpcisQueryName, query: EpcisStoredQuery }),
  reply: EpcisNamedQuery,
  summary: 'Store a named query of the caller’s, checked as GET /events checks its parameters',
});

export const transportEpcisQueryGet = defineSubject({
  subject: 'transport.epcis-queries.get',
  request: Type.Object({ name: EpcisQueryName }),
  reply: EpcisNamedQuery,
  summary: 'A named query of the caller’s',
});

export const transportEpcisQueryList = defineSubject({
  subject: 'transport.epcis-queries.list',
  request: Type.Object({}),
  reply: Type.Object({ queries: Type.Array(EpcisNamedQuery) }),
  summary: 'The caller’s named queries, by name',
});

export const transportEpcisQueryDelete = defineSubject({
  subject: 'transport.epcis-queries.delete',
  request: Type.Object({ name: EpcisQueryName }),
  reply: Type.Object({ deleted: Type.Boolean() }),
  summary: 'Delete a named query of the caller’s',
});

/**
 * Query subscriptions (ADR 313): the standard's `/queries/{queryName}/subscriptions`. A subscription delivers what
 * its named query matches to `dest` through a signed webhook of the transparency service (Standard Webhooks), the
 * account's own; streamed subscriptions send each new matching event as it is recorded, scheduled ones what was
 * recorded since their last delivery at each due time (ADR 320).
 */

/** Most subscriptions one named query keeps. */
export const EPCIS_SUBSCRIPTION_LIMIT = 20;

/** The kind of a subscription's deliveries (in the delivery log): not a domain event, never in the history. */
export const EPCIS_SUBSCRIPTION_KIND = 'epcis.query-result' as const;

export const EpcisSubscriptionId = Type.String({
  pattern: '^sub_[A-Za-z0-9]{10,40}$',
  description: 'A subscription id (the standard’s `subscriptionID`)',
  examples: ['sub_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
});

const scheduleField = (what: string, range: string) =>
  Type.Optional(
    Text({
      maxLength: 100,
      description: `${what}: numbers (${range}) and ranges \`[low-high]\`, separated by commas (e.g. \`0,[30-35]\`)`,
    }),
  );

/**
 * The standard's QuerySchedule (ADR 320): each field a comma-separated list of numbers and ranges `[low-high]`; a time
 * (UTC) is due when every field given matches it. Fields finer than the finest given are at their lowest value.
 */
export const EpcisSchedule = Type.Object(
  {
    second: scheduleField('Seconds', '0–59'),
    minute: scheduleField('Minutes', '0–59'),
    hour: scheduleField('Hours (UTC)', '0–23'),
    dayOfMonth: scheduleField('Days of the month', '1–31'),
    month: scheduleField('Months', '1–12'),
    dayOfWeek: scheduleField('Days of the week', '1 Monday to 7 Sunday'),
  },
  {
    additionalProperties: false,
    description:
      'A schedule, as the standard’s QuerySchedule: each due time (UTC) sends the events recorded since the last ' +
      'delivery (from `initialRecordTime` for the first). A field left out matches every value, but those finer ' +
      'than the finest one given are at their lowest: `{ "hour": "1", "minute": "5" }` is 01:05:00 every day. A ' +
      'value outside its range, a backwards range, anything else, or a schedule never due is 400 ' +
      '`epcisException:SubscriptionControlsException`.',
    examples: [{ hour: '1', minute: '5' }],
  },
);
export type EpcisSchedule = Static<typeof EpcisSchedule>;

export const EpcisSubscriptionInput = Type.Object(
  {
    dest: Type.String({
      pattern: '^https?://[^\\s]+$',
      maxLength: 2000,
      description:
        'Where results go (http or https), as a webhook of yours: private, loopback and link-local addresses are ' +
        'refused as for any webhook',
    }),
    signatureToken: Type.Optional(
      Type.String({
        pattern: '^[\\x21-\\x7e]+$',
        minLength: 16,
        maxLength: 200,
        description:
          'The secret that keys the signatures of the deliveries (Standard Webhooks, HMAC-SHA256), as a webhook’s ' +
          '`secret`: 16–200 printable ASCII characters without the space. Omitted: one is generated; either way ' +
          'the answer shows it once as `signingSecret`.',
      }),
    ),
    reportIfEmpty: Defaulted(
      Type.Boolean({
        default: false,
        description:
          'Send a result with no events: at a due time of a schedule when nothing new matched, or as the initial ' +
          'result of a stream with `initialRecordTime`',
      }),
    ),
    stream: Type.Optional(
      Type.Boolean({
        description: '`true`: each new matching event is sent as it is recorded (required without a `schedule`)',
      }),
    ),
    schedule: Type.Optional(EpcisSchedule),
    initialRecordTime: Type.Optional(
      Type.String({
        pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$',
        maxLength: 40,
        description:
          'First send what the query matches among the events recorded since this instant (a stream: in one or ' +
          'more results before the stream; a schedule: in its first delivery); omitted: only events recorded from ' +
          'now on',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        dest: 'https://partner.example.org/epcis/results',
        signatureToken: 'a-long-random-shared-secret-0123456789',
        stream: true,
        initialRecordTime: '2026-10-01T00:00:00Z',
      },
      {
        dest: 'https://partner.example.org/epcis/nightly',
        signatureToken: 'a-long-random-shared-secret-0123456789',
        reportIfEmpty: true,
        schedule: { hour: '1', minute: '5' },
      },
    ],
  },
);
export type EpcisSubscriptionInput = Static<typeof EpcisSubscriptionInput>;

export const EpcisSubscription = Named(
  'EpcisSubscription',
  Type.Object({
    subscriptionID: EpcisSubscriptionId,
    queryName: EpcisQueryName,
    dest: Type.String(),
    stream: Type.Boolean(),
    schedule: Type.Union([EpcisSchedule, Type.Null()], { description: 'Its schedule; null for a stream' }),
    reportIfEmpty: Type.Boolean(),
    initialRecordTime: Type.Union([Timestamp, Type.Null()]),
    createdAt: Timestamp,
    nextDueAt: Type.Union([Timestamp, Type.Null()], {
      description: 'When a scheduled subscription is next delivered; null for a stream',
    }),
    webhookId: Type.String({
      description:
        'The webhook that delivers it (`/api/transparency/webhooks/{webhookId}`: its deliveries, redelivery); ' +
        'deleted with the subscription',
    }),
  }),
);
export type EpcisSubscription = Static<typeof EpcisSubscription>;

export const EpcisSubscriptionCreated = Type.Composite([
  EpcisSubscription,
  Type.Object({
    signingSecret: Type.String({
      description:
        'The secret in the Standard Webhooks form (`whsec_` + base64 of its key bytes), to verify deliveries; shown ' +
        'once',
    }),
  }),
]);
export type EpcisSubscriptionCreated = Static<typeof EpcisSubscriptionCreated>;

export const transportEpcisSubscriptionCreate = defineSubject({
  subject: 'transport.epcis-subscriptions.create',
  request: Type.Object({ queryName: EpcisQueryName, ...EpcisSubscriptionInput.properties }),
  reply: EpcisSubscriptionCreated,
  summary:
    'Subscribe to a named query of the caller’s: a webhook to `dest` receives each new matching event, or what was ' +
    'recorded since the last delivery at each due time of a schedule',
});

export const transportEpcisSubscriptionList = defineSubject({
  subject: 'transport.epcis-subscriptions.list',
  request: Type.Object({ queryName: EpcisQueryName }),
  reply: Type.Object({ subscriptions: Type.Array(EpcisSubscription) }),
  summary: 'The subscriptions of a named query of the caller’s, oldest first',
});

export const transportEpcisSubscriptionGet = defineSubject({
  subject: 'transport.epcis-subscriptions.get',
  request: Type.Object({ queryName: EpcisQueryName, subscriptionID: EpcisSubscriptionId }),
  reply: EpcisSubscription,
  summary: 'A subscription of a named query of the caller’s',
});

export const transportEpcisSubscriptionDelete = defineSubject({
  subject: 'transport.epcis-subscriptions.delete',
  request: Type.Object({ queryName: EpcisQueryName, subscriptionID: EpcisSubscriptionId }),
  reply: Type.Object({ deleted: Type.Boolean() }),
  summary: 'Delete a subscription of the caller’s and its webhook',
});

/**
 * A subscription's result to send (ADR 313, 320): the transport service publishes it when a new journey event
 * matches a streamed subscription (or for its initial records) or a scheduled one is due, and the transparency service queues it for the
 * subscription's webhook alone, keyed by `deliveryKey` (once per key).
 */
export const epcisSubscriptionMatched = defineEvent({
  subject: 'evt.transport.epcis-subscription.matched',
  payload: Type.Object({
    subscriptionID: EpcisSubscriptionId,
    queryName: EpcisQueryName,
    ownerId: Type.String({ description: 'The account the subscription belongs to' }),
    webhookId: Type.String(),
    deliveryKey: Type.String({
      description: 'The subscription and the event (or the part of the initial records, or the due time and part)',
    }),
    eventCount: Type.Integer({ minimum: 0 }),
    document: Type.Unknown({ description: 'The EPCISQueryDocument, with `subscriptionID` and `queryName`' }),
  }),
});
