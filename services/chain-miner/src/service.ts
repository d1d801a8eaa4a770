import { fileURLToPath } from 'node:url';
import { type ServiceModule, withBase } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import { outbox } from './db/schema.js';
import { getStats, submitTx } from './handlers/tx.js';
import { createMiner } from './miner.js';

const ChainConfig = withBase({
  CHAIN_DIFFICULTY: Type.Integer({
    minimum: 0,
    maximum: 40,
    default: 16,
    description: 'Leading zero bits a block hash needs (16 ≈ 65,536 attempts per block)',
  }),
  CHAIN_MAX_BLOCK_TX: Type.Integer({ minimum: 1, maximum: 10_000, default: 1000 }),
  CHAIN_BATCH_DELAY_MS: Type.Integer({ minimum: 0, maximum: 1000, default: 2 }),
});

/** chain-miner: owns the ledger (mempool, block assembly, proof of work). */
export const service: ServiceModule<typeof ChainConfig> = {
  name: 'chain-miner',
  version: '0.1.0',
  config: ChainConfig,
  db: { schema: 'chain', migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)), outbox },
  async create(ctx) {
    const miner = createMiner({
      db: ctx.db,
      outbox: ctx.outbox,
      log: ctx.log,
      clock: ctx.clock,
      options: {
        difficulty: ctx.config.CHAIN_DIFFICULTY,
        maxBlockTx: ctx.config.CHAIN_MAX_BLOCK_TX,
        batchDelayMs: ctx.config.CHAIN_BATCH_DELAY_MS,
      },
    });
    // Genesis exists before the first submission can arrive, so block 0 never holds transactions.
    await miner.ensureGenesis();
    return {
      handlers: [submitTx(miner), getStats(ctx.db, miner)],
      subscribers: [],
      stop: () => miner.idle(),
    };
  },
};
