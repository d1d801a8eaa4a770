import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ServiceModule } from '@rootline/host';
import { ChainConfig } from './config.js';
import { outbox } from './db/schema.js';
import { getBlock, verifyLedger, verifyOneBlock } from './handlers/blocks.js';
import { getStats, getTxProof, submitTx, submitTxBatch } from './handlers/tx.js';
import { createMiner } from './jobs/miner.js';

/** chain-miner: owns the ledger (mempool, block assembly, proof of work, verification, inclusion proofs). */
export const service: ServiceModule<typeof ChainConfig> = {
  name: 'chain-miner',
  version: '0.1.0',
  config: ChainConfig,
  db: { schema: 'chain', migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)), outbox },
  async create(ctx) {
    if (ctx.config.CHAIN_BLOCK_INTERVAL_MS >= ctx.config.CHAIN_CONFIRM_TIMEOUT_MS) {
      ctx.log.warn(
        { interval: ctx.config.CHAIN_BLOCK_INTERVAL_MS, confirmTimeout: ctx.config.CHAIN_CONFIRM_TIMEOUT_MS },
        'CHAIN_BLOCK_INTERVAL_MS is not below CHAIN_CONFIRM_TIMEOUT_MS: under load, submissions may be withdrawn before their block',
      );
    }
    const miner = createMiner({
      bus: ctx.bus,
      db: ctx.db,
      outbox: ctx.outbox,
      listen: ctx.listen,
      log: ctx.log,
      clock: ctx.clock,
      instanceId: ctx.instanceId,
      metrics: ctx.metrics,
      version: service.version,
      options: {
        difficulty: ctx.config.CHAIN_DIFFICULTY,
        maxBlockTx: ctx.config.CHAIN_MAX_BLOCK_TX,
        batchDelayMs: ctx.config.CHAIN_BATCH_DELAY_MS,
        blockIntervalMs: ctx.config.CHAIN_BLOCK_INTERVAL_MS,
        threads: ctx.config.CHAIN_MINER_THREADS || availableParallelism(),
        nice: ctx.config.CHAIN_MINER_NICE,
        threadsIdleMs: ctx.config.CHAIN_MINER_IDLE_SECONDS * 1000,
        leaseMs: ctx.config.CHAIN_LEASE_MS,
        confirmTimeoutMs: ctx.config.CHAIN_CONFIRM_TIMEOUT_MS,
      },
    });
    // On an empty ledger the first instance creates the genesis block here, before any submission can arrive.
    await miner.start();
    return {
      handlers: [
        submitTx(miner),
        submitTxBatch(miner),
        getStats(ctx.db, ctx.config.CHAIN_DIFFICULTY),
        getTxProof(ctx.db),
        getBlock(ctx.db),
        verifyOneBlock(ctx.db),
        verifyLedger(ctx.db),
      ],
      subscribers: [],
      stop: () => miner.stop(),
    };
  },
};
