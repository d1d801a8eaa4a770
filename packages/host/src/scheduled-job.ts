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

/** Background work a service returns (`ServiceDefinition.jobs`): the host starts it and stops it. */
export interface Job {
  /** Runs once before the service's handlers are served, e.g. to create the work's row. */
  prepare?(): Promise<void>;
  start(): void | Promise<void>;
  /** Stops the work and waits for a run in progress. */
  stop(): Promise<void>;
}

/** Options of `createClaimedRuns`. */
export interface ClaimedRunsOptions {
  log: Logger;
  clock: Clock;
  /** The work's name in logs and in `job_run_duration_seconds{task}`. */
  job: string;
  /** What a failed run is logged as (`<what> failed`). */
  what: string;
  /** How often each replica looks whether a run is due. */
  pollMs: number;
  /** Claims a run for this replica: a due one, or (`forced`) one now whatever the schedule; false if not. */
  claim(now: Date, forced: boolean): Promise<boolean>;
  /** The claimed run; it records its end (and releases the claim) itself. */
  run(now: Date): Promise<void>;
  /** Releases the claim after a failed run. */
  release(): Promise<void>;
  /** Where each run this replica makes (not each poll) is observed. */
  metrics?: ServiceMetrics;
}

/**
 * The runner shared by scheduled jobs and agents: every `pollMs` each replica tries to claim the due run (one
 * conditional UPDATE of the work's row), and the one that succeeds runs it. A failed run releases its claim and is
 * tried again at the next poll. `runNow` claims and runs one at once, after this replica's run in progress.
 */
export function createClaimedRuns(o: ClaimedRunsOptions): Periodic & { runNow(): Promise<boolean> } {
  let current: Promise<void> | undefined;

  async function runClaimed(now: Date): Promise<void> {
    const started = performance.now();
    try {
      await o.run(now);
      o.metrics?.run(o.job, 'ok', (performance.now() - started) / 1000);
    } catch (err) {
      o.metrics?.run(o.job, 'error', (performance.now() - started) / 1000);
      await o.release().catch(() => {});
      throw err;
    }
  }

  const loop = createPeriodic({
    everyMs: o.pollMs,
    log: o.log,
    what: o.what,
    run() {
      current = (async () => {
        const now = o.clock.now();
        if (await o.claim(now, false)) await runClaimed(now);
      })();
      return current;
    },
  });

  return {
    ...loop,
    async runNow() {
      await current?.catch(() => {});
      const now = o.clock.now();
      if (!(await o.claim(now, true))) return false;
      await runClaimed(now);
      return true;
    },
  };
}

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
export function createScheduledJob(o: ScheduledJobOptions): Omit<Periodic, 'start'> & Job & { start(): Promise<void> } {
  const { db, table, job, clock, log } = o;
  const loop = createClaimedRuns({
    log: log.child({ job }),
    clock,
    job,
    what: `job ${job}`,
    pollMs: o.pollMs,
    ...(o.metrics ? { metrics: o.metrics } : {}),
    claim: (now) => claimScheduledJob(db, table, job, now, new Date(now.getTime() - o.claimTimeoutMs)),
    async run(now) {
      const count = await o.run(now);
      const at = clock.now();
      await finishScheduledJob(db, table, job, { at, count, nextRunAt: new Date(at.getTime() + o.intervalMs) });
      if (count > 0) log.info({ job, count }, 'job finished');
    },
    release: () => releaseScheduledJob(db, table, job),
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
