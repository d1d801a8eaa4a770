import { createHash } from 'node:crypto';
import type { ProofBundle } from '@rootline/contracts/transparency-public';
import { leafHash } from '@rootline/domain';
import { describe, expect, it } from 'vitest';
import { blockHeaderHash, bundleDigest, leadingZeroBits, ledgerProblems, plantFacts } from './peer-plant.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
type Block = ProofBundle['block'];

/** A block whose hash meets its difficulty: the nonce found by trying. */
function mined(b: Omit<Block, 'hash' | 'nonce'>): Block {
  for (let nonce = 0; ; nonce++) {
    const hash = blockHeaderHash({ ...b, nonce, hash: '' });
    if (leadingZeroBits(hash) >= b.difficulty) return { ...b, nonce, hash };
  }
}

const PLANT = 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD';
function bundle(payloadObject: Record<string, unknown> = { plantId: PLANT, commonName: 'Tomato', generation: 2 }) {
  const payload = JSON.stringify(payloadObject);
  const transaction = {
    id: 'tx_01HZX3K6Q2W8N4B7T5R9V0C1MD',
    type: 'plant.clone',
    payload,
    payloadHash: sha(payload),
    timestamp: '2026-11-29T10:00:00.000Z',
    position: 0,
  };
  const leaf = `${transaction.id}|${transaction.type}|${transaction.payloadHash}|${transaction.timestamp}`;
  const genesis = mined({
    index: 0,
    timestamp: '2026-11-29T09:00:00.000Z',
    previousHash: '0'.repeat(64),
    merkleRoot: sha('genesis'),
    difficulty: 6,
  });
  const block = mined({
    index: 1,
    timestamp: '2026-11-29T10:00:01.000Z',
    previousHash: genesis.hash,
    merkleRoot: leafHash(Buffer.from(leaf)).toString('hex'),
    difficulty: 6,
  });
  return {
    type: 'rootline.proof-bundle',
    version: 1,
    plantId: PLANT,
    transaction,
    ledgerProof: { leaf, leafIndex: 0, treeSize: 1, auditPath: [] },
    block,
    previousBlock: genesis,
    auditEntry: null,
    auditProof: null,
    checkpoint: null,
  } satisfies ProofBundle;
}

describe('the ledger half of a peer’s bundle', () => {
  it('refuses an audit entry about a record the transaction does not name, and takes one it names', () => {
    const about = (entity: string) =>
      ({ ...bundle(), auditEntry: { entity } as unknown as ProofBundle['auditEntry'] }) satisfies ProofBundle;
    expect(ledgerProblems(about(PLANT))).toEqual([]);
    expect(ledgerProblems(about('tev_01HZX3K6Q2W8N4B7T5R9V0C1MD'))).toEqual([
      'the audit entry is not of the transaction: the transaction does not name its record',
    ]);
  });

  it('verifies a transaction in a mined block that follows the block before', () => {
    expect(ledgerProblems(bundle())).toEqual([]);
  });

  it('finds a payload that is not the hashed one, a block without its work, a broken link', () => {
    const b = bundle();
    expect(ledgerProblems({ ...b, transaction: { ...b.transaction, payload: '{"plantId":"plt_other"}' } })).toContain(
      'the transaction’s payload does not hash to its hash',
    );
    // The same header with a nonce that does not meet the difficulty: its hash is right, its work is not.
    let weak = { ...b.block };
    for (let nonce = 0; ; nonce++) {
      const hash = blockHeaderHash({ ...b.block, nonce });
      if (leadingZeroBits(hash) < b.block.difficulty) {
        weak = { ...b.block, nonce, hash };
        break;
      }
    }
    expect(ledgerProblems({ ...b, block: weak })).toContain('block 1: its proof of work does not meet difficulty 6');
    expect(ledgerProblems({ ...b, block: { ...b.block, hash: 'f'.repeat(64) } })[0]).toMatch(/not in the block|hash/);
    expect(ledgerProblems({ ...b, previousBlock: null })).toContain(
      'the block names no block before it and is not the genesis block',
    );
  });

  it('gives the plant’s names and generation from the transaction, and a digest of the bundle as canonical JSON', () => {
    expect(plantFacts(bundle())).toEqual({ commonName: 'Tomato', scientificName: null, generation: 2 });
    expect(plantFacts(bundle({ plantId: PLANT, generation: -1 }))).toEqual({
      commonName: null,
      scientificName: null,
      generation: null,
    });
    const b = bundle();
    const reordered = Object.fromEntries(Object.entries(b).reverse()) as typeof b;
    expect(bundleDigest(reordered)).toBe(bundleDigest(b));
    expect(bundleDigest(b)).toMatch(/^[0-9a-f]{64}$/);
  });
});
