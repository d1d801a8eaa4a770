import type { PublicEvent, PublicEventKind } from '@rootline/contracts';
import { type Db, executePrepared, insertFromJson } from '@rootline/db';
import { and, asc, count, gt, inArray, lte, max, type SQL, sql } from 'drizzle-orm';
import { publicEvents } from './schema.js';

/**
 * Adds an event of a public kind to the history. Call it inside the transaction that appended the event to the
 * audit log: that transaction holds the head lock, so seq order is commit order and a reader that has seen seq n
 * has seen every seq below it.
 */
export async function appendPublicEvent(
  tx: Db,
  e: { eventId: string; kind: string; occurredAt: string; data: unknown },
): Promise<number> {
  const [seq] = await appendPublicEvents(tx, [e]);
  return seq!;
}

/** `appendPublicEvent` for several events, numbered in the order given, in one statement; returns their seqs. */
export async function appendPublicEvents(
  tx: Db,
  events: readonly { eventId: string; kind: string; occurredAt: string; data: unknown }[],
): Promise<number[]> {
  if (events.length === 0) return [];
  // Fixed texts run prepared, the rows as one JSON parameter (drizzle's building and describe round trips were
  // the audit consumer's cost: pnpm bench audit-log).
  const [last] = await executePrepared<{ seq: string | number | null }>(
    tx,
    sql`select max(${publicEvents.seq}) as seq from ${publicEvents}`,
  );
  const first = Number(last?.seq ?? 0) + 1;
  await executePrepared(
    tx,
    insertFromJson(
      publicEvents,
      events.map((e, i) => ({
        seq: first + i,
        eventId: e.eventId,
        kind: e.kind,
        occurredAt: e.occurredAt,
        data: e.data,
      })),
    ),
  );
  return events.map((_, i) => first + i);
}

export interface HistoryQuery {
  after?: number | undefined;
  kinds?: string[] | undefined;
  page: number;
  limit: number;
}

/** One page of the history (oldest first), how many events match, and the last seq of all. */
export async function listPublicEvents(
  db: Db,
  q: HistoryQuery,
): Promise<{ items: PublicEvent[]; total: number; latestSeq: number }> {
  // The last seq first, then only events up to it: seq order is commit order, so the page and `latestSeq` agree
  // (a reader that stops at a page that is not full has seen everything up to latestSeq).
  const [latest] = await db.select({ seq: max(publicEvents.seq) }).from(publicEvents);
  const latestSeq = Number(latest?.seq ?? 0);
  const parts: SQL[] = [lte(publicEvents.seq, latestSeq)];
  if (q.after !== undefined) parts.push(gt(publicEvents.seq, q.after));
  if (q.kinds) parts.push(inArray(publicEvents.kind, q.kinds));
  const cond = and(...parts);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(publicEvents)
      .where(cond)
      .orderBy(asc(publicEvents.seq))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(publicEvents).where(cond),
  ]);
  return {
    items: rows.map((r) => ({
      seq: r.seq,
      id: r.eventId,
      kind: r.kind as PublicEventKind,
      // PostgreSQL answers its own timestamp format; the API speaks ISO 8601.
      occurredAt: new Date(r.occurredAt).toISOString(),
      data: r.data,
    })),
    total: counted?.n ?? 0,
    latestSeq,
  };
}
