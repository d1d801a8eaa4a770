import { service as chainMiner } from '@rootline/chain-miner';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { blockHeaderHash, leafHashOf, plantInput, rootFromProof, sha256 } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const UNKNOWN_HASH = 'ab'.repeat(32);

describe('the ledger over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  const registered: { plantId: string; blockHash: string; txId: string }[] = [];

  beforeAll(async () => {
    p = await startTestPlatform([chainMiner, plants], { CHAIN_DIFFICULTY: '8' });
    // Concurrent registrations share blocks, so proofs have real paths.
    const created = await Promise.all(
      Array.from({ length: 12 }, () => p.http('POST', '/api/plants/register', { role: 'GROWER', body: plantInput() })),
    );
    for (const c of created) {
      expect(c.status).toBe(201);
      const plant = await p.http('GET', `/api/plants/${c.body.data.id}`, { role: 'USER' });
      registered.push({ plantId: c.body.data.id, blockHash: c.body.data.blockHash, txId: plant.body.data.block.txId });
    }
  });
  afterAll(async () => p?.stop());

  it('reports network statistics without an account', async () => {
    const res = await p.http('GET', '/api/chain/stats');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ difficulty: 8, mempool: 0, appender: { term: 1 } });
    expect(res.body.data.chainLength).toBeGreaterThanOrEqual(2);
    expect(res.body.data.transactions).toBeGreaterThanOrEqual(12);
    expect(res.body.data.tip.index).toBe(res.body.data.chainLength - 1);
  });

  it('serves a block whose hash, payload hashes and link an outsider can recompute', async () => {
    const { blockHash, txId, plantId } = registered[0]!;
    const res = await p.http('GET', `/api/chain/blocks/${blockHash}`);
    expect(res.status).toBe(200);
    const block = res.body.data;
    expect(blockHeaderHash(block)).toBe(blockHash);
    expect(block.hash.startsWith('00')).toBe(true); // 8 leading zero bits
    const tx = block.transactions.find((t: { id: string }) => t.id === txId);
    expect(tx).toMatchObject({ type: 'plant.register' });
    expect(JSON.parse(tx.payload)).toMatchObject({ plantId });
    for (const t of block.transactions) expect(sha256(t.payload).toString('hex')).toBe(t.payloadHash);
    expect(block.txCount).toBe(block.transactions.length);
    const previous = await p.http('GET', `/api/chain/blocks/${block.previousHash}`);
    expect(previous.body.data.index).toBe(block.index - 1);
  });

  it('verifies a block', async () => {
    const res = await p.http('GET', `/api/chain/blocks/${registered[0]!.blockHash}/verify`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      index: expect.any(Number),
      hash: registered[0]!.blockHash,
      valid: true,
      problems: [],
    });
  });

  it('gives an inclusion proof per transaction that leads to the root its block hash covers', async () => {
    for (const { txId, blockHash } of registered) {
      const res = await p.http('GET', `/api/chain/transactions/${txId}/proof`);
      expect(res.status).toBe(200);
      const proof = res.body.data;
      expect(proof).toMatchObject({ txId, blockHash });
      expect(proof.leaf.split('|')).toHaveLength(4);
      const leafHash = leafHashOf(proof.leaf);
      expect(leafHash.toString('hex')).toBe(proof.leafHash);
      const path = proof.auditPath.map((h: string) => Buffer.from(h, 'hex'));
      expect(rootFromProof(proof.leafIndex, proof.treeSize, leafHash, path)).toBe(proof.merkleRoot);
      const block = (await p.http('GET', `/api/chain/blocks/${blockHash}`)).body.data;
      expect(block.merkleRoot).toBe(proof.merkleRoot);
      expect(block.transactions).toHaveLength(proof.treeSize);
    }
  });

  it('verifies the whole chain, and a bounded range with where to continue', async () => {
    const stats = (await p.http('GET', '/api/chain/stats')).body.data;
    const all = await p.http('GET', '/api/chain/verify');
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({
      valid: true,
      from: 0,
      to: stats.tip.index,
      checkedBlocks: stats.chainLength,
      tipIndex: stats.tip.index,
      next: null,
      invalidBlocks: [],
    });
    const part = await p.http('GET', '/api/chain/verify?from=1&limit=1');
    expect(part.body.data).toMatchObject({ valid: true, from: 1, to: 1, checkedBlocks: 1 });
    expect(part.body.data.next).toBe(stats.tip.index > 1 ? 2 : null);
  });

  it('answers 404 NOT_FOUND for an unknown block or transaction', async () => {
    for (const url of [
      `/api/chain/blocks/${UNKNOWN_HASH}`,
      `/api/chain/blocks/${UNKNOWN_HASH}/verify`,
      '/api/chain/transactions/tx_01HZX3K6Q2W8N4B7T5R9V0C1MD/proof',
    ]) {
      const res = await p.http('GET', url);
      expect(res.status, url).toBe(404);
      expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'NOT_FOUND' } });
    }
  });

  it('answers 400 VALIDATION_ERROR naming the field for malformed input', async () => {
    const cases: [string, string][] = [
      ['/api/chain/blocks/not-a-hash', 'params/hash'],
      [`/api/chain/blocks/${'AB'.repeat(32)}/verify`, 'params/hash'],
      ['/api/chain/transactions/plt_01HZX3K6Q2W8N4B7T5R9V0C1MD/proof', 'params/txId'],
      ['/api/chain/verify?limit=0', 'querystring/limit'],
      ['/api/chain/verify?limit=1001', 'querystring/limit'],
      ['/api/chain/verify?from=-1', 'querystring/from'],
      ['/api/chain/verify?from=abc', 'querystring/from'],
    ];
    for (const [url, field] of cases) {
      const res = await p.http('GET', url);
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe('VALIDATION_ERROR');
      expect(res.body.error.message, url).toContain(field);
    }
  });

  it('names what was tampered with: a payload, then its hash too, then a nonce', async () => {
    const { blockHash, txId } = registered[0]!;
    const db = p.database.db;
    const [original] = (await db.execute(
      sql`select payload, payload_hash from chain.transactions where id = ${txId}`,
    )) as unknown as { payload: string; payload_hash: string }[];
    const forged = original!.payload.replace(/"commonName":"[^"]*"/, '"commonName":"Forged"');
    const verify = async () => (await p.http('GET', `/api/chain/blocks/${blockHash}/verify`)).body.data;
    try {
      await db.execute(sql`update chain.transactions set payload = ${forged} where id = ${txId}`);
      expect(await verify()).toMatchObject({ valid: false, problems: ['payload-hash-mismatch'] });
      const chain = (await p.http('GET', '/api/chain/verify')).body.data;
      expect(chain.valid).toBe(false);
      expect(chain.invalidBlocks).toEqual([
        expect.objectContaining({ hash: blockHash, problems: ['payload-hash-mismatch'] }),
      ]);

      const forgedHash = sha256(forged).toString('hex');
      await db.execute(sql`update chain.transactions set payload_hash = ${forgedHash} where id = ${txId}`);
      expect(await verify()).toMatchObject({ valid: false, problems: ['merkle-root-mismatch'] });
    } finally {
      await db.execute(
        sql`update chain.transactions set payload = ${original!.payload}, payload_hash = ${original!.payload_hash} where id = ${txId}`,
      );
    }
    expect(await verify()).toMatchObject({ valid: true, problems: [] });

    try {
      await db.execute(sql`update chain.blocks set nonce = nonce + 1 where hash = ${blockHash}`);
      expect((await verify()).problems).toContain('hash-mismatch');
    } finally {
      await db.execute(sql`update chain.blocks set nonce = nonce - 1 where hash = ${blockHash}`);
    }
    expect((await p.http('GET', '/api/chain/verify')).body.data.valid).toBe(true);
  });
});
