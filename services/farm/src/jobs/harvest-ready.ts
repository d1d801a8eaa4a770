import { harvestReady, newId } from '@rootline/contracts';
import { type Db, type Outbox, pendingEvent } from '@rootline/db';
import { type Clock, createScheduledJob, type Logger, type ServiceMetrics } from '@rootline/host';
import { markReady } from '../db/batches.repo.js';
import { farmNames } from '../db/farms.repo.js';
import { jobs } from '../db/schema.js';

export const HARVEST_READY_JOB = 'harvest-ready';
/** Batches announced per transaction. */
const PAGE = 500;
/** A claim older than this belongs to a replica that died mid-run and is taken over. */
const CLAIM_TIMEOUT_MS = 5 * 60_000;

/**
 * The harvest-ready job in one replica: every `pollMs` it tries to claim the due run (one replica runs it, see
 * `createScheduledJob`); the run announces every open batch whose expected harvest date has come with a
 * harvest.ready event, marking it in the same transaction, so a batch is announced once whatever replica runs.
 */
export function createHarvestReadyRunner(deps: {
  db: Db;
  outbox: Outbox;
  log: Logger;
  clock: Clock;
  intervalMs: number;
  pollMs: number;
  metrics?: ServiceMetrics;
}) {
  const { db } = deps;
  return createScheduledJob({
    db,
    table: jobs,
    job: HARVEST_READY_JOB,
    log: deps.log,
    clock: deps.clock,
    intervalMs: deps.intervalMs,
    pollMs: deps.pollMs,
    claimTimeoutMs: CLAIM_TIMEOUT_MS,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    async run(now) {
      let announced = 0;
      for (;;) {
        const n = await db.transaction(async (tx) => {
          const ready = await markReady(tx, now, PAGE);
          if (ready.length === 0) return 0;
          const names = await farmNames(tx, [...new Set(ready.map((b) => b.farmId))]);
          const ctx = { requestId: newId('req', now.getTime()) };
          await deps.outbox.enqueueMany(
            tx,
            ready.map((b) =>
              pendingEvent(
                harvestReady,
                {
                  batchId: b.id,
                  farmId: b.farmId,
                  farmName: names.get(b.farmId) ?? b.farmId,
                  ownerId: b.ownerId,
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
        if (n < PAGE) return announced;
      }
    },
  });
}
