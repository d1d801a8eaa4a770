import type { Db } from '@rootline/db';
import { and, asc, eq, gte, inArray, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { EventRow } from './events.repo.js';
import { correctedEvents, epcisCapturedEvents, events } from './schema.js';

/** What an EPCIS query asks of the journey events (see docs/epcis.md); null: no constraint. */
export interface EpcisFilter {
  /** Kinds whose business step and disposition match; an empty list matches nothing. */
  kinds: string[] | null;
  /** `eventTime` at or after / before these instants. */
  from: string | null;
  to: string | null;
  /** Plants named in `epcList` (harvests name theirs elsewhere). */
  plantIds: string[] | null;
  /** Business locations (points, at the events' privacy level): only for kinds that have one. */
  bizLocations: { latitude: number; longitude: number }[] | null;
  /** Business locations given as SGLNs: captured with one of them (ADR 314). */
  bizLocationIds?: string[];
  /** Kinds that have a business location (not a movement). */
  placedKinds: string[];
  /** The last event of the page before. */
  after: { eventAt: string; recordedAt: string; id: string } | null;
  limit: number;
  /** Only these events (a subscription matching one new event). */
  eventIds?: string[];
  /** Recorded at or after / before these instants (a subscription's initial records and stream). */
  recordedFrom?: string | null;
  recordedBefore?: string | null;
  /**
   * Stored by a transaction this snapshot (`pg_current_snapshot()` as text) saw / did not see (ADR 321). A row stored
   * before transactions were kept counts as seen by every snapshot.
   */
  seenBy?: string | null;
  unseenBy?: string | null;
}

export type EpcisRow = EventRow & {
  correctedBy: string | null;
  correctedAt: string | null;
  /** The `eventID` it was captured under (ADR 302); null for an event recorded through /api/transport. */
  capturedEventId: string | null;
  /** The SGLN it was captured with as its business location (ADR 314). */
  capturedBizLocation: string | null;
};

/**
 * One page of journey events matching the filter, in time order (instant, recording order, id: the
 * `events_event_at_idx` order), each with its latest correction.
 */
export async function epcisRows(db: Db, f: EpcisFilter): Promise<EpcisRow[]> {
  const where: SQL[] = [];
  if (f.kinds) where.push(f.kinds.length ? inArray(events.kind, f.kinds) : sql`false`);
  if (f.from) where.push(gte(events.eventAt, f.from));
  if (f.to) where.push(lt(events.eventAt, f.to));
  if (f.plantIds) {
    where.push(f.plantIds.length ? inArray(events.plantId, f.plantIds) : sql`false`);
    where.push(ne(events.kind, 'harvest'));
  }
  if (f.bizLocations) {
    const place = sql`coalesce(${events.toLocation}, ${events.fromLocation})`;
    const points = f.bizLocations.map(
      (p) =>
        sql`((${place}->>'latitude')::float8 = ${p.latitude}::float8 and (${place}->>'longitude')::float8 = ${p.longitude}::float8)`,
    );
    const named = f.bizLocationIds?.length ? [inArray(epcisCapturedEvents.bizLocation, f.bizLocationIds)] : [];
    where.push(f.placedKinds.length ? inArray(events.kind, f.placedKinds) : sql`false`);
    where.push(points.length || named.length ? (or(...points, ...named) as SQL) : sql`false`);
  }
  if (f.eventIds) where.push(f.eventIds.length ? inArray(events.id, f.eventIds) : sql`false`);
  if (f.recordedFrom) where.push(gte(events.recordedAt, f.recordedFrom));
  if (f.recordedBefore) where.push(lt(events.recordedAt, f.recordedBefore));
  if (f.seenBy) {
    where.push(
      sql`(${events.storedXid} is null or pg_visible_in_snapshot(${events.storedXid}, ${f.seenBy}::pg_snapshot))`,
    );
  }
  if (f.unseenBy) {
    where.push(
      sql`(${events.storedXid} is not null and not pg_visible_in_snapshot(${events.storedXid}, ${f.unseenBy}::pg_snapshot))`,
    );
  }
  if (f.after) {
    const { eventAt, recordedAt, id } = f.after;
    where.push(
      sql`(${events.eventAt}, ${events.recordedAt}, ${events.id}) > (${eventAt}::timestamptz, ${recordedAt}::timestamptz, ${id}::text)`,
    );
  }
  const rows = await db
    .select({
      event: events,
      correctedBy: correctedEvents.correctedBy,
      correctedAt: correctedEvents.correctedAt,
      capturedEventId: epcisCapturedEvents.eventId,
      capturedBizLocation: epcisCapturedEvents.bizLocation,
    })
    .from(events)
    .leftJoin(correctedEvents, eq(correctedEvents.id, events.id))
    .leftJoin(epcisCapturedEvents, eq(epcisCapturedEvents.transportEventId, events.id))
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(events.eventAt), asc(events.recordedAt), asc(events.id))
    .limit(f.limit);
  return rows.map((r) => ({
    ...r.event,
    correctedBy: r.correctedBy,
    correctedAt: r.correctedAt,
    capturedEventId: r.capturedEventId,
    capturedBizLocation: r.capturedBizLocation,
  }));
}
