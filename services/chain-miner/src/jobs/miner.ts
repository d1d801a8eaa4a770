import { hostname } from 'node:os';
import type { Bus } from '@rootline/bus';
import type { Db, Outbox } from '@rootline/db';
import type { Clock, Logger, ServiceContext, ServiceMetrics } from '@rootline/host';
import { acquireLease, releaseLease } from '../db/lease.repo.js';
import { BLOCK_CHANNEL, MEMPOOL_CHANNEL, notify } from '../db/notify.repo.js';
import { type AppenderOptions, type Appending, startAppending } from './appender/appender.js';
import { createHelper } from './helper.js';
import { type BlockNotice, createMempool } from './mempool.js';
import { createPowPool } from './mining/pow-pool.js';

export interface MinerOptions extends AppenderOptions {
  /** Proof-of-work threads of this instance. */
  threads: number;
  /** Nice value of the proof-of-work threads (0 normal, 19 lowest priority). */
  nice: number;
  /** How long the proof-of-work threads stay after the last search (default a minute). */
  threadsIdleMs?: number;
  /** How long a submitter waits for its block before the transaction is withdrawn (CHAIN_ERROR). */
  confirmTimeoutMs: number;
}

/**
 * One chain-miner instance. Every instance accepts submissions into the shared mempool and answers its own
 * submitters; exactly one, the holder of the appender lease, appends blocks; the others search nonce ranges of
 * the block being mined. Instances check the lease every quarter of its lifetime: the appender renews it, the
 * others take it over once it expires (the appender died) or is released (it stopped).
 */
export function createMiner(deps: {
  bus: Bus;
  db: Db;
  outbox: Outbox;
  /** LISTEN on the service's database (`ServiceContext.listen`). */
  listen: ServiceContext['listen'];
  log: Logger;
  clock: Clock;
  instanceId: string;
  version: string;
  options: MinerOptions;
  metrics: ServiceMetrics;
}) {
  const { db, log, options, instanceId, metrics } = deps;
  const processName = `${hostname()}/${process.pid}`;
  const pool = createPowPool(options.threads, log, options.nice, options.threadsIdleMs);
  let appending: Appending | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const unlisten: (() => Promise<void>)[] = [];

  const mempool = createMempool({
    db,
    log,
    clock: deps.clock,
    options: { confirmTimeoutMs: options.confirmTimeoutMs },
    // The appender of this instance is woken directly; another instance's through NOTIFY.
    onAdded: async () => {
      if (appending) appending.wake();
      else await notify(db, MEMPOOL_CHANNEL, '');
    },
  });
  const helper = createHelper({ bus: deps.bus, pool, log, clock: deps.clock, instanceId });
  metrics.gauge(
    { name: 'chain_mempool_waiting', help: 'Transactions submitted to this instance and waiting for their block' },
    () => [{ labels: {}, value: mempool.waiting() }],
  );
  metrics.gauge(
    {
      name: 'chain_pow_threads_running',
      help: 'Proof-of-work threads running now: all while mining and for CHAIN_MINER_IDLE_SECONDS after, else 0',
    },
    () => [{ labels: {}, value: pool.live() }],
  );
  // Hashes are counted at each lease check (every quarter of the lease), whatever the instance's role.
  const hashCounter = metrics.counter({
    name: 'chain_hashes_total',
    help: "Proof-of-work hashes computed by this instance's threads (appending or helping); rate() is its hash rate",
  });
  let hashesCounted = pool.hashes();
  const countHashes = () => {
    const now = pool.hashes();
    if (now > hashesCounted) hashCounter.inc(now - hashesCounted);
    hashesCounted = now;
  };

  // Role changes and lease checks run one at a time, in order.
  let serial: Promise<unknown> = Promise.resolve();
  const inOrder = (step: () => Promise<void>): Promise<void> => {
    const next = serial.then(step, step);
    serial = next.catch(() => {});
    return next;
  };

  async function becomeAppender(term: number): Promise<void> {
    helper.stop();
    try {
      appending = await startAppending({
        ...deps,
        pool,
        mempool,
        onLost: () => void inOrder(() => stepDown(false)),
      });
      mempool.setLocal(appending);
      log.info({ term, process: processName }, 'this instance appends blocks');
    } catch (err) {
      log.error({ err }, 'could not start appending; giving the lease up');
      await releaseLease(db, instanceId).catch(() => {});
      if (!stopped) helper.start();
    }
  }

  async function stepDown(release: boolean): Promise<void> {
    const current = appending;
    appending = undefined;
    mempool.setLocal(undefined);
    if (current) {
      await current.stop();
      await mempool.handOver(current.drain());
      if (release)
        await releaseLease(db, instanceId).catch((err: unknown) => log.warn({ err }, 'lease release failed'));
      log.info('this instance no longer appends blocks');
    }
    if (!stopped) helper.start();
  }

  async function checkLease(): Promise<void> {
    if (stopped) return;
    countHashes();
    if (appending) {
      const held = await appending.renew().catch((err: unknown) => {
        log.warn({ err }, 'lease renewal failed');
        return false;
      });
      if (!held) await stepDown(false);
      return;
    }
    const term = await acquireLease(db, instanceId, processName, options.leaseMs).catch((err: unknown) => {
      log.warn({ err }, 'lease check failed');
      return undefined;
    });
    if (term !== undefined) await becomeAppender(term);
  }

  return {
    /**
     * Listens for block and mempool notifications, tries the lease once (on an empty ledger the first appender
     * creates the genesis block before this resolves), then keeps checking it.
     */
    async start(): Promise<void> {
      const onBlock = (payload: string) => {
        let notice: BlockNotice;
        try {
          notice = JSON.parse(payload) as BlockNotice;
        } catch {
          return;
        }
        void mempool.onBlock(notice);
      };
      const wakeAppender = () => appending?.wake();
      unlisten.push(await deps.listen(BLOCK_CHANNEL, onBlock));
      // Listening again after a lost connection wakes the appender for what was added in the gap.
      unlisten.push(await deps.listen(MEMPOOL_CHANNEL, wakeAppender, wakeAppender));
      mempool.start();
      await inOrder(checkLease);
      if (!appending) helper.start();
      timer = setInterval(() => void inOrder(checkLease), Math.max(50, Math.floor(options.leaseMs / 4)));
      // Outside the lease checks, so the lease is renewed while a slow genesis block is mined.
      await appending?.ready;
    },

    submit: mempool.submit,
    submitMany: mempool.submitMany,

    /** Whether this instance holds the lease and appends. */
    isAppender(): boolean {
      return appending !== undefined;
    },

    /** Stops appending (releasing the lease, so another instance takes over at once) and helping. */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await inOrder(() => stepDown(true));
      helper.stop();
      await mempool.stop();
      await Promise.all(unlisten.map((u) => u().catch(() => {})));
      await pool.close();
    },
  };
}

export type Miner = ReturnType<typeof createMiner>;
