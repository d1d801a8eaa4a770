import type { Db } from '@rootline/db';
import { and, asc, eq, gte, lt } from 'drizzle-orm';
import type { AnalyticsEvent } from '../domain/analytics-rollup.js';
import { applyManyToAnalytics } from './analytics.repo.js';
import { analyticsState, auditEntries, auditHead } from './schema.js';

const HEAD_ID = 1;
const STATE_ID = 1;
const PAGE = 1000;

/**
 * Builds the analytics counters from the audit log once, for the events recorded before the read model existed:
 * under the audit head's lock (so no event is appended meanwhile, and replicas starting together build once),
 * every event entry is replayed through the same mapping as live events, then a state row marks it done.
 * Returns how many entries were replayed (0 when it was done before).
 */
export async function buildAnalyticsFromAudit(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const [head] = await tx.select().from(auditHead).where(eq(auditHead.id, HEAD_ID)).for('update');
    const [state] = await tx.select().from(analyticsState).where(eq(analyticsState.id, STATE_ID));
    if (state) return 0;
    const size = head?.size ?? 0;
    for (let from = 0; from < size; from += PAGE) {
      const rows = await tx
        .select({ body: auditEntries.body })
        .from(auditEntries)
        .where(and(gte(auditEntries.index, from), lt(auditEntries.index, from + PAGE)))
        .orderBy(asc(auditEntries.index));
      const events: AnalyticsEvent[] = [];
      for (const { body } of rows) {
        const entry = JSON.parse(body) as { source: string; subject: string; occurredAt: string; data: unknown };
        if (entry.source === 'event') {
          events.push({ subject: entry.subject, occurredAt: entry.occurredAt, payload: entry.data });
        }
      }
      await applyManyToAnalytics(tx, events);
    }
    await tx.insert(analyticsState).values({ id: STATE_ID, builtFromAuditSize: size, builtAt: now.toISOString() });
    return size;
  });
}
