import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSchema } from '../src/migrate.js';
import { openDatabase } from '../src/open.js';
import type { Database } from '../src/types.js';
import { widgets } from './fixtures/schema.js';
import { createPlace, DRIVERS, FIXTURE, type Place, rowsOf } from './harness.js';

describe.each(DRIVERS)('transactions on %s', (driver) => {
  let place: Place;
  let database: Database;

  beforeAll(async () => {
    place = await createPlace(driver);
    database = await place.open();
    await migrateSchema(database, FIXTURE);
  });

  afterAll(async () => {
    await database?.close();
    await place?.remove();
  });

  it('rolls back a failed nested transaction alone and commits the outer one', async () => {
    await database.db.transaction(async (tx) => {
      await tx.insert(widgets).values({ id: 'outer', name: 'kept' });
      await expect(
        tx.transaction(async (inner) => {
          await inner.insert(widgets).values({ id: 'inner', name: 'dropped' });
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
      await tx.transaction(async (inner) => {
        await inner.insert(widgets).values({ id: 'inner-ok', name: 'kept too' });
      });
    });
    const ids = (await database.db.select({ id: widgets.id }).from(widgets)).map((w) => w.id).sort();
    expect(ids).toEqual(['inner-ok', 'outer']);
  });
});

// Regression: postgres.js 3.4.9 with max_pipeline 0 fails every sql.begin() with UNSAFE_TRANSACTION
// (porsager/postgres#1210) and, at the default, may do so under load (#1189).
describe('transactions on postgres under load (max_pipeline 0)', () => {
  let place: Place;
  let database: Database;

  beforeAll(async () => {
    place = await createPlace('postgres');
    database = await openDatabase({ url: place.url!, dataDir: place.dataDir, max: 3 });
  });

  afterAll(async () => {
    await database?.close();
    await place?.remove();
  });

  it('keeps each of many concurrent transactions on one backend from BEGIN to COMMIT', async () => {
    const work = Array.from({ length: 200 }, (_, i) =>
      i % 3 === 0
        ? rowsOf(database, sql`select 1`).then(() => null)
        : database.db.transaction(async (tx) => {
            const [a] = await rowsOf<{ pid: number; xid: string }>(
              { ...database, db: tx },
              sql`select pg_backend_pid() as pid, txid_current()::text as xid`,
            );
            await rowsOf({ ...database, db: tx }, sql`select pg_sleep(0.001)`);
            const [b] = await rowsOf<{ pid: number; xid: string }>(
              { ...database, db: tx },
              sql`select pg_backend_pid() as pid, txid_current()::text as xid`,
            );
            expect(b).toEqual(a);
            return a!.xid;
          }),
    );
    const xids = (await Promise.all(work)).filter((x) => x !== null);
    expect(new Set(xids).size).toBe(xids.length);
  });

  it('returns connections to the pool after failed and rolled-back transactions', async () => {
    for (let i = 0; i < 20; i++) {
      await expect(
        database.db.transaction(async (tx) => {
          await tx.execute(sql`select 1 / 0`);
        }),
      ).rejects.toThrow();
    }
    await expect(database.ping()).resolves.toBeUndefined();
    const [row] = await rowsOf<{ state: string | null }>(
      database,
      sql`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and state = 'idle in transaction'`,
    );
    expect(row).toEqual({ n: 0 });
  });
});
