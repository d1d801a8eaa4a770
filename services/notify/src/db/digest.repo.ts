import type { Db } from '@rootline/db';
import { and, count, eq, gte, lt } from 'drizzle-orm';
import { digestRuns, notifications } from './schema.js';

/**
 * Claims the digest of a week for this instance. Inside the transaction that records the digests: a second
 * instance's claim waits on the first one's row, then finds it (false), or takes over if the first rolled back.
 */
export async function claimDigestWeek(db: Db, weekStart: string, instance: string, at: string): Promise<boolean> {
  const rows = await db
    .insert(digestRuns)
    .values({ weekStart, instance, recipients: 0, createdAt: at })
    .onConflictDoNothing()
    .returning({ weekStart: digestRuns.weekStart });
  return rows.length === 1;
}

export async function setDigestRecipients(db: Db, weekStart: string, recipients: number): Promise<void> {
  await db.update(digestRuns).set({ recipients }).where(eq(digestRuns.weekStart, weekStart));
}

/** Per user and type, the notifications made in [from, to). */
export async function weekCounts(db: Db, from: string, to: string): Promise<Map<string, Record<string, number>>> {
  const rows = await db
    .select({ userId: notifications.userId, type: notifications.type, n: count() })
    .from(notifications)
    .where(and(gte(notifications.createdAt, from), lt(notifications.createdAt, to)))
    .groupBy(notifications.userId, notifications.type);
  const out = new Map<string, Record<string, number>>();
  for (const r of rows) out.set(r.userId, { ...out.get(r.userId), [r.type]: r.n });
  return out;
}
