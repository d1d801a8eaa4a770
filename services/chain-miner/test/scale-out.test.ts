import { type Bus, createNatsBus } from '@rootline/bus';
import { chainLedgerVerify, chainStatsGet, chainTxSubmit, type TxReceipt } from '@rootline/contracts';
import { type Database, openDatabase } from '@rootline/db';
import { call, createLogger, type RunningService, startService } from '@rootline/host';
import { startTestInfra, type TestInfra } from '@rootline/testing';
import { asc, eq, gte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, transactions } from '../src/db/schema.js';
import { NONCE_RANGE } from '../src/domain/nonce-ranges.js';
import { service } from '../src/service.js';

const log = createLogger('test', 'silent');
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const ctx = { requestId: 'req_test' };

/** One chain-miner instance with its own bus connection and database pool, as a process of its own would have. */
interface Instance {
  running: RunningService;
  bus: Bus;
  database: Database;
}

describe('two chain-miner instances', () => {
  let infra: TestInfra;
  let client: Bus;
  let db: Database;
  const instances: Instance[] = [];
  const env = { CHAIN_DIFFICULTY: '14', CHAIN_MINER_THREADS: '1', CHAIN_LEASE_MS: '1000' };

  const startInstance = async (): Promise<Instance> => {
    const database = await openDatabase({ url: infra.pg.url, dataDir: '.' });
    const bus = await createNatsBus({ url: infra.nats.url, name: 'chain-miner', log: quiet });
    const running = await startService(service, { bus, database, log, env });
    const instance = { running, bus, database };
    instances.push(instance);
    return instance;
  };
  const stopInstance = async (i: Instance) => {
    await i.running.stop();
    await i.bus.close();
    await i.database.close();
    instances.splice(instances.indexOf(i), 1);
  };
  const submitMany = (n: number, tag: string) =>
    Promise.all(
      Array.from({ length: n }, (_, i) => call(client, chainTxSubmit, { type: 'test.tx', payload: { tag, i } }, ctx)),
    );
  const stats = () => call(client, chainStatsGet, {}, ctx);

  beforeAll(async () => {
    infra = await startTestInfra();
    db = await openDatabase({ url: infra.pg.url, dataDir: '.' });
    await startInstance();
    await startInstance();
    client = await createNatsBus({ url: infra.nats.url, name: 'test-client', log: quiet });
  });

  afterAll(async () => {
    await client?.close();
    for (const i of [...instances].reverse()) await stopInstance(i);
    await db?.close();
    await infra?.stop();
  });

  it('has exactly one appender, and one genesis block', async () => {
    const s = await stats();
    expect(instances.map((i) => i.running.instanceId)).toContain(s.appender?.instance);
    const genesis = await db.db.select().from(blocks).where(eq(blocks.index, 0));
    expect(genesis).toHaveLength(1);
  });

  it('records what either instance accepts, each transaction in exactly the block its submitter was told', async () => {
    const receipts = await submitMany(200, 'both');
    const rows = await db.db.select().from(transactions);
    const byId = new Map(rows.map((r) => [r.id, r.blockIndex]));
    for (const r of receipts) expect(byId.get(r.txId), r.txId).toBe(r.blockIndex);
    expect(new Set(receipts.map((r) => r.txId)).size).toBe(200);
  });

  it('adds the other instance hash rate: it searches its own nonce ranges and finds blocks', async () => {
    const before = (await stats()).tip!.index;
    // Blocks one after the other, so each is mined by both instances at once.
    for (let i = 0; i < 24; i++) await submitMany(2, `seq-${i}`);
    const mined = await db.db
      .select()
      .from(blocks)
      .where(gte(blocks.index, before + 1));
    // The appender searches nonces below 2^32; a nonce above was found by the helper in a range of its own.
    const byHelper = mined.filter((b) => b.nonce >= NONCE_RANGE);
    expect(byHelper.length).toBeGreaterThan(0);
    expect(byHelper.length).toBeLessThan(mined.length);
    await expect.poll(async () => (await stats()).appender?.helpers, { timeout: 5000 }).toBe(1);
  });

  it('fails over when the appender stops: the other takes over, and the chain goes on without a gap', async () => {
    const s = await stats();
    const appender = instances.find((i) => i.running.instanceId === s.appender?.instance)!;
    const load = submitMany(100, 'failover');
    await stopInstance(appender);
    const receipts: TxReceipt[] = await load;
    expect(receipts).toHaveLength(100);
    await expect
      .poll(async () => (await stats()).appender?.instance, { timeout: 5000 })
      .toBe(instances[0]!.running.instanceId);
    expect((await stats()).appender?.term).toBe((s.appender?.term ?? 0) + 1);
    const more = await submitMany(20, 'after');
    expect(Math.min(...more.map((r) => r.blockIndex))).toBeGreaterThan(Math.max(...receipts.map((r) => r.blockIndex)));

    const verification = await call(client, chainLedgerVerify, {}, ctx);
    expect(verification).toMatchObject({ valid: true, from: 0, next: null, invalidBlocks: [] });
    const indices = (await db.db.select({ i: blocks.index }).from(blocks).orderBy(asc(blocks.index))).map((r) => r.i);
    expect(indices).toEqual(indices.map((_, k) => k));
  });
});
