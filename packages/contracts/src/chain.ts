import { type Static, Type } from '@sinclair/typebox';
import { INT4_MAX, PrefixedId, Text, Timestamp } from './common.js';
import { Defaulted, defineEvent, defineSubject, Named } from './define.js';
import { ErrorBody } from './errors.js';

/** A SHA-256 digest as 64 lowercase hex digits (block hashes, Merkle roots, payload hashes). */
export const Sha256Hex = Type.String({
  pattern: '^[0-9a-f]{64}$',
  description: 'SHA-256 digest, 64 lowercase hex digits',
  examples: ['0000a3f1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e'],
});

export const TxId = PrefixedId('tx', 'Ledger transaction identifier');

/** The path parameter naming a block. */
const BlockHash = Type.Object({
  hash: Type.String({
    pattern: Sha256Hex.pattern,
    description: 'Block hash (64 lowercase hex digits)',
    examples: ['0000a3f1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e'],
  }),
});

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
    type: Text({ minLength: 1, maxLength: 64, description: 'Transaction type, e.g. plant.register' }),
    payload: Type.Record(Type.String(), Type.Unknown()),
    id: Type.Optional(
      PrefixedId(
        'tx',
        'Transaction id chosen by the submitter, so a retry names the same transaction: an id already in a block ' +
          'is answered with its receipt, one still waiting joins the same block. Fresh when absent.',
      ),
    ),
  }),
  reply: TxReceipt,
  summary: 'Submit a ledger transaction and wait for its block',
});

/** Most transactions one `chain.tx.submit-batch` request may carry. */
export const TX_BATCH_MAX = 1000;

/** One transaction's outcome in a batch: its receipt, or why it is certainly not recorded. */
export const TxBatchResult = Type.Union([
  Type.Object({ ok: Type.Literal(true), receipt: TxReceipt }),
  // The error a single submission would have been answered with, details (e.g. `recorded`) included.
  Type.Object({ ok: Type.Literal(false), error: ErrorBody }),
]);
export type TxBatchResult = Static<typeof TxBatchResult>;

/**
 * Submit several transactions in one message (a service recording many writes at once). Each is handled as
 * `chain.tx.submit` would handle it alone; the reply comes once every one is settled, with one result per
 * transaction in request order: a receipt, or the error a single submission would have got (its details say
 * whether the transaction is certainly not recorded). The transactions may land in different blocks.
 */
export const chainTxSubmitBatch = defineSubject({
  subject: 'chain.tx.submit-batch',
  request: Type.Object({
    transactions: Type.Array(chainTxSubmit.request, { minItems: 1, maxItems: TX_BATCH_MAX }),
  }),
  reply: Type.Object({ results: Type.Array(TxBatchResult) }),
  summary: 'Submit several ledger transactions and wait for their blocks',
});

/** A transaction as stored in its block: the exact strings that are hashed. */
export const LedgerTransaction = Named(
  'LedgerTransaction',
  Type.Object({
    id: Type.String({ description: 'Transaction id (`tx_…`)' }),
    position: Type.Integer({ minimum: 0, description: 'Place in the block: the Merkle leaf index' }),
    type: Type.String({ description: 'Transaction type, e.g. plant.register' }),
    payload: Type.String({ description: 'Canonical JSON of the payload: the exact bytes behind payloadHash' }),
    payloadHash: Sha256Hex,
    timestamp: Type.String({ description: 'ISO 8601 UTC time of submission, as hashed' }),
  }),
);
export type LedgerTransaction = Static<typeof LedgerTransaction>;

/** A block header with its proof of work. */
export const BlockSummary = Named(
  'BlockSummary',
  Type.Object({
    index: Type.Integer({ minimum: 0, description: 'Height; the genesis block is 0' }),
    hash: Sha256Hex,
    previousHash: Sha256Hex,
    merkleRoot: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'RFC 6962 root of the transactions' }),
    timestamp: Type.String({ description: 'ISO 8601 UTC time the block was assembled, as hashed' }),
    difficulty: Type.Integer({ minimum: 0, description: 'Leading zero bits the hash has to have' }),
    nonce: Type.Integer({ minimum: 0, description: 'Found by proof of work; hashed as a decimal number' }),
    txCount: Type.Integer({ minimum: 0 }),
  }),
);
export type BlockSummary = Static<typeof BlockSummary>;

export const BlockWithTransactions = Named(
  'Block',
  Type.Object({
    ...BlockSummary.properties,
    transactions: Type.Array(LedgerTransaction, { description: 'In block order (Merkle leaf order)' }),
  }),
);
export type BlockWithTransactions = Static<typeof BlockWithTransactions>;

export const chainBlockGet = defineSubject({
  subject: 'chain.block.get',
  request: BlockHash,
  reply: BlockWithTransactions,
  summary: 'Read one block and its transactions by hash',
});

/** What block verification can find wrong, one code per check. */
export const BLOCK_PROBLEMS = [
  'hash-mismatch',
  'insufficient-work',
  'difficulty-decreased',
  'merkle-root-mismatch',
  'payload-hash-mismatch',
  'broken-link',
  'index-gap',
] as const;
export type BlockProblem = (typeof BLOCK_PROBLEMS)[number];
export const BlockProblemSchema = Type.Union(
  BLOCK_PROBLEMS.map((p) => Type.Literal(p)),
  { description: 'A failed check (see docs/ledger.md)' },
);

export const BlockVerification = Named(
  'BlockVerification',
  Type.Object({
    index: Type.Integer({ minimum: 0 }),
    hash: Sha256Hex,
    valid: Type.Boolean(),
    problems: Type.Array(BlockProblemSchema),
  }),
);
export type BlockVerification = Static<typeof BlockVerification>;

export const chainBlockVerify = defineSubject({
  subject: 'chain.block.verify',
  request: BlockHash,
  reply: BlockVerification,
  summary: 'Verify one block: hash, proof of work, link to its predecessor, Merkle root, payload hashes',
});

/** Most blocks one whole-chain verification call checks, and the default. */
export const LEDGER_VERIFY_LIMITS = { defaultLimit: 1000, maxLimit: 1000, maxTransactions: 50_000 } as const;

export const LedgerVerifyQuery = Type.Object({
  from: Defaulted(
    Type.Integer({
      minimum: 0,
      maximum: INT4_MAX,
      default: 0,
      description: 'Height of the first block to check (default 0, genesis)',
    }),
  ),
  limit: Defaulted(
    Type.Integer({
      minimum: 1,
      maximum: LEDGER_VERIFY_LIMITS.maxLimit,
      default: LEDGER_VERIFY_LIMITS.defaultLimit,
      description:
        `Most blocks to check (default and maximum ${LEDGER_VERIFY_LIMITS.maxLimit}); a range also ends once ` +
        `${LEDGER_VERIFY_LIMITS.maxTransactions} transactions are loaded. Continue from \`next\`.`,
    }),
  ),
});
export type LedgerVerifyQuery = Static<typeof LedgerVerifyQuery>;

export const LedgerVerification = Named(
  'LedgerVerification',
  Type.Object({
    valid: Type.Boolean({ description: 'True when every block in the range passed every check' }),
    from: Type.Integer({ minimum: 0 }),
    to: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'Last height checked; null if none' }),
    checkedBlocks: Type.Integer({ minimum: 0 }),
    checkedTransactions: Type.Integer({ minimum: 0 }),
    tipIndex: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'Height of the newest block' }),
    next: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'Where to continue (`from`) to verify further; null once the range reached the tip',
    }),
    invalidBlocks: Type.Array(BlockVerification, { description: 'Only the blocks that failed a check' }),
  }),
);
export type LedgerVerification = Static<typeof LedgerVerification>;

export const chainLedgerVerify = defineSubject({
  subject: 'chain.ledger.verify',
  request: LedgerVerifyQuery,
  reply: LedgerVerification,
  summary: 'Verify a range of the chain block by block, links included',
});

export const InclusionProof = Named(
  'InclusionProof',
  Type.Object({
    txId: Type.String(),
    blockIndex: Type.Integer({ minimum: 0 }),
    blockHash: Sha256Hex,
    merkleRoot: Sha256Hex,
    leafIndex: Type.Integer({ minimum: 0, description: 'Position of the transaction in its block' }),
    treeSize: Type.Integer({ minimum: 1, description: 'Transactions in the block' }),
    leaf: Type.String({ description: 'The leaf data: `id|type|payloadHash|timestamp` (UTF-8)' }),
    leafHash: Sha256Hex,
    auditPath: Type.Array(Sha256Hex, { description: 'RFC 6962 audit path, from the leaf up' }),
  }),
);
export type InclusionProof = Static<typeof InclusionProof>;

export const chainTxProof = defineSubject({
  subject: 'chain.tx.proof',
  request: Type.Object({ txId: TxId }),
  reply: InclusionProof,
  summary: 'RFC 6962 inclusion proof of a transaction in its block',
});

export const ChainStats = Named(
  'ChainStats',
  Type.Object({
    chainLength: Type.Integer({ minimum: 0, description: 'Blocks, genesis included' }),
    difficulty: Type.Integer({
      minimum: 0,
      description: 'Leading zero bits a new block hash needs (each bit doubles the expected work: 2^difficulty hashes)',
    }),
    tip: Type.Union([Type.Object({ index: Type.Integer({ minimum: 0 }), hash: Sha256Hex }), Type.Null()]),
    transactions: Type.Integer({ minimum: 0, description: 'Transactions recorded in blocks' }),
    mempool: Type.Integer({ minimum: 0, description: 'Transactions accepted and waiting for a block' }),
    appender: Type.Union(
      [
        Type.Object({
          instance: Type.String({ description: 'Instance that appends blocks (holds the appender lease)' }),
          process: Type.String({ description: 'host/pid of that instance' }),
          term: Type.Integer({ minimum: 1, description: 'Lease term; grows by one at each failover' }),
          since: Timestamp,
          hashes: Type.Integer({ minimum: 0, description: 'Hashes searched in this term, helpers included' }),
          hashRate: Type.Number({ minimum: 0, description: 'Hashes per second lately, helpers included' }),
          helpers: Type.Integer({ minimum: 0, description: 'Other instances searching nonce ranges lately' }),
        }),
        Type.Null(),
      ],
      { description: 'The current appender; null while none holds the lease' },
    ),
  }),
);
export type ChainStats = Static<typeof ChainStats>;

export const chainStatsGet = defineSubject({
  subject: 'chain.stats.get',
  request: Type.Object({}),
  reply: ChainStats,
  summary: 'Length, difficulty, mempool and appender of the ledger',
});

/** A nonce range of the block being mined, handed to a helping instance. */
export const MiningJob = Type.Object({
  id: Type.String({ description: 'Job id; changes with every header' }),
  prefix: Type.String({ description: 'Header bytes before the nonce' }),
  difficulty: Type.Integer({ minimum: 0 }),
  start: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  end: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Exclusive' }),
});
export type MiningJob = Static<typeof MiningJob>;

/**
 * Internal, served by the appender only: a helper asks for work (long poll). `after` is the job it is on; the
 * reply is a new job (with a fresh, disjoint range), `same` (keep going) or `none` (stop: nothing to mine).
 */
export const chainWorkNext = defineSubject({
  subject: 'chain.work.next',
  request: Type.Object({
    instance: Text({ minLength: 1, maxLength: 100 }),
    after: Type.Union([Text({ minLength: 1, maxLength: 200 }), Type.Null()]),
    hashes: Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Hashes searched since the previous request',
    }),
    waitMs: Type.Integer({ minimum: 0, maximum: 10_000 }),
  }),
  reply: Type.Union([
    Type.Object({ status: Type.Literal('job'), job: MiningJob }),
    Type.Object({ status: Type.Literal('same') }),
    Type.Object({ status: Type.Literal('none') }),
  ]),
  summary: 'Long poll for a nonce range of the block being mined',
});

/** Internal, served by the appender only: a helper reports a nonce; the appender verifies it before use. */
export const chainWorkFound = defineSubject({
  subject: 'chain.work.found',
  request: Type.Object({
    jobId: Text({ minLength: 1, maxLength: 200 }),
    nonce: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  }),
  reply: Type.Object({ accepted: Type.Boolean() }),
  summary: 'Report a nonce that solves a mining job',
});

export const blockMined = defineEvent({
  subject: 'evt.chain.block.mined',
  payload: Type.Object({ index: Type.Integer(), hash: Type.String(), txCount: Type.Integer() }),
});
