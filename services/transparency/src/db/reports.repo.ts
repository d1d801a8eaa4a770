import type { Db } from '@rootline/db';
import { and, asc, count, desc, eq, gte, isNull, like, lt, min, type SQL, sql } from 'drizzle-orm';
import { auditEntries, outbox, publicEvents, webhookDeliveries, webhooks } from './schema.js';

const iso = (column: unknown) =>
  sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Public events by kind, optionally in [from, to). */
export function eventsByKind(db: Db, from?: string, to?: string) {
  const parts: SQL[] = [];
  if (from) parts.push(gte(publicEvents.occurredAt, from));
  if (to) parts.push(lt(publicEvents.occurredAt, to));
  return db
    .select({ kind: publicEvents.kind, count: count() })
    .from(publicEvents)
    .where(parts.length ? and(...parts) : undefined)
    .groupBy(publicEvents.kind)
    .orderBy(asc(publicEvents.kind));
}

/** Public events that occurred at or after each instant. */
export async function eventsSince(db: Db, since: Record<string, string>): Promise<Record<string, number>> {
  const entries = await Promise.all(
    Object.entries(since).map(async ([name, at]) => {
      const [row] = await db.select({ n: count() }).from(publicEvents).where(gte(publicEvents.occurredAt, at));
      return [name, row?.n ?? 0] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** Totals of the `transport.completed` payloads: events, km and kg CO2e. */
export async function transportTotals(db: Db): Promise<{ events: number; distanceKm: number; kgCo2e: number }> {
  const [row] = await db
    .select({
      events: count(),
      distanceKm: sql<string | null>`sum((${publicEvents.data}->>'distanceKm')::float8)`,
      kgCo2e: sql<string | null>`sum((${publicEvents.data}->>'kgCo2e')::float8)`,
    })
    .from(publicEvents)
    .where(eq(publicEvents.kind, 'transport.completed'));
  return { events: row?.events ?? 0, distanceKm: Number(row?.distanceKm ?? 0), kgCo2e: Number(row?.kgCo2e ?? 0) };
}

/** Deliveries by status, optionally of those created in [from, to), with their average attempts. */
export async function deliveryStats(db: Db, from?: Date, to?: Date) {
  const parts: SQL[] = [];
  if (from) parts.push(gte(webhookDeliveries.createdAt, from));
  if (to) parts.push(lt(webhookDeliveries.createdAt, to));
  const rows = await db
    .select({
      status: webhookDeliveries.status,
      count: count(),
      attempts: sql<string>`sum(${webhookDeliveries.attempts})`,
    })
    .from(webhookDeliveries)
    .where(parts.length ? and(...parts) : undefined)
    .groupBy(webhookDeliveries.status);
  const of = (s: string) => rows.find((r) => r.status === s)?.count ?? 0;
  const deliveries = rows.reduce((n, r) => n + r.count, 0);
  const attempts = rows.reduce((n, r) => n + Number(r.attempts ?? 0), 0);
  return {
    deliveries,
    delivered: of('delivered'),
    pending: of('pending'),
    failed: of('failed'),
    averageAttempts: deliveries > 0 ? attempts / deliveries : null,
  };
}

export async function webhookCounts(db: Db): Promise<{ active: number; disabled: number }> {
  const rows = await db.select({ status: webhooks.status, count: count() }).from(webhooks).groupBy(webhooks.status);
  const of = (s: string) => rows.find((r) => r.status === s)?.count ?? 0;
  return { active: of('active'), disabled: of('disabled') };
}

/** Audit entries that occurred in [from, to), and how many of them are administrative actions. */
export async function auditEntriesIn(db: Db, from: string, to: string): Promise<{ entries: number; admin: number }> {
  const period = and(gte(auditEntries.occurredAt, from), lt(auditEntries.occurredAt, to));
  const [[all], [admin]] = await Promise.all([
    db.select({ n: count() }).from(auditEntries).where(period),
    db
      .select({ n: count() })
      .from(auditEntries)
      .where(and(period, like(auditEntries.kind, 'admin.%'))),
  ]);
  return { entries: all?.n ?? 0, admin: admin?.n ?? 0 };
}

/** What each store holds and since when (retention facts). */
export async function retentionFacts(db: Db) {
  const [[audit], [history], [deliveries]] = await Promise.all([
    db.select({ n: count(), oldest: iso(min(auditEntries.occurredAt)) }).from(auditEntries),
    db.select({ n: count(), oldest: iso(min(publicEvents.occurredAt)) }).from(publicEvents),
    db.select({ n: count(), oldest: iso(min(webhookDeliveries.createdAt)) }).from(webhookDeliveries),
  ]);
  return {
    audit: { entries: audit?.n ?? 0, oldest: audit?.oldest ?? null },
    history: { events: history?.n ?? 0, oldest: history?.oldest ?? null },
    deliveries: { deliveries: deliveries?.n ?? 0, oldest: deliveries?.oldest ?? null },
  };
}

/** The bodies of the newest audit entries (for their recording delay), newest first. */
export async function newestEntryBodies(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .select({ body: auditEntries.body })
    .from(auditEntries)
    .orderBy(desc(auditEntries.index))
    .limit(limit);
  return rows.map((r) => r.body);
}

/** The service's own unpublished events: how many, and when the oldest was committed. */
export async function outboxBacklog(db: Db): Promise<{ backlog: number; oldest: Date | null }> {
  const [row] = await db
    .select({ n: count(), oldest: min(outbox.occurredAt) })
    .from(outbox)
    .where(isNull(outbox.publishedAt));
  return { backlog: row?.n ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

/** Round trip of a trivial query, in ms. */
export async function pingDatabase(db: Db, now: () => number): Promise<number> {
  const start = now();
  await db.execute(sql`select 1`);
  return now() - start;
}
