import { createHash } from 'node:crypto';
import { leafHash, verifyInclusion } from '@rootline/domain';
import { describe, expect, it } from 'vitest';
import {
  type Block,
  blockHash,
  GENESIS_PREVIOUS_HASH,
  headerPrefix,
  makeTransaction,
  meetsDifficulty,
  searchNonce,
  transactionLeafText,
  transactionProof,
  transactionsRoot,
  verifyBlock,
  verifyBlocks,
} from './block.js';
import { canonicalJson } from './canonical-json.js';

const mine = (index: number, previousHash: string, txs: ReturnType<typeof makeTransaction>[]): Block => {
  const header = {
    index,
    timestamp: '2026-01-01T00:00:00.000Z',
    previousHash,
    merkleRoot: transactionsRoot(txs),
    difficulty: 8,
  };
  const found = searchNonce(header, 0, 1_000_000);
  if (!found) throw new Error('no nonce found');
  return { ...header, ...found };
};

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 'x' }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":"x","z":0}]},"b":1}',
    );
  });
  it('refuses non-finite numbers', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(/non-finite/);
  });
});

describe('meetsDifficulty', () => {
  it('counts leading zero bits, not just hex digits', () => {
    expect(meetsDifficulty(`0${'f'.repeat(63)}`, 4)).toBe(true);
    expect(meetsDifficulty(`0${'f'.repeat(63)}`, 5)).toBe(false);
    expect(meetsDifficulty(`07${'f'.repeat(62)}`, 5)).toBe(true);
    expect(meetsDifficulty(`08${'f'.repeat(62)}`, 5)).toBe(false);
    expect(meetsDifficulty('f'.repeat(64), 0)).toBe(true);
  });
});

describe('blocks', () => {
  const tx = makeTransaction(
    'tx_1',
    'plant.register',
    { plantId: 'plt_1', commonName: 'Basil' },
    '2026-01-01T00:00:00.000Z',
  );
  const genesis = mine(0, GENESIS_PREVIOUS_HASH, []);
  const next = mine(1, genesis.hash, [tx]);

  it('mines a hash that meets the difficulty and matches the header', () => {
    expect(meetsDifficulty(next.hash, 8)).toBe(true);
    expect(blockHash(next, next.nonce)).toBe(next.hash);
  });

  it('verifies a valid chain of two blocks', () => {
    expect(verifyBlock(genesis, [])).toEqual([]);
    expect(verifyBlock(next, [tx], genesis)).toEqual([]);
  });

  it('detects a tampered payload, a wrong link and a wrong nonce', () => {
    expect(verifyBlock(next, [{ ...tx, payload: tx.payload.replace('Basil', 'Mint') }], genesis)).toContain(
      'payload-hash-mismatch',
    );
    expect(verifyBlock(next, [tx], { ...genesis, hash: 'f'.repeat(64) })).toContain('broken-link');
    expect(verifyBlock({ ...next, nonce: next.nonce + 1 }, [tx], genesis)).toContain('hash-mismatch');
    expect(verifyBlock(next, [], genesis)).toContain('merkle-root-mismatch');
  });
});

describe('verifyBlocks and proofs of transactions', () => {
  const txs = Array.from({ length: 5 }, (_, i) =>
    makeTransaction(`tx_${i}`, 'test.tx', { i }, '2026-01-01T00:00:00.000Z'),
  );
  const genesis = mine(0, GENESIS_PREVIOUS_HASH, []);
  const b1 = mine(1, genesis.hash, txs.slice(0, 2));
  const b2 = mine(2, b1.hash, txs.slice(2));
  const chain = [
    { block: genesis, txs: [] },
    { block: b1, txs: txs.slice(0, 2) },
    { block: b2, txs: txs.slice(2) },
  ];

  it('accepts a valid chain, from genesis or from a known predecessor', () => {
    expect(verifyBlocks(chain)).toEqual([]);
    expect(verifyBlocks(chain.slice(1), genesis)).toEqual([]);
  });

  it('names the block that breaks: a missing predecessor, a gap, a re-mined block', () => {
    expect(verifyBlocks(chain.slice(1))).toEqual([{ index: 1, hash: b1.hash, problems: ['broken-link'] }]);
    expect(verifyBlocks([chain[0]!, chain[2]!])).toEqual([
      { index: 2, hash: b2.hash, problems: ['broken-link', 'index-gap'] },
    ]);
    // A block re-mined with other transactions is valid alone but no longer what its successor links to.
    const forged = mine(1, genesis.hash, txs.slice(0, 1));
    const failures = verifyBlocks([chain[0]!, { block: forged, txs: txs.slice(0, 1) }, chain[2]!]);
    expect(failures).toEqual([{ index: 2, hash: b2.hash, problems: ['broken-link'] }]);
  });

  it('refuses a block that claims less work than its predecessor', () => {
    const hard = { ...mine(1, genesis.hash, []), difficulty: 8 };
    const easyHeader = {
      index: 2,
      timestamp: '2026-01-01T00:00:00.000Z',
      previousHash: hard.hash,
      merkleRoot: transactionsRoot([]),
      difficulty: 0,
    };
    const easy = { ...easyHeader, nonce: 0, hash: blockHash(easyHeader, 0) };
    expect(verifyBlock(easy, [], hard)).toEqual(['difficulty-decreased']);
  });

  it('gives each transaction an audit path that leads to its block root', () => {
    for (let position = 0; position < 3; position++) {
      const { leafHash: leaf, auditPath } = transactionProof(txs.slice(2), position);
      expect(leaf).toBe(leafHash(Buffer.from(transactionLeafText(txs[2 + position]!))).toString('hex'));
      const path = auditPath.map((h) => Buffer.from(h, 'hex'));
      expect(verifyInclusion(position, 3, Buffer.from(leaf, 'hex'), path, Buffer.from(b2.merkleRoot, 'hex'))).toBe(
        true,
      );
    }
  });

  it('hashes the documented leaf text: id|type|payloadHash|timestamp', () => {
    const tx = txs[0]!;
    expect(transactionLeafText(tx)).toBe(`tx_0|test.tx|${tx.payloadHash}|2026-01-01T00:00:00.000Z`);
    expect(tx.payload).toBe('{"i":0}');
    expect(tx.payloadHash).toBe(createHash('sha256').update('{"i":0}').digest('hex'));
  });
});

describe('the header bytes', () => {
  it('are index|timestamp|previousHash|merkleRoot|difficulty|nonce, hashed once with SHA-256', () => {
    const header = {
      index: 1,
      timestamp: '2026-01-01T00:00:00.000Z',
      previousHash: 'a'.repeat(64),
      merkleRoot: 'b'.repeat(64),
      difficulty: 8,
    };
    expect(headerPrefix(header)).toBe(`1|2026-01-01T00:00:00.000Z|${'a'.repeat(64)}|${'b'.repeat(64)}|8|`);
    const text = `1|2026-01-01T00:00:00.000Z|${'a'.repeat(64)}|${'b'.repeat(64)}|8|42`;
    expect(blockHash(header, 42)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
  });

  it('searches nonces in order and finds the first that meets the difficulty', () => {
    const header = {
      index: 3,
      timestamp: '2026-01-01T00:00:00.000Z',
      previousHash: 'c'.repeat(64),
      merkleRoot: 'd'.repeat(64),
      difficulty: 6,
    };
    const found = searchNonce(header, 0, 100_000)!;
    for (let n = 0; n < found.nonce; n++) expect(meetsDifficulty(blockHash(header, n), 6)).toBe(false);
    expect(found.hash).toBe(blockHash(header, found.nonce));
    expect(searchNonce(header, 0, found.nonce)).toBeUndefined();
  });
});
