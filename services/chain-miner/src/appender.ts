import type { Bus, ServedService } from '@rootline/bus';
import { blockMined, chainWorkFound, chainWorkNext, type MiningJob, newId } from '@rootline/contracts';
import type { Db, Outbox } from '@rootline/db';
import { type Clock, handle, type Logger, type ServiceMetrics, toEndpoint } from '@rootline/host';
import { findReceipts, findTip, insertBlock, isUniqueViolation, type StoredBlock } from './db/chain.repo.js';
import { type MiningFigures, renewLease } from './db/lease.repo.js';
import { removePending, takePending } from './db/mempool.repo.js';
import { BLOCK_CHANNEL, notify } from './db/notify.repo.js';
import {
  type Block,
  type BlockHeader,
  blockHash,
  GENESIS_PREVIOUS_HASH,
  headerPrefix,
  meetsDifficulty,
  type Transaction,
  transactionsRoot,
} from './domain/block.js';
import type { LocalAppender, Mempool } from './mempool.js';
import type { PowPool, SearchResult } from './mining/pow-pool.js';

export interface AppenderOptions {
  /** Configured difficulty; a block never has less than its predecessor. */
  difficulty: number;
  maxBlockTx: number;
  /** How long the appender waits after a wake-up for more transactions to share the block. */
  batchDelayMs: number;
  /**
   * Under load, the shortest time between the assembly of two blocks, unless `maxBlockTx` transactions are
   * already queued; a lone submitter does not wait for it (see `intervalLeft`).
   */
  blockIntervalMs: number;
  /** Lifetime of the appender lease; each block commit renews it. */
  leaseMs: number;
}

/**
 * Nonces per range: the appender searches range 0 of each header, every helper request gets the next one.
 * 2^32 nonces last about twenty minutes of one core, far beyond any block at a usable difficulty.
 */
export const NONCE_RANGE = 2 ** 32;
/** Ranges per header, so that every nonce stays a safe integer (2^20 × 2^32 = 2^52). */
const MAX_RANGES = 2 ** 20;
/** A helper that asked for work within this window counts as active. */
const HELPER_ACTIVE_MS = 5000;
/** Pause after a failed block before the next attempt. */
const RETRY_MS = 200;
/** Longest idle wait between mempool checks, in case a wake-up was missed. */
const IDLE_POLL_MS = 500;

/** What the appender knows when it is about to assemble a block. */
export interface NextBlock {
  /** Transactions in the previous block it assembled (0 before the first). */
  previousSize: number;
  /** Time since it assembled the previous block (ms; Infinity before the first). */
  sinceAssembledMs: number;
  /** Transactions queued in this instance (those in the mempool table are not counted). */
  queued: number;
}

/**
 * How long the next block still waits for the block interval (ms).
 *
 * Each block costs about 2^difficulty hashes whatever its size, so the block rate bounds the proof of work per
 * second. Under load the next block is therefore assembled no sooner than `blockIntervalMs` after the previous
 * one: fewer, larger blocks leave the CPU to the rest of the platform, and throughput comes from block size. A
 * full block goes at once, since waiting could not make it larger.
 *
 * A lone submitter (e.g. one client registering one plant after the other) never waits: the previous block
 * held at most one transaction and at most one is queued, so its block goes after the batching delay alone.
 * Anything else is load: several transactions are waiting, or the previous block answered several submitters
 * at once. The latter matters because such submitters come back together a round trip after their block was
 * stored, when the appender may already be idle: judged on the queue alone, clients that each wait for their
 * answer would get a block every few milliseconds however many they are. Whether the appender had to wait for
 * work is not part of the rule: on a busy machine a lone submitter's next transaction can arrive before the
 * appender's loop resumes, which would make it look like load.
 */
export function intervalLeft(next: NextBlock, options: Pick<AppenderOptions, 'blockIntervalMs' | 'maxBlockTx'>) {
  const lone = next.previousSize <= 1 && next.queued <= 1;
  if (lone || next.queued >= options.maxBlockTx) return 0;
  // Never more than the interval itself, whatever the clock did.
  return Math.min(options.blockIntervalMs, Math.max(0, options.blockIntervalMs - next.sinceAssembledMs));
}

/** Thrown inside a block's transaction when the lease is no longer ours: the block must not be stored. */
class LeaseLost extends Error {}
/** Thrown when a transaction of the block was withdrawn from the mempool meanwhile (its submitter gave up). */
class MempoolChanged extends Error {}

interface Job {
  id: string;
  header: BlockHeader;
  prefix: string;
  nextRange: number;
  /** Settles when a helper reports a verified nonce. */
  remote: Promise<SearchResult>;
  settleRemote: (r: SearchResult) => void;
}

export interface Appending extends LocalAppender {
  /** Resolves once the chain has a genesis block (created by this appender if the ledger was empty). */
  ready: Promise<void>;
  /** Another instance added transactions to the mempool table. */
  wake(): void;
  /** After stop(): the queued transactions no block took, for the next appender. */
  drain(): Transaction[];
  /** Renews the lease with the latest mining figures; false when it is lost. */
  renew(): Promise<boolean>;
  /** Stops appending: a block being stored is finished, one being mined is abandoned (see `drain`). */
  stop(): Promise<void>;
}

/**
 * The appender, run by the one instance holding the lease: takes transactions from the mempool table (those
 * other instances accepted) and from its own queue (those this instance accepted), assembles and mines one
 * block at a time (its own threads plus helpers searching other nonce ranges), and stores each block in a
 * transaction that also fences the lease and removes its transactions from the mempool table. On an empty
 * ledger it creates the genesis block first (see `ready`).
 */
export async function startAppending(deps: {
  db: Db;
  bus: Bus;
  outbox: Outbox;
  log: Logger;
  clock: Clock;
  pool: PowPool;
  mempool: Mempool;
  instanceId: string;
  version: string;
  options: AppenderOptions;
  /** Called when a block commit finds the lease lost; the caller then stops this appender. */
  onLost: () => void;
  metrics: ServiceMetrics;
}): Promise<Appending> {
  const { db, log, clock, pool, options, instanceId } = deps;
  const blocksMined = deps.metrics.counter({
    name: 'chain_blocks_mined_total',
    help: 'Blocks mined and stored by this instance while it held the appender lease',
  });
  const blockInterval = deps.metrics.histogram({
    name: 'chain_block_interval_seconds',
    help: 'Time between two blocks stored by this appender',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  });
  /** When (performance.now()) this appender stored its previous block; none yet: undefined. */
  let storedAt: number | undefined;
  let stopping = false;
  let tip: StoredBlock | Block | undefined = await findTip(db);
  if (tip && tip.difficulty > options.difficulty) {
    log.warn(
      { configured: options.difficulty, tip: tip.difficulty },
      'CHAIN_DIFFICULTY is below the difficulty of the chain; new blocks keep the higher value',
    );
  }
  let job: Job | undefined;
  let signalled = true;
  /** Transactions submitted to this instance, waiting for a block (not in the table: see mempool.ts). */
  let queue: Transaction[] = [];
  /** The table may hold transactions (another instance added some); checked at least every IDLE_POLL_MS. */
  let tableDirty = true;
  let tableCheckedAt = Number.NEGATIVE_INFINITY;
  let wakeUp: (() => void) | undefined;
  /** When (performance.now()) the previous block was assembled from queue and table; none yet: long ago. */
  let assembledAt = Number.NEGATIVE_INFINITY;
  /** Transactions in that block. */
  let assembledSize = 0;
  /** Ends the block-interval wait early: a full block is queued, or the appender stops. */
  let endPause: (() => void) | undefined;
  const jobWatchers = new Set<() => void>();
  const helpers = new Map<string, number>();
  let helperHashes = 0;
  const poolHashesAtStart = pool.hashes();
  let rate = { at: performance.now(), hashes: 0, perSecond: 0 };
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const difficulty = () => Math.max(options.difficulty, tip?.difficulty ?? 0);

  const jobChanged = () => {
    for (const w of jobWatchers) w();
    jobWatchers.clear();
  };

  const totalHashes = () => pool.hashes() - poolHashesAtStart + helperHashes;

  /** Mines a header with the local threads and any helpers; undefined when stopped meanwhile. */
  async function mine(first: BlockHeader): Promise<Block | undefined> {
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
  }

  /** A mined block and where its transactions came from. */
  interface Mined {
    block: Block;
    fromTable: Transaction[];
    fromQueue: Transaction[];
  }

  /** Assembles and mines the block after `base` (none: genesis); undefined when stopped meanwhile. */
  async function mineOn(base: Block | undefined, fromTable: Transaction[], fromQueue: Transaction[]) {
    const txs = fromTable.length === 0 ? fromQueue : [...fromTable, ...fromQueue];
    const now = clock.now().toISOString();
    const header: BlockHeader = {
      index: base ? base.index + 1 : 0,
      // Never earlier than the previous block, whatever the clock of a new appender says.
      timestamp: base && base.timestamp > now ? base.timestamp : now,
      previousHash: base ? base.hash : GENESIS_PREVIOUS_HASH,
      merkleRoot: transactionsRoot(txs),
      difficulty: Math.max(difficulty(), base?.difficulty ?? 0),
    };
    const block = await mine(header);
    return block ? { block, fromTable, fromQueue } : undefined;
  }

  /**
   * Stores a mined block in one transaction that fences the lease, inserts the block and its transactions,
   * removes the table's ones from the mempool (all of them, or nothing is stored), and queues the event and
   * the NOTIFY; then answers this instance's submitters.
   */
  async function commit({ block, fromTable, fromQueue }: Mined): Promise<void> {
    const txs = fromTable.length === 0 ? fromQueue : [...fromTable, ...fromQueue];
    await db.transaction(async (t) => {
      if (!(await renewLease(t, instanceId, options.leaseMs))) throw new LeaseLost();
      await insertBlock(t, block, txs);
      if (fromTable.length > 0) {
        const removed = await removePending(
          t,
          fromTable.map((x) => x.id),
        );
        if (removed.length !== fromTable.length) throw new MempoolChanged();
      }
      await deps.outbox.enqueue(
        t,
        blockMined,
        { index: block.index, hash: block.hash, txCount: txs.length },
        { requestId: newId('req', clock.now().getTime()) },
      );
      await notify(
        t,
        BLOCK_CHANNEL,
        JSON.stringify({ index: block.index, hash: block.hash, timestamp: block.timestamp }),
      );
    });
    tip = block;
    const now = performance.now();
    blocksMined.inc();
    if (storedAt !== undefined) blockInterval.observe((now - storedAt) / 1000);
    storedAt = now;
    deps.mempool.confirmBlock(block, txs);
  }

  /**
   * Puts queued transactions of a block that was not stored back at the front of the queue, except those the
   * chain holds after all (a commit whose outcome the error left unknown).
   */
  async function requeue(txs: Transaction[]): Promise<void> {
    if (txs.length === 0) return;
    const found = await findReceipts(
      db,
      txs.map((t) => t.id),
    ).catch(() => []);
    deps.mempool.confirmReceipts(found);
    const recorded = new Set(found.map((r) => r.txId));
    queue = [...txs.filter((t) => !recorded.has(t.id)), ...queue];
  }

  /** Removes from the mempool table the given transactions that a block already holds, answering their waiters. */
  async function dropRecordedFromTable(txs: Transaction[]): Promise<void> {
    if (txs.length === 0) return;
    try {
      const found = await findReceipts(
        db,
        txs.map((t) => t.id),
      );
      await removePending(
        db,
        found.map((r) => r.txId),
      );
      deps.mempool.confirmReceipts(found);
    } catch (err) {
      log.warn({ err }, 'could not drop recorded transactions from the mempool table');
    }
  }

  /** After a block was not stored: its queued transactions go back, and the tip is read again. */
  async function recover(err: unknown, failed: Mined[]): Promise<void> {
    for (const m of failed.reverse()) await requeue(m.fromQueue);
    // A chosen id added to the table again after its block was stored would fail every block: drop it there.
    if (isUniqueViolation(err)) await dropRecordedFromTable(failed.flatMap((m) => m.fromTable));
    tip = undefined;
    signalled = true;
    if (err instanceof LeaseLost) throw err;
    if (err instanceof MempoolChanged) {
      log.info('a transaction was withdrawn while its block was mined; assembling again');
    } else {
      log.error({ err }, 'block append failed; its transactions stay queued');
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }

  async function waitForWork(): Promise<void> {
    if (signalled || stopping) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, IDLE_POLL_MS);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wakeUp = undefined;
  }

  /** Waits for what is left of the block interval (see `intervalLeft`), or less when `endPause` is called. */
  async function pauseForInterval(): Promise<void> {
    const next = {
      previousSize: assembledSize,
      sinceAssembledMs: performance.now() - assembledAt,
      queued: queue.length,
    };
    const left = intervalLeft(next, options);
    if (left <= 0 || stopping) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      endPause = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    endPause = undefined;
  }

  /** Transactions for the next block: the table's first (excluding a block still being stored), then the queue. */
  async function take(excluding: Mined | undefined): Promise<{ fromTable: Transaction[]; fromQueue: Transaction[] }> {
    let fromTable: Transaction[] = [];
    if (tableDirty || performance.now() - tableCheckedAt >= IDLE_POLL_MS) {
      tableDirty = false;
      tableCheckedAt = performance.now();
      const skip = new Set(excluding?.fromTable.map((t) => t.id));
      const rows = await takePending(db, options.maxBlockTx + skip.size);
      fromTable = rows.filter((t) => !skip.has(t.id)).slice(0, options.maxBlockTx);
      // A full take means more may be waiting there.
      if (rows.length === options.maxBlockTx + skip.size) tableDirty = true;
    }
    // A chosen id may wait both here and in the table (submitted to two instances): it goes in once.
    const inTable = new Set(fromTable.map((t) => t.id));
    const fromQueue = queue.splice(0, options.maxBlockTx - fromTable.length).filter((t) => !inTable.has(t.id));
    return { fromTable, fromQueue };
  }

  /**
   * The block loop. Storing block N overlaps with mining block N+1 on top of it (its hash is known once it is
   * mined): a cycle costs the longer of the two, not their sum. If N is not stored, N+1 is discarded too.
   */
  async function run(): Promise<void> {
    let storing: { mined: Mined; done: Promise<unknown> } | undefined;
    /** Waits for the block being stored; rethrows its failure after putting its transactions back. */
    const settle = async (extra: Mined[] = []) => {
      const s = storing;
      storing = undefined;
      if (!s) return;
      const err = await s.done;
      if (err !== undefined) await recover(err, [s.mined, ...extra]);
    };
    while (!stopping) {
      try {
        if (!tip) {
          await settle();
          // An empty ledger: the genesis block comes first, and the appender is ready once it exists.
          tip = await findTip(db);
          if (!tip) {
            const genesis = await mineOn(undefined, [], []);
            if (genesis) {
              await commit(genesis);
              log.info({ hash: genesis.block.hash }, 'genesis block created');
            }
          }
          continue;
        }
        markReady();
        if (!signalled && storing) {
          // Nothing to mine meanwhile: finish storing first.
          await settle();
          continue;
        }
        // The batching delay applies after an idle wait only: under load the queue fills while a block is mined.
        // Then, unless this is a lone submitter, the block interval since the previous block (see intervalLeft).
        const idle = !signalled;
        await waitForWork();
        if (stopping) break;
        if (idle && options.batchDelayMs > 0) await new Promise((r) => setTimeout(r, options.batchDelayMs));
        await pauseForInterval();
        if (stopping) break;
        const { fromTable, fromQueue } = await take(storing?.mined);
        // A transaction accepted while the table was read is in this block: only what is left over is news (else
        // the next block would count as one under load, and wait for the interval).
        signalled = tableDirty || queue.length > 0;
        if (fromTable.length + fromQueue.length === 0) continue;
        assembledAt = performance.now();
        assembledSize = fromTable.length + fromQueue.length;
        const mined = await mineOn(storing?.mined.block ?? tip, fromTable, fromQueue);
        if (!mined) {
          queue = [...fromQueue, ...queue];
          continue;
        }
        await settle([mined]);
        // The previous block failed: this one was mined on top of it and is void (recover put it back).
        if (tip === undefined || tip.hash !== mined.block.previousHash) {
          if (tip !== undefined) await requeue(mined.fromQueue);
          continue;
        }
        storing = {
          mined,
          done: commit(mined).then(
            () => undefined,
            (err: unknown) => err ?? new Error('block commit failed'),
          ),
        };
      } catch (err) {
        if (err instanceof LeaseLost) {
          log.warn('appender lease lost; another instance appends from now on');
          deps.onLost();
          break;
        }
        log.error({ err }, 'block loop failed');
        tip = undefined;
        signalled = true;
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
    await settle().catch(() => {});
    markReady();
  }

  const workNext = handle(chainWorkNext, async ({ instance, after, hashes, waitMs }) => {
    helperHashes += hashes;
    helpers.set(instance, performance.now());
    const deadline = performance.now() + waitMs;
    for (;;) {
      const current = job;
      if (stopping) return { status: 'none' as const };
      if (current && current.id !== after) {
        const range = current.nextRange++;
        if (range >= MAX_RANGES) return { status: 'none' as const };
        const assigned: MiningJob = {
          id: current.id,
          prefix: current.prefix,
          difficulty: current.header.difficulty,
          start: range * NONCE_RANGE,
          end: (range + 1) * NONCE_RANGE,
        };
        return { status: 'job' as const, job: assigned };
      }
      if (!current && after !== null) return { status: 'none' as const };
      const left = deadline - performance.now();
      if (left <= 0) return current ? { status: 'same' as const } : { status: 'none' as const };
      await new Promise<void>((resolve) => {
        const watcher = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          jobWatchers.delete(watcher);
          resolve();
        }, left);
        jobWatchers.add(watcher);
      });
    }
  });

  const workFound = handle(chainWorkFound, async ({ jobId, nonce }) => {
    const current = job;
    if (!current || current.id !== jobId) return { accepted: false };
    // A helper's nonce is used only after the appender has checked it against its own header.
    const digest = blockHash(current.header, nonce);
    if (!meetsDifficulty(digest, current.header.difficulty)) {
      log.warn({ jobId, nonce }, 'a helper reported a nonce that does not solve the block');
      return { accepted: false };
    }
    current.settleRemote({ status: 'found', nonce, hash: digest });
    return { accepted: true };
  });

  // Served only while this instance appends: helpers reach the appender whichever instance it is.
  const served: ServedService = await deps.bus.serve({ name: 'chain-miner', version: deps.version }, [
    toEndpoint(workNext, log, deps.metrics),
    toEndpoint(workFound, log, deps.metrics),
  ]);
  const loop = run();

  return {
    ready,
    accept(tx) {
      queue.push(tx);
      signalled = true;
      wakeUp?.();
      if (queue.length >= options.maxBlockTx) endPause?.();
    },
    withdraw(ids) {
      const out = new Set(ids);
      const removed = queue.filter((t) => out.has(t.id));
      if (removed.length > 0) queue = queue.filter((t) => !out.has(t.id));
      return removed.map((t) => t.id);
    },
    drain() {
      const left = queue;
      queue = [];
      return left;
    },
    wake() {
      tableDirty = true;
      signalled = true;
      wakeUp?.();
    },
    async renew() {
      const now = performance.now();
      const hashes = totalHashes();
      const seconds = (now - rate.at) / 1000;
      if (seconds >= 1) {
        rate = { at: now, hashes, perSecond: (hashes - rate.hashes) / seconds };
      }
      for (const [id, seen] of helpers) if (now - seen > HELPER_ACTIVE_MS) helpers.delete(id);
      const figures: MiningFigures = { hashes, hashRate: rate.perSecond, helpers: helpers.size };
      return renewLease(db, instanceId, options.leaseMs, figures);
    },
    async stop() {
      stopping = true;
      pool.abort();
      job?.settleRemote({ status: 'aborted' });
      jobChanged();
      wakeUp?.();
      endPause?.();
      await loop;
      await served.stop();
    },
  };
}
