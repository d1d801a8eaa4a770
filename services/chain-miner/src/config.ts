import { withBase } from '@rootline/host';
import { Type } from '@sinclair/typebox';

/** Settings of chain-miner: the shared base settings plus difficulty, block size and pace, threads and lease. */
export const ChainConfig = withBase({
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
