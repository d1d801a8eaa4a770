import type { Bus, ServedService } from '@rootline/bus';
import type { Db, Outbox } from '@rootline/db';
import { type Clock, type Logger, type ServiceMetrics, toEndpoint } from '@rootline/host';
import { renewLease } from '../../db/lease.repo.js';
import { takePending } from '../../db/mempool.repo.js';
import type { Block, Transaction } from '../../domain/block.js';
import { type BlockContents, blockTransactions, type Mined, nextHeader } from '../../domain/block-assembly.js';
import { workFound, workNext } from '../../handlers/work.js';
import type { LocalAppender, Mempool } from '../mempool.js';
import type { PowPool } from '../mining/pow-pool.js';
import { type Assembler, createAssembler } from './assembler.js';
import { type Committer, createCommitter, LeaseLost, RETRY_MS } from './committer.js';
import { createJobCoordinator, type JobCoordinator } from './job-coordinator.js';
import { createPacer, type Pacer, type PacerOptions } from './pacer.js';

export interface AppenderOptions extends PacerOptions {
  /** Configured difficulty; a block never has less than its predecessor. */
  difficulty: number;
  /** Lifetime of the appender lease; each block commit renews it. */
  leaseMs: number;
}

/**
 * Longest idle wait between mempool checks, in case a wake-up was missed: a submission on this instance wakes the
 * appender directly, one on another instance through NOTIFY, and listening again after a lost connection wakes it
 * too, so at rest this is the only read of the table (ADR 170).
 */
const IDLE_POLL_MS = 2000;

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
 * ledger it creates the genesis block first (see `ready`). Its parts: the assembler (which transactions), the
 * pacer (when), the job coordinator (mining, with helpers) and the committer (storing).
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
  const { db, log, options, instanceId } = deps;
  const { maxBlockTx, leaseMs } = options;
  const readTable = (limit: number) => takePending(db, limit);
  const assembler = createAssembler({ maxBlockTx, pollMs: IDLE_POLL_MS, readTable });
  const pacer = createPacer({ options, pollMs: IDLE_POLL_MS, queued: assembler.queued });
  const committer = createCommitter({ ...deps, leaseMs, putBack: assembler.putBack, onFailed: pacer.signal });
  const tip = await committer.loadTip();
  if (tip && tip.difficulty > options.difficulty) {
    log.warn(
      { configured: options.difficulty, tip: tip.difficulty },
      'CHAIN_DIFFICULTY is below the difficulty of the chain; new blocks keep the higher value',
    );
  }
  const coordinator = createJobCoordinator(deps);
  let stopping = false;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  // Served only while this instance appends: helpers reach the appender whichever instance it is.
  const served: ServedService = await deps.bus.serve({ name: 'chain-miner', version: deps.version }, [
    toEndpoint(workNext(coordinator), log, deps.metrics),
    toEndpoint(workFound(coordinator), log, deps.metrics),
  ]);
  const parts = { assembler, pacer, committer, coordinator };
  const loop = appendBlocks(
    { ...parts, log, options, clock: deps.clock, markReady, onLost: deps.onLost },
    () => stopping,
  );

  return {
    ready,
    accept(tx) {
      const queued = assembler.accept(tx);
      pacer.signal();
      if (queued >= maxBlockTx) pacer.queueFull();
    },
    withdraw: assembler.withdraw,
    drain: assembler.drain,
    wake() {
      assembler.tableChanged();
      pacer.signal();
    },
    renew: () => renewLease(db, instanceId, leaseMs, coordinator.figures()),
    async stop() {
      stopping = true;
      coordinator.stop();
      pacer.stop();
      await loop;
      await served.stop();
    },
  };
}

/** The parts the block loop drives, and what it tells its owner. */
interface LoopParts {
  assembler: Assembler;
  pacer: Pacer;
  committer: Committer;
  coordinator: JobCoordinator;
  log: Logger;
  clock: Clock;
  options: AppenderOptions;
  markReady: () => void;
  onLost: () => void;
}

/** Assembles and mines the block after `base` (none: genesis); undefined when stopped meanwhile. */
async function mineOn(parts: LoopParts, base: Block | undefined, contents: BlockContents): Promise<Mined | undefined> {
  const difficulty = Math.max(parts.options.difficulty, parts.committer.tip()?.difficulty ?? 0);
  const now = parts.clock.now().toISOString();
  const block = await parts.coordinator.mine(nextHeader({ base, txs: blockTransactions(contents), now, difficulty }));
  return block ? { block, ...contents } : undefined;
}

/** Reads the tip again; on an empty ledger, creates the genesis block (the appender is ready once it exists). */
async function findOrCreateTip(parts: LoopParts): Promise<void> {
  const { committer, log } = parts;
  await committer.settle();
  if (await committer.loadTip()) return;
  const genesis = await mineOn(parts, undefined, { fromTable: [], fromQueue: [] });
  if (genesis) {
    await committer.commit(genesis);
    log.info({ hash: genesis.block.hash }, 'genesis block created');
  }
}

/**
 * The block loop, until `stopped()`. Storing block N overlaps with mining block N+1 on top of it (its hash is
 * known once it is mined): a cycle costs the longer of the two, not their sum. If N is not stored, N+1 is
 * discarded too.
 */
async function appendBlocks(parts: LoopParts, stopped: () => boolean): Promise<void> {
  const { assembler, pacer, committer, log } = parts;
  while (!stopped()) {
    try {
      if (!committer.tip()) {
        await findOrCreateTip(parts);
        continue;
      }
      parts.markReady();
      if (!pacer.hasNews() && committer.storing()) {
        // Nothing to mine meanwhile: finish storing first.
        await committer.settle();
        continue;
      }
      await pacer.waitForBlock();
      if (stopped()) break;
      const contents = await assembler.take(committer.storing()?.fromTable);
      const size = contents.fromTable.length + contents.fromQueue.length;
      pacer.took(size, assembler.hasMore());
      if (size === 0) continue;
      const mined = await mineOn(parts, committer.head(), contents);
      if (!mined) {
        assembler.putBack(contents.fromQueue);
        continue;
      }
      await committer.settle([mined]);
      // The previous block failed: this one was mined on top of it and is void (recover put it back).
      const tip = committer.tip();
      if (tip === undefined || tip.hash !== mined.block.previousHash) {
        if (tip !== undefined) await committer.requeue(mined.fromQueue);
        continue;
      }
      committer.store(mined);
    } catch (err) {
      if (err instanceof LeaseLost) {
        log.warn('appender lease lost; another instance appends from now on');
        parts.onLost();
        break;
      }
      log.error({ err }, 'block loop failed');
      committer.forgetTip();
      pacer.signal();
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }
  await committer.settle().catch(() => {});
  parts.markReady();
}
