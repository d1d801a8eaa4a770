import type { Bus } from '@rootline/bus';
import { chainWorkFound, chainWorkNext, type MiningJob, newId, type ReplyOf } from '@rootline/contracts';
import { call, type Logger } from '@rootline/host';
import type { PowPool } from './mining/pow-pool.js';

/** How long the appender holds a work request open when nothing changes. */
const LONG_POLL_MS = 1000;
/** Pause before asking again when no appender answers (failover in progress). */
const RETRY_MS = 250;

/**
 * Nonce-range helping, run by every instance that does not append: it long-polls the appender for the header
 * being mined, searches the disjoint nonce range it was given on its own threads, reports a nonce it finds
 * (the appender verifies it), and drops the search as soon as the header changes. So each instance adds its
 * hash rate to every block, whichever instance appends.
 */
export function createHelper(deps: { bus: Bus; pool: PowPool; log: Logger; instanceId: string }) {
  const { bus, pool, log, instanceId } = deps;
  // Each start() runs a loop of its own generation; a loop whose generation is stale ends at its next step and
  // never touches the pool again (which by then may belong to this instance's appender).
  let generation = 0;
  let active = false;

  async function run(mine: number): Promise<void> {
    const current = () => active && generation === mine;
    let known: string | null = null;
    let reported = pool.hashes();
    while (current()) {
      const now = pool.hashes();
      const hashes = Math.max(0, now - reported);
      reported = now;
      let reply: ReplyOf<typeof chainWorkNext>;
      try {
        reply = await call(
          bus,
          chainWorkNext,
          { instance: instanceId, after: known, hashes, waitMs: LONG_POLL_MS },
          { requestId: newId('req', Date.now()) },
          LONG_POLL_MS + 2000,
        );
      } catch {
        // No appender right now: stop searching a header that may be stale, and ask again shortly.
        if (!current()) return;
        pool.abort();
        known = null;
        await new Promise((r) => setTimeout(r, RETRY_MS));
        continue;
      }
      if (!current()) return;
      if (reply.status === 'same') continue;
      if (reply.status === 'none') {
        pool.abort();
        known = null;
        continue;
      }
      const job: MiningJob = reply.job;
      known = job.id;
      void pool.search(job.prefix, job.difficulty, job.start, job.end).then((result) => {
        if (result.status === 'found') {
          call(
            bus,
            chainWorkFound,
            { jobId: job.id, nonce: result.nonce },
            { requestId: newId('req', Date.now()) },
          ).catch((err: unknown) => log.debug({ err }, 'could not report a nonce'));
        } else if (result.status === 'exhausted' && known === job.id) {
          // The whole range failed: the next request gets a fresh range of the same header.
          known = null;
        }
      });
    }
  }

  return {
    start(): void {
      if (active) return;
      active = true;
      generation += 1;
      void run(generation).catch((err: unknown) => log.error({ err }, 'nonce-range helper stopped'));
    },
    /** Stops helping at once; a request still open ends on its own without touching the pool. */
    stop(): void {
      if (!active) return;
      active = false;
      pool.abort();
    },
  };
}

export type Helper = ReturnType<typeof createHelper>;
