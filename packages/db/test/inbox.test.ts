import { eq, sql } from 'drizzle-orm';
import { integer, pgSchema, text } from 'drizzle-orm/pg-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createInbox, inboxTable } from '../src/inbox.js';
import type { Database } from '../src/types.js';
import { createPlace, DRIVERS, memoryLogger, type Place, rowsOf, sleep } from './harness.js';

const inboxtest = pgSchema('inboxtest');
const inbox = inboxTable(inboxtest);
const counters = inboxtest.table('counters', { name: text('name').primaryKey(), n: integer('n').notNull() });

/** The same DDL drizzle-kit generates for `inboxTable` (see packages/host/test/fixtures/tally/drizzle). */
const DDL = [
  sql`create schema inboxtest`,
  sql`create table inboxtest.inbox (
        consumer text not null, event_id text not null,
        processed_at timestamp with time zone default now() not null,
        constraint inbox_pkey primary key (consumer, event_id))`,
  sql`create table inboxtest.counters (name text primary key, n integer not null)`,
];

describe.each(DRIVERS)('inbox on %s', (driver) => {
  let place: Place;
  let database: Database;

  beforeAll(async () => {
    place = await createPlace(driver);
    database = await place.open();
    for (const statement of DDL) await database.db.execute(statement);
  });
  afterEach(async () => {
    await database.db.delete(inbox);
    await database.db.delete(counters);
  });
  afterAll(async () => {
    await database?.close();
    await place?.remove();
  });

  const box = () => createInbox({ database, table: inbox, log: memoryLogger() });
  const bump = async (tx: Database['db']) => {
    await tx
      .insert(counters)
      .values({ name: 'c', n: 1 })
      .onConflictDoUpdate({ target: counters.name, set: { n: sql`${counters.n} + 1` } });
  };
  const count = async () => (await database.db.select().from(counters).where(eq(counters.name, 'c')))[0]?.n ?? 0;

  it('runs the effect of an event id once per consumer and reports a repeat as skipped', async () => {
    const b = box();
    expect(await b.processOnce('svc-a', 'evt_1', bump)).toBe(true);
    expect(await b.processOnce('svc-a', 'evt_1', bump)).toBe(false);
    expect(await count()).toBe(1);
    // Another consumer applies the same event for itself.
    expect(await b.processOnce('svc-b', 'evt_1', bump)).toBe(true);
    expect(await count()).toBe(2);
    expect(await b.has('svc-a', 'evt_1')).toBe(true);
    expect(await b.has('svc-a', 'evt_2')).toBe(false);
  });

  it('keeps neither the effect nor the record of a failed attempt, so the retry applies it', async () => {
    const b = box();
    const failing = async (tx: Database['db']) => {
      await bump(tx);
      throw new Error('boom');
    };
    await expect(b.processOnce('svc-a', 'evt_1', failing)).rejects.toThrow('boom');
    expect(await count()).toBe(0);
    expect(await b.has('svc-a', 'evt_1')).toBe(false);
    expect(await b.processOnce('svc-a', 'evt_1', bump)).toBe(true);
    expect(await count()).toBe(1);
  });

  it('applies two concurrent deliveries of one event once', async () => {
    const b = box();
    const slow = async (tx: Database['db']) => {
      await bump(tx);
      await sleep(100);
    };
    const outcomes = await Promise.all([b.processOnce('svc-a', 'evt_1', slow), b.processOnce('svc-a', 'evt_1', slow)]);
    expect(outcomes.sort()).toEqual([false, true]);
    expect(await count()).toBe(1);
  });

  it('records a batch in one transaction and runs its effect with the ids not applied before, each once', async () => {
    const b = box();
    await b.processOnce('svc-a', 'evt_2', bump);
    const given: string[][] = [];
    const fresh = await b.processBatch('svc-a', ['evt_3', 'evt_1', 'evt_2', 'evt_3'], async (ids, tx) => {
      given.push([...ids].sort());
      for (const _ of ids) await bump(tx);
    });
    expect([...fresh].sort()).toEqual(['evt_1', 'evt_3']);
    expect(given).toEqual([['evt_1', 'evt_3']]);
    expect(await count()).toBe(3);
    // A batch of events all applied before runs nothing.
    const again = await b.processBatch('svc-a', ['evt_1', 'evt_2'], async () => {
      throw new Error('must not run');
    });
    expect(again.size).toBe(0);
  });

  it('keeps nothing of a failed batch: neither effects nor records', async () => {
    const b = box();
    await expect(
      b.processBatch('svc-a', ['evt_1', 'evt_2'], async (_ids, tx) => {
        await bump(tx);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await count()).toBe(0);
    expect(await b.has('svc-a', 'evt_1')).toBe(false);
    expect(await b.has('svc-a', 'evt_2')).toBe(false);
  });

  it('prunes records older than its retention', async () => {
    const b = createInbox({ database, table: inbox, log: memoryLogger(), retentionMs: 60_000 });
    await b.processOnce('svc-a', 'evt_old', bump);
    await b.processOnce('svc-a', 'evt_new', bump);
    await database.db.execute(
      sql`update inboxtest.inbox set processed_at = now() - interval '2 minutes' where event_id = 'evt_old'`,
    );
    expect(await b.prune()).toBe(1);
    expect(await rowsOf(database, sql`select event_id from inboxtest.inbox`)).toEqual([{ event_id: 'evt_new' }]);
  });
});
