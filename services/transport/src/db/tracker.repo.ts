import type { PatternKind, SensorReading, TransportPattern } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import type { Point } from '@rootline/domain';
import { and, asc, count, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { Pattern, ScannedEvent } from '../domain/patterns.js';
import { events, trackerPatterns } from './schema.js';

/** Replaces the stored patterns with a cycle's (in the transaction that records the cycle on the agent's row). */
export async function replacePatterns(tx: Db, patterns: readonly Pattern[], detectedAt: Date): Promise<void> {
  const at = detectedAt.toISOString();
  await tx.delete(trackerPatterns);
  for (let i = 0; i < patterns.length; i += 500) {
    await tx.insert(trackerPatterns).values(patterns.slice(i, i + 500).map((p) => ({ ...p, detectedAt: at })));
  }
}

/** Events still in force (no correction names them), in id order after `after`: one keyset page of a cycle. */
export async function scanBatch(db: Db, after: string, limit: number): Promise<ScannedEvent[]> {
  const rows = await db
    .select()
    .from(events)
    .where(and(gt(events.id, after), sql`not exists (select 1 from ${events} c where c.corrects = ${events.id})`))
    .orderBy(asc(events.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    handlerId: r.handlerId,
    plantId: r.plantId,
    transportMode: r.transportMode,
    // The measured figures: the patterns are the handler's own (and ADMINs'), never shown to others.
    distanceKm: r.exactDistanceKm,
    massKg: r.massKg,
    kgCo2e: r.exactKgCo2e,
    from: (r.fromLocation as Point | null) ?? null,
    to: (r.toLocation as Point | null) ?? null,
    sensorReadings: r.sensorReadings as SensorReading[],
  }));
}

/** One page of the stored patterns, in the order found, optionally of one kind and of one user's events. */
export async function listPatterns(
  db: Db,
  filter: { kind?: PatternKind | undefined; userId?: string | undefined },
  offset: number,
  limit: number,
): Promise<{ items: TransportPattern[]; total: number }> {
  const where: SQL | undefined = and(
    filter.kind ? eq(trackerPatterns.kind, filter.kind) : undefined,
    filter.userId !== undefined ? eq(trackerPatterns.userId, filter.userId) : undefined,
  );
  const [rows, [c]] = await Promise.all([
    db.select().from(trackerPatterns).where(where).orderBy(asc(trackerPatterns.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(trackerPatterns).where(where),
  ]);
  return {
    items: rows.map((r) => ({
      kind: r.kind as PatternKind,
      eventId: r.eventId,
      userId: r.userId,
      plantId: r.plantId,
      kgCo2e: r.kgCo2e,
      reason: r.reason,
      detectedAt: new Date(r.detectedAt).toISOString(),
    })),
    total: Number(c?.n ?? 0),
  };
}

export async function eventCount(db: Db): Promise<number> {
  const [c] = await db.select({ n: count() }).from(events);
  return Number(c?.n ?? 0);
}

/** Events in force only: a corrected event is replaced by its correction. */
const inForce = sql`not exists (select 1 from ${events} c where c.corrects = ${events.id})`;

/** Network totals and per-mode counts of the events in force. */
export async function networkTotals(db: Db) {
  const [[totals], modes] = await Promise.all([
    db
      .select({
        events: sql<number>`count(*)::int`,
        users: sql<number>`count(distinct ${events.handlerId})::int`,
        plants: sql<number>`count(distinct ${events.plantId})::int`,
        seedLots: sql<number>`count(distinct ${events.seedLotId})::int`,
        distanceKm: sql<number>`coalesce(sum(${events.distanceKm}), 0)::float8`,
        kgCo2e: sql<number>`coalesce(sum(${events.kgCo2e}), 0)::float8`,
      })
      .from(events)
      .where(inForce),
    db
      .select({
        mode: events.transportMode,
        events: sql<number>`count(*)::int`,
        kgCo2e: sql<number>`sum(${events.kgCo2e})::float8`,
      })
      .from(events)
      .where(inForce)
      .groupBy(events.transportMode),
  ]);
  return { totals: totals!, modes };
}

/**
 * Per-user totals (the 100 users with most events) with their delivered mass and its emissions; with `userId`,
 * that user's only.
 */
export async function userTotals(db: Db, opts: { limit?: number; userId?: string } = {}) {
  return db
    .select({
      userId: events.handlerId,
      events: sql<number>`count(*)::int`,
      distanceKm: sql<number>`sum(${events.distanceKm})::float8`,
      kgCo2e: sql<number>`sum(${events.kgCo2e})::float8`,
      deliveredKg: sql<number>`coalesce(sum(${events.massKg}) filter (where ${events.kind} = 'distribution'), 0)::float8`,
      deliveryKgCo2e: sql<number>`coalesce(sum(${events.kgCo2e}) filter (where ${events.kind} = 'distribution'), 0)::float8`,
    })
    .from(events)
    .where(opts.userId === undefined ? inForce : and(inForce, eq(events.handlerId, opts.userId)))
    .groupBy(events.handlerId)
    .orderBy(sql`count(*) desc`, asc(events.handlerId))
    .limit(opts.limit ?? 100);
}

/** Delivered mass and its emissions over the whole network. */
export async function deliveryTotals(db: Db) {
  const [row] = await db
    .select({
      deliveredKg: sql<number>`coalesce(sum(${events.massKg}), 0)::float8`,
      kgCo2e: sql<number>`coalesce(sum(${events.kgCo2e}), 0)::float8`,
    })
    .from(events)
    .where(and(eq(events.kind, 'distribution'), inForce));
  return row!;
}
