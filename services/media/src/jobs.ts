import type { Db } from '@rootline/db';
import type { Clock, Logger } from '@rootline/host';
import { claimJob, ensureJob, finishJob, releaseJob } from './db/jobs.repo.js';

/** A claim older than this belongs to a replica that died mid-run and is taken over. */
const CLAIM_TIMEOUT_MS = 10 * 60 * 1000;

export interface JobRunner {
  start(): Promise<void>;
  /** Checks at once whether a run is due. */
  wake(): void;
  /** Stops checking and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * A periodic job that runs once across replicas, by the lineage agent's mechanism: every `pollMs` each replica
 * tries to claim the due run with one conditional UPDATE of the job's row; the one that succeeds runs it and
 * sets the next due time. `run` returns how many files it removed.
 */
export function createJobRunner(deps: {
  db: Db;
  log: Logger;
  clock: Clock;
  job: string;
  intervalMs: number;
  pollMs: number;
  run: (now: Date) => Promise<number>;
}): JobRunner {
  const { db, log, clock, job } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function tick(): Promise<void> {
    const now = clock.now();
    if (!(await claimJob(db, job, now, new Date(now.getTime() - CLAIM_TIMEOUT_MS)))) return;
    try {
      const removed = await deps.run(now);
      const at = clock.now();
      await finishJob(db, job, { at, removed, nextRunAt: new Date(at.getTime() + deps.intervalMs) });
      if (removed > 0) log.info({ job, removed }, 'media job finished');
    } catch (err) {
      await releaseJob(db, job).catch(() => {});
      throw err;
    }
  }

  function wake(): void {
    if (!timer || running) return;
    running = tick()
      .catch((err: unknown) => log.error({ err, job }, 'media job failed'))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    async start() {
      if (timer) return;
      await ensureJob(db, job, clock.now());
      timer = setInterval(wake, deps.pollMs);
      timer.unref();
      wake();
    },
    wake,
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
