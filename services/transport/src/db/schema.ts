import { agentsTable, inboxTable, ledgerIntentsTable, outboxTable } from '@rootline/db';
import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const transportSchema = pgSchema('transport');

/** A 64-bit transaction id (`xid8`), read and written as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * Journey events: one row per accepted event, written with its block once the ledger has it. Never edited, but for
 * the place backfill adding a missing city and country to `from_location` and `to_location` (ADR 141).
 */
export const events = transportSchema.table(
  'events',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    plantId: text('plant_id'),
    seedLotId: text('seed_lot_id'),
    quantity: jsonb('quantity').$type<{ value: number; unit: string } | null>(),
    /** As given, with its offset (EPCIS eventTime + eventTimeZoneOffset). */
    eventTime: text('event_time').notNull(),
    /** The same instant, for ordering. */
    eventAt: timestamp('event_at', { withTimezone: true, mode: 'string' }).notNull(),
    // Locations after the privacy level was applied; null when hidden or not given.
    fromLocation: jsonb('from_location').$type<Record<string, unknown> | null>(),
    toLocation: jsonb('to_location').$type<Record<string, unknown> | null>(),
    privacyLevel: text('privacy_level').notNull(),
    transportMode: text('transport_mode').notNull(),
    // As others see them: rounded to the privacy level's step, null when hidden (DISTANCE_STEP_KM). These are what
    // the ledger, the public events, the journey and its totals carry.
    distanceKm: doublePrecision('distance_km'),
    massKg: doublePrecision('mass_kg').notNull(),
    kgCo2e: doublePrecision('kg_co2e'),
    // As measured: only the handler's own footprint reads them.
    exactDistanceKm: doublePrecision('exact_distance_km').notNull(),
    exactKgCo2e: doublePrecision('exact_kg_co2e').notNull(),
    handlerId: text('handler_id').notNull(),
    handlerName: text('handler_name').notNull(),
    /** For a handler without an account: the account name of who stated its name (`recordedBy`; ADR 194). */
    handlerNameStatedBy: text('handler_name_stated_by'),
    recipientId: text('recipient_id'),
    recipientName: text('recipient_name'),
    /** For a recipient without an account: the account name of who stated its name (null for an account). */
    recipientNameStatedBy: text('recipient_name_stated_by'),
    sensorReadings: jsonb('sensor_readings').$type<unknown[]>().notNull(),
    corrects: text('corrects'),
    /** A seed-sharing event of a handoff across nodes: the handoff's `urn:uuid` (ADR 309). */
    handoffId: text('handoff_id'),
    /** With a handoff id: the handed lot's crop, variety and harvest year, as on the ledger (ADR 310). */
    handoffLot: jsonb('handoff_lot').$type<Record<string, unknown> | null>(),
    notes: text('notes'),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'string' }).notNull(),
    recordedBy: text('recorded_by'),
    blockIndex: integer('block_index').notNull(),
    blockHash: text('block_hash').notNull(),
    txId: text('tx_id').notNull(),
    /**
     * The transaction that stored the row (ADR 321): whether a subscription's snapshot saw it. Null for rows stored
     * before it was kept (older than any subscription's snapshot).
     */
    storedXid: xid8('stored_xid').default(sql`pg_current_xact_id()`),
  },
  (t) => [
    // Journey pages read in this order straight off the index (see journeyPage).
    index('events_plant_idx').on(t.plantId, t.eventAt, t.recordedAt, t.id),
    index('events_seed_lot_idx').on(t.seedLotId, t.eventAt, t.recordedAt, t.id),
    // EPCIS queries over every journey read their pages in this order (see epcisRows).
    index('events_event_at_idx').on(t.eventAt, t.recordedAt, t.id),
    index('events_handler_idx').on(t.handlerId),
    index('events_corrects_idx').on(t.corrects),
    index('events_tx_idx').on(t.txId),
  ],
);

/**
 * Running totals of one part of journeys, updated in the statement that stores its events: a plant's own events
 * (`subject` = the plant id) or the events of a seed lot that name no plant (`subject` = the lot id). A plant's
 * journey totals are its row plus the rows of the lots in `journey_lots`. The row is also the lock that puts a
 * plant's new events in order (see reserveEventTime).
 */
export const journeyTotals = transportSchema.table('journey_totals', {
  subject: text('subject').primaryKey(),
  /** Every event, corrected ones included (the journey's page count). */
  recorded: integer('recorded').notNull().default(0),
  /**
   * Events in force (no event corrects them) and their sums. Only sums: a correction can take out a journey's first
   * or last event, so those instants are read off the events index (journeyTotalsOf).
   */
  inForce: integer('in_force').notNull().default(0),
  distanceKm: doublePrecision('distance_km').notNull().default(0),
  kgCo2e: doublePrecision('kg_co2e').notNull().default(0),
  /** The latest instant of any of its events, corrected or not: the time-order rule compares with it. */
  latestAt: timestamp('latest_at', { withTimezone: true, mode: 'string' }),
});

/** The seed lots a plant's events name, with the instant of the first such event (the journey's `seedLots`). */
export const journeyLots = transportSchema.table(
  'journey_lots',
  {
    plantId: text('plant_id').notNull(),
    seedLotId: text('seed_lot_id').notNull(),
    firstAt: timestamp('first_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.plantId, t.seedLotId] })],
);

/**
 * Events a later event corrects, with the latest correction (the journey's `correctedBy`). Written in the
 * statement that stores the correction; its first row for an event is what takes that event out of the totals.
 */
export const correctedEvents = transportSchema.table('corrected_events', {
  id: text('id').primaryKey(),
  correctedBy: text('corrected_by').notNull(),
  /** When the correction named in `correctedBy` was recorded: a later one replaces it. */
  correctedAt: timestamp('corrected_at', { withTimezone: true, mode: 'string' }).notNull(),
});

/**
 * A plant's events accepted by the time-order rule and not stored yet (on their way through the ledger): the rule
 * counts them, so two concurrent events cannot both pass against the same latest instant. Deleted in the
 * statement that stores the event.
 */
export const pendingEvents = transportSchema.table(
  'pending_events',
  {
    id: text('id').primaryKey(),
    plantId: text('plant_id').notNull(),
    txId: text('tx_id').notNull(),
    eventAt: timestamp('event_at', { withTimezone: true, mode: 'string' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [index('pending_events_plant_idx').on(t.plantId, t.eventAt)],
);

/**
 * Who may record events on a plant or a seed lot besides a plant's owner (see docs/transport.md, Custody): one row
 * per way a user became a custodian. `first-event`: the handler of a seed lot's first event (one per lot);
 * `handoff`: the recipient of a distribution or seed-sharing event, once they accepted it (EPCIS receiving; the
 * sender's event is the shipping). An accepted handoff has one row per subject its event names. Never deleted:
 * custody is added, not moved.
 */
export const custody = transportSchema.table(
  'custody',
  {
    /** A plant id or a seed lot id. */
    subject: text('subject').notNull(),
    subjectKind: text('subject_kind').$type<'plant' | 'seed-lot'>().notNull(),
    userId: text('user_id').notNull(),
    via: text('via').$type<'first-event' | 'handoff'>().notNull(),
    /** The seed lot's first event, or the handoff event accepted. */
    eventId: text('event_id').notNull(),
    since: timestamp('since', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.subject, t.userId, t.eventId] }),
    index('custody_event_idx').on(t.eventId),
    // A seed lot has one first custodian: concurrent first events claim it once.
    uniqueIndex('custody_first_event_idx').on(t.subject).where(sql`via = 'first-event'`),
  ],
);

/** The state of the service's agents (the transport tracker), one row each; replicas share it. */
export const agents = agentsTable(transportSchema);

/** Inefficiencies found by the tracker's last completed cycle. */
export const trackerPatterns = transportSchema.table(
  'tracker_patterns',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    eventId: text('event_id').notNull(),
    userId: text('user_id').notNull(),
    plantId: text('plant_id'),
    kgCo2e: doublePrecision('kg_co2e').notNull(),
    reason: text('reason').notNull(),
    detectedAt: timestamp('detected_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [index('tracker_patterns_kind_idx').on(t.kind, t.id)],
);

export const outbox = outboxTable(transportSchema);
/** Events applied once each: the EPCIS subscriptions' matching of new journey events (ADR 313). */
export const inbox = inboxTable(transportSchema);

/** Events being recorded: written before the ledger transaction, deleted with the event's row (see the recorder). */
export const ledgerIntents = ledgerIntentsTable(transportSchema);

/**
 * EPCIS capture jobs (ADR 301): one per `POST /api/epcis/capture`, kept with the document while it runs and with
 * its per-event errors (RFC 7807 problems) once done. The account that captured is the only one that reads it.
 */
export const epcisCaptures = transportSchema.table(
  'epcis_captures',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    /** `rollback` (nothing is recorded if any event is refused) or `proceed` (GS1-Capture-Error-Behaviour). */
    errorBehaviour: text('error_behaviour').notNull(),
    /** The EPCISDocument as received; cleared once the job is done. */
    document: jsonb('document').$type<Record<string, unknown> | null>(),
    /** The handler the events are recorded for: the account and its name at capture. */
    handler: jsonb('handler').$type<{ id: string; name: string; nameStatedBy?: string | null }>().notNull(),
    eventCount: integer('event_count').notNull(),
    capturedCount: integer('captured_count').notNull().default(0),
    running: boolean('running').notNull().default(true),
    success: boolean('success').notNull().default(true),
    errors: jsonb('errors').$type<Record<string, unknown>[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'string' }),
  },
  (t) => [index('epcis_captures_account_idx').on(t.accountId, t.createdAt)],
);

/**
 * The EPCIS `eventID` of each captured event and the journey event it became: a capture of an event id already
 * here records nothing more, and the query answers the event under the id it was captured with.
 */
export const epcisCapturedEvents = transportSchema.table('epcis_captured_events', {
  eventId: text('epcis_event_id').primaryKey(),
  transportEventId: text('transport_event_id').notNull().unique(),
  captureId: text('capture_id').notNull(),
  accountId: text('account_id').notNull(),
  /** The business location it was captured with when that was an SGLN (ADR 314), answered as given. */
  bizLocation: text('biz_location'),
});

/**
 * Named EPCIS queries (ADR 304): the standard's `/queries`, kept per account under a name unique to that account,
 * with the parameters of `GET /api/epcis/events` (checked as that route checks them).
 */
export const epcisNamedQueries = transportSchema.table(
  'epcis_named_queries',
  {
    accountId: text('account_id').notNull(),
    name: text('name').notNull(),
    query: jsonb('query').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.name] })],
);

/**
 * Subscriptions to named EPCIS queries (ADR 313): the standard's `/queries/{queryName}/subscriptions`, each with the
 * transparency webhook that delivers it. Events recorded from `created_at` on are matched as they are recorded.
 */
export const epcisSubscriptions = transportSchema.table(
  'epcis_subscriptions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    queryName: text('query_name').notNull(),
    dest: text('dest').notNull(),
    webhookId: text('webhook_id').notNull(),
    stream: boolean('stream').notNull(),
    reportIfEmpty: boolean('report_if_empty').notNull(),
    initialRecordTime: timestamp('initial_record_time', { withTimezone: true, mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
    /** A scheduled subscription's QuerySchedule (ADR 320); null for a streamed one. */
    schedule: jsonb('schedule').$type<Record<string, string> | null>(),
    /** When a scheduled subscription is next delivered. */
    nextDueAt: timestamp('next_due_at', { withTimezone: true, mode: 'string' }),
    /**
     * What the subscription has sent up to (ADR 321): `pg_current_snapshot()` when it was made, then of its last
     * scheduled delivery; the events stored by a transaction it did not see come next. Null for older subscriptions.
     */
    snapshot: text('snapshot'),
    /** When a scheduled subscription was last delivered (null before its first), and the events' recordTime then. */
    lastRecordTime: timestamp('last_record_time', { withTimezone: true, mode: 'string' }),
  },
  (t) => [
    index('epcis_subscriptions_query_idx').on(t.accountId, t.queryName, t.createdAt),
    index('epcis_subscriptions_due_idx').on(t.nextDueAt).where(sql`${t.nextDueAt} is not null`),
  ],
);
