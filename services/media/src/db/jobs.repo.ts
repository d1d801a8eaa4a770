import type { Db } from '@rootline/db';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { jobs } from './schema.js';

export type JobRow = typeof jobs.$inferSelect;

/** Creates the job's row, due at once, unless it exists. */
export async function ensureJob(db: Db, job: string, now: Date): Promise<void> {
  await db.insert(jobs).values({ job, nextRunAt: now.toISOString() }).onConflictDoNothing({ target: jobs.job });
}

export async function readJob(db: Db, job: string): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(eq(jobs.job, job)).limit(1);
  return row;
}

/**
 * Claims a due run for this replica, as the lineage agent claims its scans: one conditional UPDATE succeeds only
 * while the run is due and nobody holds a claim younger than `staleBefore`, so across replicas one runs it.
 */
export async function claimJob(db: Db, job: string, now: Date, staleBefore: Date): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ claimedAt: now.toISOString() })
    .where(
      and(
        eq(jobs.job, job),
        sql`${jobs.nextRunAt} <= ${now.toISOString()}`,
        or(isNull(jobs.claimedAt), lt(jobs.claimedAt, staleBefore.toISOString())),
      ),
    )
    .returning({ job: jobs.job });
  return rows.length > 0;
}

/** Records a run and releases the claim. */
export async function finishJob(db: Db, job: string, run: { at: Date; removed: number; nextRunAt: Date }) {
  await db
    .update(jobs)
    .set({
      claimedAt: null,
      lastRunAt: run.at.toISOString(),
      lastRemoved: run.removed,
      runs: sql`${jobs.runs} + 1`,
      nextRunAt: run.nextRunAt.toISOString(),
    })
    .where(eq(jobs.job, job));
}

/** Releases a claim after a failed run (it is retried at the next poll). */
export async function releaseJob(db: Db, job: string): Promise<void> {
  await db.update(jobs).set({ claimedAt: null }).where(eq(jobs.job, job));
}
