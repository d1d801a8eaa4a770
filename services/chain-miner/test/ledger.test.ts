import { createNatsBus } from '@rootline/bus';
import { chainStatsGet, chainTxSubmit } from '@rootline/contracts';
import { type Database, openDatabase } from '@rootline/db';
import { call, createLogger, type RunningService, startService } from '@rootline/host';
import { startTestInfra, type TestInfra } from '@rootline/testing';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, transactions } from '../src/db/schema.js';
import { type Block, verifyBlock } from '../src/domain/block.js';
import { service } from '../src/service.js';

describe('chain-miner on NATS and PostgreSQL', () => {
  let infra: TestInfra;
  let database: Database;
  let running: RunningService;
  let client: Awaited<ReturnType<typeof createNatsBus>>;
  const log = createLogger('test', 'silent');
  const ctx = { requestId: 'req_test' };

  beforeAll(async () => {
    infra = await startTestInfra();
    database = await openDatabase({ url: infra.pg.url, dataDir: '.' });
    const bus = await createNatsBus({ url: infra.nats.url, name: 'chain-miner' });
    running = await startService(service, { bus, database, log, env: { CHAIN_DIFFICULTY: '12' } });
    client = await createNatsBus({ url: infra.nats.url, name: 'test-client' });
  });

  afterAll(async () => {
    await client?.close();
    await running?.stop();
    await database?.close();
    await infra?.stop();
  });

  it('creates the genesis block at start and reports length and difficulty', async () => {
    const stats = await call(client, chainStatsGet, {}, ctx);
    expect(stats.difficulty).toBe(12);
    expect(stats.chainLength).toBeGreaterThanOrEqual(1);
  });

  it('batches concurrent submissions into shared blocks and answers each with its block', async () => {
    const receipts = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call(client, chainTxSubmit, { type: 'test.tx', payload: { i } }, ctx)),
    );
    const blockCount = new Set(receipts.map((r) => r.blockIndex)).size;
    expect(blockCount).toBeLessThan(60);
    for (const r of receipts) expect(r.blockHash).toMatch(/^000/); // 12 zero bits = 3 hex digits
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

  it('rejects an invalid submission with VALIDATION_ERROR', async () => {
    await expect(call(client, chainTxSubmit, { type: '', payload: {} } as never, ctx)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });
});
