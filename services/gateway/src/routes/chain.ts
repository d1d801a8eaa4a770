import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  chainBlockGet,
  chainBlockVerify,
  chainLedgerVerify,
  chainStatsGet,
  chainTxProof,
  LEDGER_VERIFY_LIMITS,
} from '@rootline/contracts';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';

const TAGS = ['Ledger'];
const HOW_TO = 'docs/ledger.md describes the hashed bytes, so any of this can be re-checked independently.';

/** The proof-of-work ledger, read-only and public: auditors verify without an account. Under /api/chain. */
export const chainRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'GET',
    url: '/blocks/:hash',
    summary: 'Read a block and its transactions',
    description:
      'The block header (index, timestamp, previous hash, Merkle root, difficulty, nonce, hash) and its ' +
      `transactions in Merkle leaf order, each with its canonical payload and payload hash. ${HOW_TO}`,
    tags: TAGS,
    policy: { public: true, object: { rule: 'public', field: 'hash', record: 'block' } },
    subject: chainBlockGet,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/blocks/:hash/verify',
    summary: 'Verify a block',
    description:
      'Recomputes the block hash from its header, checks the proof of work (leading zero bits), the link to ' +
      'the stored predecessor (previous hash, height, difficulty not lower), the Merkle root of its ' +
      'transactions and every payload hash. `valid` is true when `problems` is empty; each problem names a ' +
      `failed check. ${HOW_TO}`,
    tags: TAGS,
    policy: { public: true, object: { rule: 'public', field: 'hash', record: 'block' } },
    subject: chainBlockVerify,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/verify',
    summary: 'Verify the chain',
    description:
      `Verifies up to \`limit\` blocks (default and maximum ${LEDGER_VERIFY_LIMITS.maxLimit}) from height \`from\` ` +
      '(default 0), each with every check of the single-block verification, the block before `from` included ' +
      `as the first predecessor. A range also ends once it holds ${LEDGER_VERIFY_LIMITS.maxTransactions} ` +
      'transactions, so a call stays cheap; `next` says where to continue and is null once the tip was ' +
      'reached. `invalidBlocks` lists only the blocks that failed.',
    tags: TAGS,
    policy: { public: true, object: { rule: 'none', why: 'the whole public ledger' } },
    subject: chainLedgerVerify,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/transactions/:txId/proof',
    summary: 'Inclusion proof of a transaction',
    description:
      'The RFC 6962 audit path of the transaction in its block: hash the leaf (SHA-256 of 0x00 and the leaf ' +
      'text), then combine it with each path element (SHA-256 of 0x01, left, right) as RFC 9162 §2.1.3.2 says, ' +
      `using leafIndex and treeSize; the result must equal merkleRoot, which the block hash covers. ${HOW_TO}`,
    tags: TAGS,
    policy: { public: true, object: { rule: 'public', field: 'txId', record: 'ledger transaction' } },
    subject: chainTxProof,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/stats',
    summary: 'Ledger statistics',
    description:
      'Chain length, difficulty (leading zero bits a new block hash needs: about 2^difficulty hashes per ' +
      'block), transactions recorded and waiting, and the instance that appends blocks with its recent hash ' +
      'rate (helpers included).',
    tags: TAGS,
    policy: { public: true, object: { rule: 'none', why: 'the whole public ledger' } },
    subject: chainStatsGet,
  });
};
