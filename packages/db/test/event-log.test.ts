import { type Bus, type DeliveredEvent, type MemoryBroker, openMemoryBroker } from '@rootline/bus';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
// The bus package's contract suite, run here against the broker with its log in a database.
import { busContractSuite } from '../../bus/src/contract-suite.js';
import { type DatabaseEventLog, openEventLog } from '../src/event-log.js';
import type { Database } from '../src/types.js';
import { createPlace, DRIVERS, memoryLogger, type Place, rowsOf, sleep } from './harness.js';

const quiet = { info() {}, warn() {}, error() {} };

{
  let place: Place;
  let database: Database;
  let eventLog: DatabaseEventLog;
  busContractSuite('memory with its event log in PGlite', async () => {
    place = await createPlace('pglite');
    database = await place.open();
    eventLog = await openEventLog({ database, log: memoryLogger() });
    const broker = await openMemoryBroker({ store: eventLog, log: quiet });
    return {
      connect: async () => broker.connect(),
      teardown: async () => {
        eventLog.stop();
        await database.close();
        await place.remove();
      },
    };
  });
}

describe.each(DRIVERS)('the broker event log on %s', (driver) => {
  let place: Place;
  let database: Database;
  const logs: DatabaseEventLog[] = [];
  const buses: Bus[] = [];

  beforeAll(async () => {
    place = await createPlace(driver);
    database = await place.open();
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
    for (const l of logs.splice(0)) l.stop();
    await database.db.execute(sql`truncate bus.events, bus.settled`);
  });
  afterAll(async () => {
    await database?.close();
    await place?.remove();
  });

  /** A broker as a process opens it at start: it knows only what the database holds. */
  async function boot(retentionMs?: number): Promise<MemoryBroker> {
    const eventLog = await openEventLog({ database, log: memoryLogger(), retentionMs });
    logs.push(eventLog);
    return openMemoryBroker({ store: eventLog, log: quiet });
  }
  const connect = (broker: MemoryBroker) => {
    const bus = broker.connect();
    buses.push(bus);
    return bus;
  };
  const event = (id: string, n: number) => ({
    id,
    subject: 'evt.logtest.thing.happened',
    occurredAt: new Date().toISOString(),
    payload: { n },
    headers: { 'x-request-id': `req_${id}` },
  });
  async function collect(bus: Bus, durable: string, into: DeliveredEvent[]) {
    return bus.consume({
      durable,
      subject: 'evt.logtest.>',
      handler: async (e) => {
        into.push(e);
      },
    });
  }
  async function until(what: string, ok: () => Promise<boolean> | boolean): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(await ok())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(10);
    }
  }
  const settled = async () =>
    (await rowsOf<{ n: number }>(database, sql`select count(*)::int as n from bus.settled`))[0]!.n;

  it('delivers after a restart what a durable had not acknowledged, and not what it had', async () => {
    const before = await boot();
    const bus = connect(before);
    const seen: DeliveredEvent[] = [];
    const sub = await collect(bus, 'reader', seen);
    await bus.publish(event('evt_a', 1));
    await until('evt_a settled', async () => seen.length === 1 && (await settled()) === 1);
    await sub.stop();
    // Published while no instance of the durable runs, then the process dies (nothing is closed).
    await bus.publish(event('evt_b', 2));

    const after = connect(await boot());
    const again: DeliveredEvent[] = [];
    await collect(after, 'reader', again);
    // A repeat of an id inside the duplicate window is still dropped after the restart.
    await after.publish(event('evt_a', 1));
    await after.publish(event('evt_c', 3));
    await until('evt_b and evt_c', () => again.length === 2);
    await sleep(100);
    expect(again.map((e) => [e.id, e.payload, e.headers['x-request-id'], e.deliveryCount])).toEqual([
      ['evt_b', { n: 2 }, 'req_evt_b', 1],
      ['evt_c', { n: 3 }, 'req_evt_c', 1],
    ]);
  });

  it('gives a durable created after a restart the whole kept log, in order', async () => {
    const bus = connect(await boot());
    for (let i = 0; i < 5; i++) await bus.publish(event(`evt_${i}`, i));
    const seen: DeliveredEvent[] = [];
    await collect(connect(await boot()), 'newcomer', seen);
    await until('five events', () => seen.length === 5);
    expect(seen.map((e) => e.id)).toEqual(['evt_0', 'evt_1', 'evt_2', 'evt_3', 'evt_4']);
  });

  it('drops events older than its retention when it opens', async () => {
    const bus = connect(await boot());
    await bus.publish(event('evt_old', 1));
    await sleep(20);
    const seen: DeliveredEvent[] = [];
    await collect(connect(await boot(10)), 'late', seen);
    await sleep(200);
    expect(seen).toEqual([]);
    expect(await rowsOf(database, sql`select id from bus.events`)).toEqual([]);
  });
});
