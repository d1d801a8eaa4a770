import type { JourneyEvent, Location, RecordedParty, RecordedRecipient } from '@rootline/contracts';
import { type Db, insertFromJson } from '@rootline/db';
import { and, asc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { StoredEvent } from '../domain/journey.js';
import { events } from './schema.js';

export type EventRow = typeof events.$inferSelect;
export type NewEventRow = typeof events.$inferInsert;

/** One INSERT of recorded events (the id is the unique key: a write stored twice fails). */
export function eventsInsert(rows: readonly NewEventRow[]): SQL {
  return insertFromJson(events, rows);
}

const iso = (t: string) => new Date(t).toISOString();
/**
 * A party as reads show it: the name it was recorded with and, for a party without an account, who stated that name
 * (the recording account and its name then; ADR 176, 194). The gateway adds the current account names.
 */
function partyOf(id: string, name: string, nameStatedBy: string | null, recordedBy: string | null): RecordedParty {
  return nameStatedBy === null ? { id, name } : { id, name, statedBy: { id: recordedBy, name: nameStatedBy } };
}

/** The recipient as reads show it, with `nameStatedBy` kept for older clients. */
function recipientOf(r: EventRow): RecordedRecipient | null {
  if (!r.recipientId || !r.recipientName) return null;
  return {
    ...partyOf(r.recipientId, r.recipientName, r.recipientNameStatedBy, r.recordedBy),
    nameStatedBy: r.recipientNameStatedBy,
  };
}

/** A stored row as the journey returns it. */
export function toStoredEvent(r: EventRow): StoredEvent {
  return {
    id: r.id,
    kind: r.kind as JourneyEvent['kind'],
    plantId: r.plantId,
    seedLotId: r.seedLotId,
    quantity: (r.quantity as JourneyEvent['quantity']) ?? null,
    eventTime: r.eventTime,
    eventAt: iso(r.eventAt),
    from: (r.fromLocation as Location | null) ?? null,
    to: (r.toLocation as Location | null) ?? null,
    privacyLevel: r.privacyLevel as JourneyEvent['privacyLevel'],
    transportMode: r.transportMode as JourneyEvent['transportMode'],
    distanceKm: r.distanceKm,
    massKg: r.massKg,
    kgCo2e: r.kgCo2e,
    handler: partyOf(r.handlerId, r.handlerName, r.handlerNameStatedBy, r.recordedBy),
    recipient: recipientOf(r),
    sensorReadings: r.sensorReadings as JourneyEvent['sensorReadings'],
    corrects: r.corrects,
    handoffId: r.handoffId,
    notes: r.notes,
    blockHash: r.blockHash,
    recordedAt: iso(r.recordedAt),
  };
}

export async function findEvent(db: Db, id: string): Promise<EventRow | undefined> {
  const [row] = await db.select().from(events).where(eq(events.id, id)).limit(1);
  return row;
}

/**
 * A plant's journey: its own events, and the events of the seed lots its events name that name no plant (the lot
 * before it became this plant), in time order.
 */
export async function journeyRows(db: Db, plantId: string): Promise<EventRow[]> {
  const lots = db
    .selectDistinct({ lot: events.seedLotId })
    .from(events)
    .where(and(eq(events.plantId, plantId), sql`${events.seedLotId} is not null`));
  return db
    .select()
    .from(events)
    .where(or(eq(events.plantId, plantId), and(isNull(events.plantId), inArray(events.seedLotId, lots))))
    .orderBy(asc(events.eventAt), asc(events.recordedAt), asc(events.id));
}

/** A seed lot's own events, in time order. */
export async function seedLotRows(db: Db, seedLotId: string): Promise<EventRow[]> {
  return db
    .select()
    .from(events)
    .where(eq(events.seedLotId, seedLotId))
    .orderBy(asc(events.eventAt), asc(events.recordedAt), asc(events.id));
}

/** The events a user handled. */
export async function userRows(db: Db, userId: string): Promise<EventRow[]> {
  return db.select().from(events).where(eq(events.handlerId, userId));
}

/** Journey event ids by their ledger transaction id. */
export async function eventIdsByTx(db: Db, txIds: readonly string[]): Promise<Map<string, string>> {
  if (txIds.length === 0) return new Map();
  const rows = await db
    .select({ id: events.id, txId: events.txId })
    .from(events)
    .where(inArray(events.txId, [...txIds]));
  return new Map(rows.map((r) => [r.txId, r.id]));
}
