import type { Db } from '@rootline/db';
import { and, asc, count, gt, gte, inArray, lt, lte, max, min, type SQL, sql } from 'drizzle-orm';
import type { ExportRow } from '../domain/export-format.js';
import { publicEvents } from './schema.js';

export interface ExportFilter {
  kinds?: string[] | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

function conditions(f: ExportFilter): SQL[] {
  const parts: SQL[] = [];
  if (f.kinds) parts.push(inArray(publicEvents.kind, f.kinds));
  if (f.from) parts.push(gte(publicEvents.occurredAt, f.from));
  if (f.to) parts.push(lt(publicEvents.occurredAt, f.to));
  return parts;
}

/** ISO 8601 UTC with milliseconds, written by PostgreSQL (no Date per row). */
const isoOccurredAt = sql<string>`to_char(${publicEvents.occurredAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The last seq now: an export reads the snapshot up to it, so events recorded meanwhile do not stretch it. */
export async function latestSeq(db: Db): Promise<number> {
  const [row] = await db.select({ seq: max(publicEvents.seq) }).from(publicEvents);
  return Number(row?.seq ?? 0);
}

/**
 * Up to `limit` events after seq `after` and up to `until`, in seq order (keyset: each piece is one index range
 * scan, however deep into the history it is). `data` is the stored JSON text, not parsed.
 */
export function exportRows(db: Db, f: ExportFilter, after: number, until: number, limit: number): Promise<ExportRow[]> {
  return db
    .select({
      seq: publicEvents.seq,
      eventId: publicEvents.eventId,
      kind: publicEvents.kind,
      occurredAt: isoOccurredAt,
      data: sql<string>`${publicEvents.data}::text`,
    })
    .from(publicEvents)
    .where(and(gt(publicEvents.seq, after), lte(publicEvents.seq, until), ...conditions(f)))
    .orderBy(asc(publicEvents.seq))
    .limit(limit);
}

/** Counts by kind and by UTC day, and the bounds, of the events matching the filter. */
export async function exportSummary(db: Db, f: ExportFilter) {
  const cond = and(...conditions(f));
  const day = sql<string>`to_char(${publicEvents.occurredAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [bounds, byKind, byDay] = await Promise.all([
    db
      .select({
        total: count(),
        firstSeq: min(publicEvents.seq),
        lastSeq: max(publicEvents.seq),
        first: sql<
          string | null
        >`to_char(min(${publicEvents.occurredAt}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
        last: sql<
          string | null
        >`to_char(max(${publicEvents.occurredAt}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      })
      .from(publicEvents)
      .where(cond),
    db
      .select({ kind: publicEvents.kind, count: count() })
      .from(publicEvents)
      .where(cond)
      .groupBy(publicEvents.kind)
      .orderBy(asc(publicEvents.kind)),
    db.select({ day, count: count() }).from(publicEvents).where(cond).groupBy(day).orderBy(asc(day)),
  ]);
  const b = bounds[0];
  return {
    total: b?.total ?? 0,
    firstSeq: b?.firstSeq == null ? null : Number(b.firstSeq),
    lastSeq: b?.lastSeq == null ? null : Number(b.lastSeq),
    firstOccurredAt: b?.first ?? null,
    lastOccurredAt: b?.last ?? null,
    byKind,
    byDay,
  };
}
