import { describe, expect, it } from 'vitest';
import {
  type Block,
  blockHash,
  GENESIS_PREVIOUS_HASH,
  makeTransaction,
  meetsDifficulty,
  searchNonce,
  transactionsRoot,
  verifyBlock,
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
