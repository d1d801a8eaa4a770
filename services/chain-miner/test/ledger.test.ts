import { createHash } from 'node:crypto';
import { createNatsBus } from '@rootline/bus';
import { chainStatsGet, chainTxProof, chainTxSubmit, chainTxSubmitBatch, newId } from '@rootline/contracts';
import { type Database, migrateSchema, openDatabase } from '@rootline/db';
import { verifyInclusion } from '@rootline/domain';
import { call, createLogger, type RunningService, startService } from '@rootline/host';
import { startTestInfra, type TestInfra } from '@rootline/testing';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appenderLease, blocks, mempool, transactions } from '../src/db/schema.js';
import { type Block, verifyBlock } from '../src/domain/block.js';
import { service } from '../src/service.js';

const log = createLogger('test', 'silent');
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const ctx = { requestId: 'req_test' };
const hexes = (h: string[]) => h.map((x) => Buffer.from(x, 'hex'));

describe('chain-miner on NATS and PostgreSQL', () => {
  let infra: TestInfra;
  let database: Database;
  let running: RunningService;
  let client: Awaited<ReturnType<typeof createNatsBus>>;

  beforeAll(async () => {
    infra = await startTestInfra();
    database = await openDatabase({ url: infra.pg.url, dataDir: '.' });
    const bus = await createNatsBus({ url: infra.nats.url, name: 'chain-miner', log: quiet });
    running = await startService(service, {
      bus,
      database,
      log,
      env: { CHAIN_DIFFICULTY: '12', CHAIN_CONFIRM_TIMEOUT_MS: '1500' },
    });
    client = await createNatsBus({ url: infra.nats.url, name: 'test-client', log: quiet });
  });

  afterAll(async () => {
    await client?.close();
    await running?.stop();
    await database?.close();
    await infra?.stop();
  });

  it('creates the genesis block at start and reports length, difficulty and its appender', async () => {
    const stats = await call(client, chainStatsGet, {}, ctx);
    expect(stats.difficulty).toBe(12);
    expect(stats.chainLength).toBeGreaterThanOrEqual(1);
    expect(stats.appender).toMatchObject({
      instance: running.instanceId,
      term: 1,
      process: expect.stringMatching(/\//),
    });
    const [genesis] = await database.db.select().from(blocks).where(eq(blocks.index, 0));
    expect(genesis).toMatchObject({ previousHash: '0'.repeat(64), txCount: 0 });
  });

  it('batches concurrent submissions into shared blocks and answers each with the block that holds it', async () => {
    const receipts = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call(client, chainTxSubmit, { type: 'test.tx', payload: { i } }, ctx)),
    );
    const blockCount = new Set(receipts.map((r) => r.blockIndex)).size;
    expect(blockCount).toBeLessThan(60);
    for (const r of receipts) {
      expect(r.blockHash).toMatch(/^000/); // 12 zero bits = 3 hex digits
      const [row] = await database.db.select().from(transactions).where(eq(transactions.id, r.txId));
      expect(row?.blockIndex, r.txId).toBe(r.blockIndex);
    }
    const [pending] = await database.db.select({ n: sql<number>`count(*)::int` }).from(mempool);
    expect(pending?.n).toBe(0);
    const [recorded] = await database.db.select({ n: sql<number>`count(*)::int` }).from(transactions);
    const stats = await call(client, chainStatsGet, {}, ctx);
    expect(stats.transactions).toBe(recorded?.n);
    expect(stats.mempool).toBe(0);
  });

  it('stores a chain that verifies block by block', async () => {
    const rows = await database.db.select().from(blocks).orderBy(asc(blocks.index));
    const txs = await database.db
      .select()
      .from(transactions)
      .orderBy(asc(transactions.blockIndex), asc(transactions.position));
    let previous: Block | undefined;
    for (const row of rows) {
      const own = txs.filter((t) => t.blockIndex === row.index);
      expect(verifyBlock(row, own, previous), `block ${row.index}`).toEqual([]);
      previous = row;
    }
    expect(rows[0]?.index).toBe(0);
    expect(rows.at(-1)?.index).toBe(rows.length - 1); // no gaps
  });

  it('proves a transaction is in its block with an RFC 6962 audit path', async () => {
    const receipt = await call(client, chainTxSubmit, { type: 'test.proof', payload: { n: 1 } }, ctx);
    const proof = await call(client, chainTxProof, { txId: receipt.txId }, ctx);
    expect(proof).toMatchObject({ txId: receipt.txId, blockIndex: receipt.blockIndex, blockHash: receipt.blockHash });
    expect(proof.leaf.startsWith(`${receipt.txId}|test.proof|`)).toBe(true);
    const ok = verifyInclusion(
      proof.leafIndex,
      proof.treeSize,
      Buffer.from(proof.leafHash, 'hex'),
      hexes(proof.auditPath),
      Buffer.from(proof.merkleRoot, 'hex'),
    );
    expect(ok).toBe(true);
    await expect(call(client, chainTxProof, { txId: 'tx_01HZX3K6Q2W8N4B7T5R9V0C1MD' }, ctx)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('records a chosen transaction id once: concurrent and later submissions get the same receipt', async () => {
    const id = newId('tx', Date.now());
    const submit = () => call(client, chainTxSubmit, { type: 'test.tx', payload: { once: true }, id }, ctx);
    const [a, b] = await Promise.all([submit(), submit()]);
    expect(a.txId).toBe(id);
    expect(b).toEqual(a);
    // After its block: answered from the chain, in a batch beside a new one, and never recorded again.
    const { results } = await call(
      client,
      chainTxSubmitBatch,
      {
        transactions: [
          { type: 'test.tx', payload: { once: 'again' }, id },
          { type: 'test.tx', payload: { fresh: true } },
        ],
      },
      ctx,
    );
    expect(results[0]).toEqual({ ok: true, receipt: a });
    expect(results[1]).toMatchObject({ ok: true });
    const rows = await database.db.select().from(transactions).where(eq(transactions.id, id));
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.payload)).toEqual({ once: true });
  });

  it('keeps a chosen id once when it already waits in the mempool table', async () => {
    const id = newId('tx', Date.now());
    // Another instance's submission of the same id, waiting in the table.
    await database.db.insert(mempool).values({
      id,
      type: 'test.tx',
      payload: '{"table":true}',
      payloadHash: createHash('sha256').update('{"table":true}').digest('hex'),
      timestamp: new Date().toISOString(),
    });
    const receipt = await call(client, chainTxSubmit, { type: 'test.tx', payload: { table: true }, id }, ctx);
    expect(receipt.txId).toBe(id);
    // The table's copy is dropped (at the latest when a block trying it meets the stored one), never mined twice.
    await expect
      .poll(async () => database.db.select().from(mempool).where(eq(mempool.id, id)), { timeout: 5000 })
      .toEqual([]);
    await call(client, chainTxSubmit, { type: 'test.tx', payload: { after: true } }, ctx);
    expect(await database.db.select().from(transactions).where(eq(transactions.id, id))).toHaveLength(1);
  });

  it('rejects an invalid submission with VALIDATION_ERROR', async () => {
    await expect(call(client, chainTxSubmit, { type: '', payload: {} } as never, ctx)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });

  it('answers CHAIN_ERROR, recorded: false, when no block can be stored, and recovers', async () => {
    await database.db.execute(sql`alter table chain.transactions rename to transactions_away`);
    try {
      const err = await call(client, chainTxSubmit, { type: 'test.tx', payload: { lost: true } }, ctx).catch((e) => e);
      expect(err).toMatchObject({ code: 'CHAIN_ERROR', details: { recorded: false } });
    } finally {
      await database.db.execute(sql`alter table chain.transactions_away rename to transactions`);
    }
    const receipt = await call(client, chainTxSubmit, { type: 'test.tx', payload: { back: true } }, ctx);
    expect(receipt.blockIndex).toBeGreaterThan(0);
  });
});

describe('chain-miner without an appender', () => {
  let infra: TestInfra;
  let database: Database;
  let running: RunningService;
  let client: Awaited<ReturnType<typeof createNatsBus>>;

  beforeAll(async () => {
    infra = await startTestInfra();
    database = await openDatabase({ url: infra.pg.url, dataDir: '.' });
    await migrateSchema(database, { schema: 'chain', migrationsFolder: service.db!.migrationsFolder });
    // Another instance holds the lease and never appends (it hangs): nothing can be mined.
    await database.db.insert(appenderLease).values({
      name: 'appender',
      holder: 'ghost',
      process: 'elsewhere/1',
      term: 7,
      acquiredAt: sql`now()`,
      expiresAt: sql`now() + interval '1 hour'`,
    });
    const bus = await createNatsBus({ url: infra.nats.url, name: 'chain-miner', log: quiet });
    running = await startService(service, {
      bus,
      database,
      log,
      env: { CHAIN_DIFFICULTY: '8', CHAIN_CONFIRM_TIMEOUT_MS: '400', CHAIN_LEASE_MS: '400' },
    });
    client = await createNatsBus({ url: infra.nats.url, name: 'test-client', log: quiet });
  });

  afterAll(async () => {
    await client?.close();
    await running?.stop();
    await database?.close();
    await infra?.stop();
  });

  it('withdraws a transaction no block records in time and answers CHAIN_ERROR, never recording it', async () => {
    const err = await call(client, chainTxSubmit, { type: 'test.tx', payload: { late: true } }, ctx).catch((e) => e);
    expect(err).toMatchObject({ code: 'CHAIN_ERROR', details: { recorded: false } });
    const txId = (err.details as { txId: string }).txId;
    expect(await database.db.select().from(mempool).where(eq(mempool.id, txId))).toEqual([]);
    expect(await database.db.select().from(transactions).where(eq(transactions.id, txId))).toEqual([]);
  });

  it('withdraws a chosen id in time but answers recorded: unknown, since another submitter may hold it', async () => {
    const id = newId('tx', Date.now());
    const err = await call(client, chainTxSubmit, { type: 'test.tx', payload: { late: true }, id }, ctx).catch(
      (e) => e,
    );
    expect(err).toMatchObject({ code: 'CHAIN_ERROR', details: { txId: id, recorded: 'unknown' } });
    expect(await database.db.select().from(mempool).where(eq(mempool.id, id))).toEqual([]);
  });

  it('answers CHAIN_ERROR at once, recorded: false, when the mempool cannot be written', async () => {
    await database.db.execute(sql`alter table chain.mempool rename to mempool_away`);
    try {
      const started = Date.now();
      const err = await call(client, chainTxSubmit, { type: 'test.tx', payload: { lost: true } }, ctx).catch((e) => e);
      expect(err).toMatchObject({ code: 'CHAIN_ERROR', details: { recorded: false } });
      expect(Date.now() - started).toBeLessThan(400); // not the confirmation timeout: the insert failed
    } finally {
      await database.db.execute(sql`alter table chain.mempool_away rename to mempool`);
    }
  });

  it('takes the lease over once it expires and records from then on, genesis first', async () => {
    await database.db.update(appenderLease).set({ expiresAt: sql`now() - interval '1 second'` });
    await expect
      .poll(async () => (await call(client, chainStatsGet, {}, ctx)).appender?.instance, { timeout: 5000 })
      .toBe(running.instanceId);
    const stats = await call(client, chainStatsGet, {}, ctx);
    expect(stats.appender?.term).toBe(8);
    const receipt = await call(client, chainTxSubmit, { type: 'test.tx', payload: { n: 2 } }, ctx);
    expect(receipt.blockIndex).toBe(1);
  });
});
