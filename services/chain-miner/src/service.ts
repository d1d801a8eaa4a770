import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type ServiceModule, withBase } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import { outbox } from './db/schema.js';
import { getBlock, verifyLedger, verifyOneBlock } from './handlers/blocks.js';
import { getStats, getTxProof, submitTx, submitTxBatch } from './handlers/tx.js';
import { createMiner } from './miner.js';

const ChainConfig = withBase({
  CHAIN_DIFFICULTY: Type.Integer({
    minimum: 0,
    maximum: 40,
    default: 16,
    description: 'Leading zero bits a block hash needs (16 ≈ 65,536 attempts per block)',
  }),
  CHAIN_MAX_BLOCK_TX: Type.Integer({
    description: 'Most transactions in one block',
    minimum: 1,
    maximum: 10_000,
    default: 1000,
  }),
  CHAIN_BATCH_DELAY_MS: Type.Integer({
    description: 'How long a submission waits for others to share its block',
    minimum: 0,
    maximum: 1000,
    default: 2,
  }),
  CHAIN_BLOCK_INTERVAL_MS: Type.Integer({
    minimum: 0,
    maximum: 10_000,
    default: 100,
    description:
      'Under load, the shortest time between two blocks unless a full block (CHAIN_MAX_BLOCK_TX) is waiting; ' +
      'bounds the proof-of-work cost per second. A lone submitter does not wait for it; 0 turns it off',
  }),
  CHAIN_MINER_THREADS: Type.Integer({
    minimum: 0,
    maximum: 256,
    default: 0,
    description: 'Proof-of-work threads of one instance; 0 means one per CPU core',
  }),
  CHAIN_MINER_NICE: Type.Integer({
    minimum: 0,
    maximum: 19,
    default: 10,
    description: 'Scheduling priority (nice) of the proof-of-work threads: on a busy machine requests go first',
  }),
  CHAIN_MINER_IDLE_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 60,
    description:
      'Seconds the proof-of-work threads stay after the last search; an idle miner then holds none (each is some 10 MiB)',
  }),
  CHAIN_LEASE_MS: Type.Integer({
    minimum: 200,
    maximum: 60_000,
    default: 2000,
    description: 'Lifetime of the appender lease: how long a dead appender blocks the chain at most',
  }),
  CHAIN_CONFIRM_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 120_000,
    default: 4000,
    description: 'How long a submission waits for its block before it is withdrawn with CHAIN_ERROR',
  }),
});

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
