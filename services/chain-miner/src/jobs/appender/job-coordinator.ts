import { type chainWorkNext, type MiningJob, newId, type ReplyOf } from '@rootline/contracts';
import type { Clock, Logger } from '@rootline/host';
import type { MiningFigures } from '../../db/lease.repo.js';
import { type Block, type BlockHeader, blockHash, headerPrefix, meetsDifficulty } from '../../domain/block.js';
import { NONCE_RANGE, nonceRange } from '../../domain/nonce-ranges.js';
import type { PowPool, SearchResult } from '../mining/pow-pool.js';

/** A helper that asked for work within this window counts as active. */
const HELPER_ACTIVE_MS = 5000;

/** The header being mined, as handed out to helpers. */
interface Job {
  id: string;
  header: BlockHeader;
  prefix: string;
  /** The range the next helper request gets (range 0 is the appender's own). */
  nextRange: number;
  /** Settles when a helper reports a verified nonce. */
  remote: Promise<SearchResult>;
  settleRemote: (r: SearchResult) => void;
}

/** A helper's request for work (`chain.work.next`). */
export interface WorkRequest {
  instance: string;
  /** The job it last worked on; null when it has none. */
  after: string | null;
  /** Hashes it searched since its previous request. */
  hashes: number;
  waitMs: number;
}

export type WorkReply = ReplyOf<typeof chainWorkNext>;

/**
 * The appender's mining job: mines one header at a time with this instance's threads (range 0 of its nonces) and
 * hands the following ranges to helpers (the other instances), taking the first verified nonce from either side.
 * It also counts the hashes of both sides for the lease's mining figures.
 */
export function createJobCoordinator(deps: { pool: PowPool; clock: Clock; log: Logger }) {
  const { pool, clock, log } = deps;
  let job: Job | undefined;
  let stopping = false;
  /** Long-polling helpers waiting for the job to change. */
  const watchers = new Set<() => void>();
  /** Helpers by instance, with when (performance.now()) each last asked for work. */
  const helpers = new Map<string, number>();
  let helperHashes = 0;
  const poolHashesAtStart = pool.hashes();
  let rate = { at: performance.now(), hashes: 0, perSecond: 0 };

  const jobChanged = () => {
    for (const w of watchers) w();
    watchers.clear();
  };

  /** Waits until the job changes, or at most `ms`. */
  const jobChange = (ms: number) =>
    new Promise<void>((resolve) => {
      const watcher = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        watchers.delete(watcher);
        resolve();
      }, ms);
      watchers.add(watcher);
    });

  /** Hands out the next nonce range of `current`; none once every range is taken. */
  const assign = (current: Job): WorkReply => {
    const range = nonceRange(current.nextRange++);
    if (!range) return { status: 'none' };
    const assigned: MiningJob = {
      id: current.id,
      prefix: current.prefix,
      difficulty: current.header.difficulty,
      ...range,
    };
    return { status: 'job', job: assigned };
  };

  return {
    /** Mines a header with the local threads and any helpers; undefined when stopped meanwhile. */
    async mine(first: BlockHeader): Promise<Block | undefined> {
      let header = first;
      for (;;) {
        let settleRemote: (r: SearchResult) => void = () => {};
        const remote = new Promise<SearchResult>((resolve) => {
          settleRemote = resolve;
        });
        const current: Job = {
          id: newId('job', clock.now().getTime()),
          header,
          prefix: headerPrefix(header),
          nextRange: 1,
          remote,
          settleRemote,
        };
        job = current;
        jobChanged();
        const result = await Promise.race([pool.search(current.prefix, header.difficulty, 0, NONCE_RANGE), remote]);
        job = undefined;
        pool.abort();
        current.settleRemote({ status: 'aborted' });
        jobChanged();
        if (result.status === 'found') return { ...header, nonce: result.nonce, hash: result.hash };
        if (stopping || result.status === 'aborted') return undefined;
        // Every nonce of the range failed (an extreme difficulty): a new timestamp gives new hashes.
        header = { ...header, timestamp: clock.now().toISOString() };
      }
    },

    /**
     * A helper's long poll: a range of the job being mined if it is not the one the helper knows, else waits up to
     * `waitMs` for a new job ('same' when none came, 'none' when nothing is being mined).
     */
    async nextWork({ instance, after, hashes, waitMs }: WorkRequest): Promise<WorkReply> {
      helperHashes += hashes;
      helpers.set(instance, performance.now());
      const deadline = performance.now() + waitMs;
      for (;;) {
        const current = job;
        if (stopping) return { status: 'none' };
        if (current && current.id !== after) return assign(current);
        if (!current && after !== null) return { status: 'none' };
        const left = deadline - performance.now();
        if (left <= 0) return current ? { status: 'same' } : { status: 'none' };
        await jobChange(left);
      }
    },

    /** A helper found `nonce` for job `jobId`: used only if it solves the header being mined. */
    report(jobId: string, nonce: number): boolean {
      const current = job;
      if (!current || current.id !== jobId) return false;
      // A helper's nonce is used only after the appender has checked it against its own header.
      const digest = blockHash(current.header, nonce);
      if (!meetsDifficulty(digest, current.header.difficulty)) {
        log.warn({ jobId, nonce }, 'a helper reported a nonce that does not solve the block');
        return false;
      }
      current.settleRemote({ status: 'found', nonce, hash: digest });
      return true;
    },

    /** Hashes of this appender and its helpers, their rate (updated at most once a second) and active helpers. */
    figures(): MiningFigures {
      const now = performance.now();
      const hashes = pool.hashes() - poolHashesAtStart + helperHashes;
      const seconds = (now - rate.at) / 1000;
      if (seconds >= 1) {
        rate = { at: now, hashes, perSecond: (hashes - rate.hashes) / seconds };
      }
      for (const [id, seen] of helpers) if (now - seen > HELPER_ACTIVE_MS) helpers.delete(id);
      return { hashes, hashRate: rate.perSecond, helpers: helpers.size };
    },

    /** Abandons the header being mined and answers waiting helpers. */
    stop(): void {
      stopping = true;
      pool.abort();
      job?.settleRemote({ status: 'aborted' });
      jobChanged();
    },
  };
}

export type JobCoordinator = ReturnType<typeof createJobCoordinator>;
