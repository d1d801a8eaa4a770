import { createTestDatabase, type ReplicatedPostgres, startReplicatedPostgres } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/open.js';
import { executeRows } from '../src/prepared.js';
import { lsnToBigInt, openReadRouter, type ReadRouter, type ReadTarget, replicaHolds } from '../src/replica.js';
import type { Database, Db } from '../src/types.js';

describe('WAL positions', () => {
  it('compares positions as 64-bit numbers, not as text', () => {
    expect(lsnToBigInt('0/0')).toBe(0n);
    expect(lsnToBigInt('1/0')).toBe(1n << 32n);
    expect(lsnToBigInt('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    // As text "9/..." sorts after "10/...": as positions it comes before.
    expect(replicaHolds('9/FFFFFFFF', '10/0')).toBe(false);
    expect(replicaHolds('10/0', '9/FFFFFFFF')).toBe(true);
    expect(replicaHolds('0/3000060', '0/3000060')).toBe(true);
    expect(replicaHolds(null, '0/0')).toBe(false);
    expect(() => lsnToBigInt('not a position')).toThrow(/not a WAL position/);
  });
});

/** Two checks a little apart: the replica must hold what the primary had at the first. */
async function settle(router: ReadRouter): Promise<void> {
  for (let i = 0; i < 50 && !router.fresh; i++) {
    await router.check();
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('reads routed to a streaming replica (a private primary and hot standby)', () => {
  let pair: ReplicatedPostgres;
  let primary: Database;
  let replicaAdmin: postgres.Sql;
  let router: ReadRouter;
  const served: ReadTarget[] = [];
  const names = (db: Db) => executeRows<{ name: string }>(db, sql`select name from replicatest.items order by name`);

  beforeAll(async () => {
    pair = await startReplicatedPostgres();
    const database = await createTestDatabase('rl_replica', pair.primary.adminUrl);
    primary = await openDatabase({ url: database.url, dataDir: '.' });
    await primary.db.execute(sql`create schema replicatest`);
    await primary.db.execute(sql`create table replicatest.items (name text primary key)`);
    await primary.db.execute(sql`insert into replicatest.items values ('first')`);
    const replicaUrl = new URL(database.url);
    replicaUrl.port = String(pair.replica.port);
    replicaAdmin = postgres(pair.replica.adminUrl, { max: 1, onnotice: () => {} });
    // A check every hour: the test runs each one itself, so what is fresh when is certain.
    router = openReadRouter({
      primary,
      replicaUrl: replicaUrl.toString(),
      intervalMs: 3_600_000,
      onRead: (t) => served.push(t),
    });
    await settle(router);
  }, 120_000);

  afterAll(async () => {
    await router?.close();
    await replicaAdmin?.end();
    await primary?.close();
    await pair?.stop();
  });

  it('serves reads from the replica once it has caught up, and from the primary when asked', async () => {
    expect(router.fresh).toBe(true);
    served.length = 0;
    expect((await router.run(false, names)).map((r) => r.name)).toEqual(['first']);
    expect((await router.run(true, names)).map((r) => r.name)).toEqual(['first']);
    expect(served).toEqual(['replica', 'primary']);
    // Served there in fact: the connection the router read on is a standby's.
    const [row] = await router.run(false, (db) =>
      executeRows<{ standby: boolean }>(db, sql`select pg_is_in_recovery() as standby`),
    );
    expect(row?.standby).toBe(true);
  });

  it('leaves a replica out once it falls behind the primary, and takes it back when it catches up', async () => {
    await replicaAdmin`select pg_wal_replay_pause()`;
    // The call only asks for the pause; replay stops at its next step, so the write below must wait for that.
    await expect
      .poll(async () => (await replicaAdmin`select pg_get_wal_replay_pause_state() as state`)[0]?.state, {
        timeout: 10_000,
      })
      .toBe('paused');
    await primary.db.execute(sql`insert into replicatest.items values ('second')`);
    // Within the check interval the replica may still answer without the write; the caller who wrote asks for the
    // primary (the gateway's read-your-writes window), and sees it.
    expect((await router.run(false, names)).map((r) => r.name)).toEqual(['first']);
    expect((await router.run(true, names)).map((r) => r.name)).toEqual(['first', 'second']);
    // Two checks later the replica has not reached the primary's earlier position: every read goes to the primary.
    await router.check();
    await router.check();
    expect(router.fresh).toBe(false);
    served.length = 0;
    expect((await router.run(false, names)).map((r) => r.name)).toEqual(['first', 'second']);
    expect(served).toEqual(['primary']);

    await replicaAdmin`select pg_wal_replay_resume()`;
    await settle(router);
    expect(router.fresh).toBe(true);
    served.length = 0;
    expect((await router.run(false, names)).map((r) => r.name)).toEqual(['first', 'second']);
    expect(served).toEqual(['replica']);
  });

  it('keeps answering from the primary while the replica is down, and goes back to it when it is up', async () => {
    await replicaAdmin.end();
    await pair.replica.stop();
    served.length = 0;
    // The first read finds the replica gone, runs again on the primary and leaves the replica out.
    expect((await router.run(false, names)).map((r) => r.name)).toEqual(['first', 'second']);
    expect(router.fresh).toBe(false);
    expect((await router.run(false, names)).map((r) => r.name)).toEqual(['first', 'second']);
    expect(served).toEqual(['primary', 'primary']);

    await pair.replica.start();
    await settle(router);
    expect(router.fresh).toBe(true);
    served.length = 0;
    await router.run(false, names);
    expect(served).toEqual(['replica']);
  }, 60_000);
});
