import type { Db } from '@rootline/db';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { jobs } from './schema.js';

/** Creates a job's row, due at once, unless it exists. */
export async function ensureJob(db: Db, job: string, now: Date): Promise<void> {
  await db.insert(jobs).values({ job, nextRunAt: now.toISOString() }).onConflictDoNothing({ target: jobs.job });
}

/**
 * Claims the job's due run for this replica (the plants lineage agent's mechanism): one conditional UPDATE that
 * succeeds only when the run is due and nobody holds a claim younger than `staleBefore`, so exactly one replica
 * runs it however many poll at once.
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

/** Records a finished run and releases the claim. */
export async function finishJob(db: Db, job: string, at: Date, nextRunAt: Date): Promise<void> {
  await db
    .update(jobs)
    .set({
      claimedAt: null,
      lastRunAt: at.toISOString(),
      runs: sql`${jobs.runs} + 1`,
      nextRunAt: nextRunAt.toISOString(),
    })
    .where(eq(jobs.job, job));
}

/** Releases a claim after a failed run (the next poll may try again). */
export async function releaseJob(db: Db, job: string): Promise<void> {
  await db.update(jobs).set({ claimedAt: null }).where(eq(jobs.job, job));
}

export async function jobRuns(db: Db, job: string): Promise<number> {
  const [row] = await db.select({ runs: jobs.runs }).from(jobs).where(eq(jobs.job, job));
  return row?.runs ?? 0;
}
