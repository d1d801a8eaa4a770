import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { integer, type PgSchema, text, timestamp } from 'drizzle-orm/pg-core';
import type { Db } from './types.js';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/**
 * The `jobs` table in a service's schema: one row per scheduled job that the service's replicas share. Export it
 * from the service's `schema.ts` so drizzle-kit generates it with the service's migrations. A replica runs a due
 * job only after claiming it (`claimScheduledJob`), so one replica runs each due run however many poll at once.
 */
export function scheduledJobsTable(schema: PgSchema) {
  return schema.table('jobs', {
    job: text('job').primaryKey(),
    nextRunAt: at('next_run_at').notNull(),
    /** Set while a replica runs the job; a claim older than the claim timeout is taken over. */
    claimedAt: at('claimed_at'),
    runs: integer('runs').notNull().default(0),
    lastRunAt: at('last_run_at'),
    /** What the last run did (files removed, batches announced…), as its job counts it. */
    lastCount: integer('last_count').notNull().default(0),
  });
}

/** A service's jobs table, as made by `scheduledJobsTable`. */
export type ScheduledJobsTable = ReturnType<typeof scheduledJobsTable>;
export type ScheduledJobRow = ScheduledJobsTable['$inferSelect'];

/** Creates the job's row, due at `now`, unless it exists. */
export async function ensureScheduledJob(db: Db, table: ScheduledJobsTable, job: string, now: Date): Promise<void> {
  await db.insert(table).values({ job, nextRunAt: now.toISOString() }).onConflictDoNothing({ target: table.job });
}

export async function readScheduledJob(
  db: Db,
  table: ScheduledJobsTable,
  job: string,
): Promise<ScheduledJobRow | undefined> {
  const [row] = await db.select().from(table).where(eq(table.job, job)).limit(1);
  return row;
}

/**
 * Claims the job's due run for this replica: one conditional UPDATE that succeeds only while the run is due and
 * nobody holds a claim younger than `staleBefore`.
 */
export async function claimScheduledJob(
  db: Db,
  table: ScheduledJobsTable,
  job: string,
  now: Date,
  staleBefore: Date,
): Promise<boolean> {
  const rows = await db
    .update(table)
    .set({ claimedAt: now.toISOString() })
    .where(
      and(
        eq(table.job, job),
        sql`${table.nextRunAt} <= ${now.toISOString()}`,
        or(isNull(table.claimedAt), lt(table.claimedAt, staleBefore.toISOString())),
      ),
    )
    .returning({ job: table.job });
  return rows.length > 0;
}

/** Records a finished run, due again at `nextRunAt`, and releases the claim. */
export async function finishScheduledJob(
  db: Db,
  table: ScheduledJobsTable,
  job: string,
  run: { at: Date; count: number; nextRunAt: Date },
): Promise<void> {
  await db
    .update(table)
    .set({
      claimedAt: null,
      lastRunAt: run.at.toISOString(),
      lastCount: run.count,
      runs: sql`${table.runs} + 1`,
      nextRunAt: run.nextRunAt.toISOString(),
    })
    .where(eq(table.job, job));
}

/** Releases a claim after a failed run; the next poll may try again. */
export async function releaseScheduledJob(db: Db, table: ScheduledJobsTable, job: string): Promise<void> {
  await db.update(table).set({ claimedAt: null }).where(eq(table.job, job));
}
