import {
  claimScheduledJob,
  type Db,
  ensureScheduledJob,
  finishScheduledJob,
  releaseScheduledJob,
  type ScheduledJobsTable,
} from '@rootline/db';
import type { Clock } from './clock.js';
import type { Logger } from './logger.js';
import type { ServiceMetrics } from './metrics.js';
import { createPeriodic, type Periodic } from './periodic.js';

export interface ScheduledJobOptions {
  db: Db;
  table: ScheduledJobsTable;
  /** The job's name: its row in the table. */
  job: string;
  log: Logger;
  clock: Clock;
  /** Time from the end of one run to the next due run. */
  intervalMs: number;
  /** How often each replica looks whether the run is due. */
  pollMs: number;
  /** A claim older than this belongs to a replica that died mid-run and is taken over. */
  claimTimeoutMs: number;
  /** The run; returns what it did as a count (recorded as the job's `lastCount`). */
  run: (now: Date) => Promise<number>;
  /** Where each run this replica makes (not each poll) is observed, as `job_run_duration_seconds{task}`. */
  metrics?: ServiceMetrics;
}

/**
 * A periodic job that runs once across replicas: every `pollMs` each replica tries to claim the due run with one
 * conditional UPDATE of the job's row; the one that succeeds runs it and sets the next due time. A failed run
 * releases its claim and is tried again at the next poll. `start` creates the job's row, due at once, if needed.
 */
export function createScheduledJob(o: ScheduledJobOptions): Omit<Periodic, 'start'> & { start(): Promise<void> } {
  const { db, table, job, clock, log } = o;
  const loop = createPeriodic({
    everyMs: o.pollMs,
    log: log.child({ job }),
    what: `job ${job}`,
    async run() {
      const now = clock.now();
      if (!(await claimScheduledJob(db, table, job, now, new Date(now.getTime() - o.claimTimeoutMs)))) return;
      const started = performance.now();
      try {
        const count = await o.run(now);
        const at = clock.now();
        await finishScheduledJob(db, table, job, { at, count, nextRunAt: new Date(at.getTime() + o.intervalMs) });
        o.metrics?.run(job, 'ok', (performance.now() - started) / 1000);
        if (count > 0) log.info({ job, count }, 'job finished');
      } catch (err) {
        o.metrics?.run(job, 'error', (performance.now() - started) / 1000);
        await releaseScheduledJob(db, table, job).catch(() => {});
        throw err;
      }
    },
  });
  return {
    async start() {
      await ensureScheduledJob(db, table, job, clock.now());
      loop.start();
    },
    wake: loop.wake,
    stop: loop.stop,
  };
}
