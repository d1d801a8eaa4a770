import { createNatsBus } from '@rootline/bus';
import { service as chainMiner } from '@rootline/chain-miner';
import { type Database, openDatabase } from '@rootline/db';
import { buildGateway, startTestPlatform, type TestPlatform, testConfig } from '@rootline/gateway/testing';
import { createLogger } from '@rootline/host';
import { service as plants } from '@rootline/plants';
import {
  createTestDatabase,
  plantInput,
  type ReplicatedPostgres,
  startNatsServer,
  startReplicatedPostgres,
} from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** Reads the plants service counted so far, by where they were served. */
async function servedReads(registry: Registry): Promise<{ primary: number; replica: number }> {
  const metric = registry.getSingleMetric('db_reads_total');
  const values = metric ? (await metric.get()).values : [];
  const of = (target: string) =>
    values.filter((v) => v.labels.service === 'plants' && v.labels.target === target).reduce((n, v) => n + v.value, 0);
  return { primary: of('primary'), replica: of('replica') };
}

describe('plants on a PostgreSQL primary with a streaming replica (DATABASE_READ_URL)', () => {
  let pair: ReplicatedPostgres;
  let p: TestPlatform;
  let replicaStats: Database | undefined;
  const registry = new Registry();
  let grower: string;
  let reader: string;
  let known: string;

  beforeAll(async () => {
    pair = await startReplicatedPostgres();
    const [nats, pg] = await Promise.all([startNatsServer(), createTestDatabase('rl_replica', pair.primary.adminUrl)]);
    const replicaUrl = new URL(pg.url);
    replicaUrl.port = String(pair.replica.port);
    p = await startTestPlatform(
      [chainMiner, plants],
      { CHAIN_DIFFICULTY: '8', DATABASE_READ_URL: replicaUrl.toString(), READ_YOUR_WRITES_MS: '5000' },
      {
        metrics: registry,
        infra: {
          nats,
          pg,
          stop: async () => {
            await pg.drop();
            await nats.stop();
          },
        },
      },
    );
    grower = await p.token('USER', 'usr_grower', 'Grower');
    reader = await p.token('USER', 'usr_reader');
    const made = await p.http('POST', '/api/plants/register', {
      token: grower,
      body: plantInput({ owner: { id: 'usr_grower', name: 'Grower' } }),
    });
    expect(made.status).toBe(201);
    known = made.body.data.id;
    // A connection of the test's own to the replica, once it has replayed the database's creation.
    for (let i = 0; !replicaStats; i++) {
      replicaStats = await openDatabase({ url: replicaUrl.toString(), dataDir: '.', max: 1 }).catch((err) => {
        if (i >= 100) throw err;
        return new Promise<undefined>((r) => setTimeout(() => r(undefined), 200));
      });
    }
  }, 120_000);

  afterAll(async () => {
    await replicaStats?.close();
    await p?.stop();
    await pair?.stop();
  });

  /** Reads the known plant as the reader until one read is served by the replica. */
  async function readFromReplica(): Promise<void> {
    await expect
      .poll(
        async () => {
          const before = await servedReads(registry);
          const got = await p.http('GET', `/api/plants/${known}`, { token: reader });
          expect(got.status).toBe(200);
          return (await servedReads(registry)).replica - before.replica;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe(1);
  }

  it('serves the reads of a caller who has not just written from the replica', async () => {
    await readFromReplica();
    // The replica's own statistics see the read of the plants table (a standby keeps its own counters).
    const scans = async () => {
      const rows = (await replicaStats!.db.execute(sql`
        select coalesce(sum(idx_scan + seq_scan), 0)::text as n from pg_stat_user_tables
        where schemaname = 'plants' and relname = 'plants'`)) as unknown as { n: string }[];
      return Number(rows[0]!.n);
    };
    const before = await scans();
    for (let i = 0; i < 5; i++) {
      expect((await p.http('GET', `/api/plants/${known}`, { token: reader })).status).toBe(200);
    }
    await expect.poll(scans, { timeout: 10_000 }).toBeGreaterThan(before);
  });

  it('runs a search, which reads in a transaction of its own, on the replica', async () => {
    await readFromReplica();
    const before = await servedReads(registry);
    const found = await p.http('GET', '/api/plants/search?q=tomato', { token: reader });
    expect(found.status).toBe(200);
    expect(found.body.data.map((x: { id: string }) => x.id)).toContain(known);
    expect((await servedReads(registry)).replica - before.replica).toBe(1);
  });

  it("answers a caller's read of its own fresh write from the primary, and others' from the replica", async () => {
    await readFromReplica();
    const made = await p.http('POST', '/api/plants/register', {
      token: grower,
      body: plantInput({ owner: { id: 'usr_grower', name: 'Grower' } }),
    });
    expect(made.status).toBe(201);
    const before = await servedReads(registry);
    const own = await p.http('GET', `/api/plants/${made.body.data.id}`, { token: grower });
    expect(own.status).toBe(200);
    expect(own.body.data.id).toBe(made.body.data.id);
    const after = await servedReads(registry);
    expect(after.primary - before.primary).toBe(1);
    expect(after.replica - before.replica).toBe(0);
    // The reader wrote nothing: its reads still go to the replica.
    await readFromReplica();
  });

  it("sends a caller's reads through another gateway replica to the primary after its write", async () => {
    const otherBus = await createNatsBus({ url: p.infra.nats.url, name: 'gateway', log: quiet });
    const other = await buildGateway({
      bus: otherBus,
      log: createLogger('test', 'silent'),
      config: testConfig({ READ_YOUR_WRITES_MS: '5000' }),
      database: p.database,
    });
    try {
      await other.ready();
      await readFromReplica();
      const made = await p.http('POST', '/api/plants/register', {
        token: grower,
        body: plantInput({ owner: { id: 'usr_grower', name: 'Grower' } }),
      });
      expect(made.status).toBe(201);
      // Through the other replica, which hears of the write by the broadcast: a read there is served by the primary
      // (the replica is fresh, so without the signal it would be served there).
      await expect
        .poll(async () => {
          const before = await servedReads(registry);
          const got = await other.inject({
            method: 'GET',
            url: `/api/plants/${made.body.data.id}`,
            headers: { authorization: `Bearer ${grower}` },
          });
          const after = await servedReads(registry);
          return [got.statusCode, after.primary - before.primary, after.replica - before.replica];
        })
        .toEqual([200, 1, 0]);
    } finally {
      await other.close();
      await otherBus.close();
    }
  });

  it('keeps answering from the primary while the replica is stopped, and goes back to it once it is up', async () => {
    await replicaStats?.close();
    replicaStats = undefined;
    await pair.replica.stop();
    const before = await servedReads(registry);
    for (let i = 0; i < 3; i++) {
      const got = await p.http('GET', `/api/plants/${known}`, { token: reader });
      expect(got.status).toBe(200);
    }
    const nearby = await p.http('GET', '/api/plants/nearby?lat=52.37&lon=4.89&radius=50', { token: reader });
    expect(nearby.status).toBe(200);
    const after = await servedReads(registry);
    expect(after.primary - before.primary).toBe(4);
    expect(after.replica - before.replica).toBe(0);

    await pair.replica.start();
    await readFromReplica();
  }, 60_000);
});
