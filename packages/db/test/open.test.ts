import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/open.js';
import type { Database } from '../src/types.js';
import { createPlace, DRIVERS, type Place, rowsOf, sleep } from './harness.js';

describe.each(DRIVERS)('openDatabase on %s', (driver) => {
  let place: Place;
  let database: Database;

  beforeAll(async () => {
    place = await createPlace(driver);
    database = await place.open();
  });

  afterAll(async () => {
    await database?.close();
    await place?.remove();
  });

  it('opens the requested driver and answers a ping', async () => {
    expect(database.driver).toBe(driver);
    await expect(database.ping()).resolves.toBeUndefined();
    const [row] = await rowsOf<{ answer: number }>(database, sql`select 41 + 1 as answer`);
    expect(Number(row?.answer)).toBe(42);
  });

  it('delivers a NOTIFY to listeners only when its transaction commits', async () => {
    const got: string[] = [];
    const unlisten = await database.listen('rl_test_channel', (payload) => got.push(payload));
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify('rl_test_channel', 'committed')`);
      await sleep(50);
      expect(got).toEqual([]);
    });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_notify('rl_test_channel', 'rolled back')`);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await sleep(100);
    expect(got).toEqual(['committed']);
    await unlisten();
  });

  it('says when listening starts, and on PostgreSQL again after its connection was lost', async () => {
    const channel = 'rl_test_relisten';
    const got: string[] = [];
    let started = 0;
    const unlisten = await database.listen(
      channel,
      (payload) => got.push(payload),
      () => {
        started += 1;
      },
    );
    expect(started).toBe(1);
    if (driver === 'postgres') {
      // The listening connection is ended by the server; postgres.js connects again and listens again.
      await database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and query like ${`%listen%${channel}%`} and pid <> pg_backend_pid()`,
      );
      await expect.poll(() => started, { timeout: 10_000 }).toBe(2);
      await database.db.execute(sql`select pg_notify(${channel}, 'after the reconnect')`);
      await expect.poll(() => got, { timeout: 5_000 }).toEqual(['after the reconnect']);
    }
    await unlisten();
  });
});

describe('openDatabase on postgres, unreachable', () => {
  it('names the server in its error but never the password', async () => {
    const url = 'postgres://rootline:s3cret-pw@127.0.0.1:1/nowhere';
    const err: unknown = await openDatabase({ url, dataDir: '/nonexistent' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    const text = inspect(err, { depth: 10, showHidden: true });
    expect((err as Error).message).toContain('cannot reach PostgreSQL at 127.0.0.1:1/nowhere');
    expect(text).not.toContain('s3cret-pw');
  });
});

describe('openDatabase on pglite, one instance per data directory', () => {
  let place: Place;

  beforeAll(async () => {
    place = await createPlace('pglite');
  });

  afterAll(async () => {
    await place?.remove();
  });

  it('refuses a second open of the same directory in one process, and reopens after close', async () => {
    const first = await place.open();
    await expect(place.open()).rejects.toThrow(/already open in this process/);
    await first.close();
    const again = await place.open();
    await again.ping();
    await again.close();
  });

  it('refuses a directory locked by another live process but takes over a dead one', async () => {
    const lock = join(place.dataDir, 'pglite.lock');
    await writeFile(lock, String(process.ppid));
    await expect(place.open()).rejects.toThrow(`in use by process ${process.ppid}`);
    await writeFile(lock, '2147483646');
    const database = await place.open();
    await database.close();
  });
});
