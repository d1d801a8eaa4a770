import { chainStatsGet, chainTxSubmit } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import { handle } from '@rootline/host';
import { countBlocks } from '../db/chain.repo.js';
import type { Miner } from '../miner.js';

/** chain.tx.submit: queue a transaction and answer once its block is mined. */
export const submitTx = (miner: Miner) => handle(chainTxSubmit, (input) => miner.submit(input.type, input.payload));

/** chain.stats.get: ledger length and difficulty. */
export const getStats = (db: Db, miner: Miner) =>
  handle(chainStatsGet, async () => ({ chainLength: await countBlocks(db), difficulty: miner.difficulty }));
