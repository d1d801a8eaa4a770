import { harvestReady, newId } from '@rootline/contracts';
import { type Db, type Outbox, pendingEvent } from '@rootline/db';
import type { Clock, Logger } from '@rootline/host';
import { markReady } from './db/batches.repo.js';
import { claimJob, finishJob, releaseJob } from './db/jobs.repo.js';

export const HARVEST_READY_JOB = 'harvest-ready';
/** Batches announced per transaction. */
const PAGE = 500;
/** A claim older than this belongs to a replica that died mid-run and is taken over. */
const CLAIM_TIMEOUT_MS = 5 * 60_000;

export interface HarvestReadyRunner {
  start(): void;
  stop(): Promise<void>;
}

/**
 * The harvest-ready job in one replica: every `pollMs` it tries to claim the due run (one replica runs it, see
 * `claimJob`); the run announces every open batch whose expected harvest date has come with a harvest.ready event,
 * marking it in the same transaction, so a batch is announced once whatever replica runs.
 */
export function createHarvestReadyRunner(deps: {
  db: Db;
  outbox: Outbox;
  log: Logger;
  clock: Clock;
  intervalMs: number;
  pollMs: number;
}): HarvestReadyRunner {
  const { db, log, clock } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function run(): Promise<void> {
    const now = clock.now();
    if (!(await claimJob(db, HARVEST_READY_JOB, now, new Date(now.getTime() - CLAIM_TIMEOUT_MS)))) return;
    try {
      let announced = 0;
      for (;;) {
        const n = await db.transaction(async (tx) => {
          const ready = await markReady(tx, now, PAGE);
          if (ready.length === 0) return 0;
          const ctx = { requestId: newId('req') };
          await deps.outbox.enqueueMany(
            tx,
            ready.map((b) =>
              pendingEvent(
                harvestReady,
                {
                  batchId: b.id,
                  farmId: b.farmId,
                  crop: b.crop,
                  expectedHarvestAt: new Date(b.expectedHarvestAt).toISOString(),
                },
                ctx,
              ),
            ),
          );
          return ready.length;
        });
        announced += n;
        if (n < PAGE) break;
      }
      const done = clock.now();
      await finishJob(db, HARVEST_READY_JOB, done, new Date(done.getTime() + deps.intervalMs));
      if (announced > 0) log.info({ announced }, 'harvest-ready batches announced');
    } catch (err) {
      await releaseJob(db, HARVEST_READY_JOB).catch(() => {});
      throw err;
    }
  }

  function tick(): void {
    if (running) return;
    running = run()
      .catch((err: unknown) => log.error({ err }, 'harvest-ready run failed'))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    start() {
      if (timer) return;
      timer = setInterval(tick, deps.pollMs);
      timer.unref();
      tick();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
