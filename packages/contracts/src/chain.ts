import { type Static, Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';
import { defineEvent, defineSubject } from './define.js';

export const TxReceipt = Type.Object({
  txId: Type.String(),
  blockIndex: Type.Integer({ minimum: 0 }),
  blockHash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  timestamp: Timestamp,
});
export type TxReceipt = Static<typeof TxReceipt>;

/** Submit one transaction; the reply comes once the block holding it is mined and stored. */
export const chainTxSubmit = defineSubject({
  subject: 'chain.tx.submit',
  request: Type.Object({
    type: Type.String({ minLength: 1, maxLength: 64, description: 'Transaction type, e.g. plant.register' }),
    payload: Type.Record(Type.String(), Type.Unknown()),
  }),
  reply: TxReceipt,
  summary: 'Submit a ledger transaction and wait for its block',
});

export const ChainStats = Type.Object({
  chainLength: Type.Integer({ minimum: 0 }),
  difficulty: Type.Integer({ minimum: 0 }),
});

export const chainStatsGet = defineSubject({
  subject: 'chain.stats.get',
  request: Type.Object({}),
  reply: ChainStats,
  summary: 'Length and difficulty of the ledger',
});

export const blockMined = defineEvent({
  subject: 'evt.chain.block.mined',
  payload: Type.Object({ index: Type.Integer(), hash: Type.String(), txCount: Type.Integer() }),
});
