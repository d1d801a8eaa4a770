import { type Bus, createMemoryBroker, type DeliveredEvent, type Subscription } from '@rootline/bus';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrateSchema } from '../src/migrate.js';
import { createOutbox } from '../src/outbox.js';
import type { Database } from '../src/types.js';
import { outbox, widgets } from './fixtures/schema.js';
import {
  callContext,
  createPlace,
  DRIVERS,
  FIXTURE,
  memoryLogger,
  type Place,
  sleep,
  widgetCreated,
} from './harness.js';

describe.each(DRIVERS)('outbox into the in-process bus on %s', (driver) => {
  let place: Place;
  let database: Database;
  let bus: Bus;
  let subscription: Subscription;
  const received: DeliveredEvent[] = [];

  beforeAll(async () => {
    place = await createPlace(driver);
    database = await place.open();
    await migrateSchema(database, FIXTURE);
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    bus = createMemoryBroker({ log: quiet }).connect('db-test');
    subscription = await bus.consume({
      durable: 'db-test-widgets',
      subject: 'evt.dbtest.>',
      handler: async (event) => {
        received.push(event);
      },
    });
  });

  afterAll(async () => {
    await subscription?.stop();
    await bus?.close();
    await database?.close();
    await place?.remove();
  });

  it('delivers each committed event once, even when the relay publishes it twice', async () => {
    // The first publish reaches the bus but the relay "loses" the acknowledgement, so the row stays
    // pending and is published again; the bus drops the repeat by event id.
    let lostAcks = 1;
    const relay = createOutbox({
      database,
      table: outbox,
      log: memoryLogger(),
      publish: async (event) => {
        await bus.publish(event);
        if (lostAcks-- > 0) throw new Error('acknowledgement lost');
      },
    });
    relay.start();
    try {
      const ids: string[] = [];
      for (const id of ['w1', 'w2', 'w3']) {
        ids.push(
          await database.db.transaction(async (tx) => {
            await tx.insert(widgets).values({ id, name: id });
            return relay.enqueue(tx, widgetCreated, { id, name: id }, callContext);
          }),
        );
      }
      await vi.waitFor(() => expect(received.map((e) => e.id)).toEqual(ids), { timeout: 5_000 });
      await vi.waitFor(async () => expect(await relay.backlog()).toBe(0), { timeout: 2_000 });
      await sleep(100);
      expect(received.map((e) => e.id)).toEqual(ids);
      expect(received[0]).toMatchObject({
        subject: 'evt.dbtest.widget.created',
        payload: { id: 'w1', name: 'w1' },
        headers: { 'x-request-id': 'req_test', 'x-actor': JSON.stringify(callContext.actor) },
        deliveryCount: 1,
      });
    } finally {
      await relay.stop();
    }
  });
});
