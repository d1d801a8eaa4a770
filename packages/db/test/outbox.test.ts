import { performance } from 'node:perf_hooks';
import type { EventMessage } from '@rootline/bus';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertFromJson } from '../src/json-rows.js';
import { migrateSchema } from '../src/migrate.js';
import { createOutbox, type Outbox, type OutboxOptions, pendingEvent } from '../src/outbox.js';
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

describe.each(DRIVERS)('outbox on %s', (driver) => {
  let place: Place;
  let database: Database;
  /** Extra connections opened by a test (PostgreSQL replicas), closed after it. */
  const extra: Database[] = [];
  const relays: Outbox[] = [];

  beforeAll(async () => {
    place = await createPlace(driver);
    database = await place.open();
    await migrateSchema(database, FIXTURE);
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((r) => r.stop()));
    await Promise.all(extra.splice(0).map((d) => d.close()));
    await database.db.delete(outbox);
    await database.db.delete(widgets);
  });

  afterAll(async () => {
    await database?.close();
    await place?.remove();
  });

  /** An outbox whose publish records events (the bus itself is tested in its own package). */
  function recordingOutbox(opts: Partial<OutboxOptions> = {}) {
    const published: EventMessage[] = [];
    const log = memoryLogger();
    const box = createOutbox({
      database,
      table: outbox,
      publish: async (event) => {
        published.push(event);
      },
      log,
      ...opts,
    });
    relays.push(box);
    return { box, published, log };
  }

  /** Creates a widget and its event in one transaction; returns the event id. */
  function createWidget(box: Outbox, id: string, on: Database = database): Promise<string> {
    return on.db.transaction(async (tx) => {
      await tx.insert(widgets).values({ id, name: `widget ${id}` });
      return box.enqueue(tx, widgetCreated, { id, name: `widget ${id}` }, callContext);
    });
  }

  const outboxRows = () => database.db.select().from(outbox).orderBy(outbox.seq);

  it('commits the state change and its event together', async () => {
    const { box } = recordingOutbox();
    const eventId = await createWidget(box, 'w1');

    expect(eventId).toMatch(/^evt_[0-9A-Z]{26}$/);
    expect(await database.db.select({ id: widgets.id }).from(widgets)).toEqual([{ id: 'w1' }]);
    const [row, ...more] = await outboxRows();
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      id: eventId,
      subject: 'evt.dbtest.widget.created',
      payload: { id: 'w1', name: 'widget w1' },
      publishedAt: null,
      attempts: 0,
    });
    expect(row?.headers).toEqual({
      'x-request-id': 'req_test',
      'x-actor': JSON.stringify(callContext.actor),
      traceparent: callContext.traceparent,
    });
  });

  it('leaves neither the state change nor the event when the transaction rolls back', async () => {
    const { box } = recordingOutbox();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(widgets).values({ id: 'w1', name: 'doomed' });
        await box.enqueue(tx, widgetCreated, { id: 'w1', name: 'doomed' }, callContext);
        throw new Error('validation failed after the write');
      }),
    ).rejects.toThrow('validation failed');
    expect(await database.db.select().from(widgets)).toEqual([]);
    expect(await outboxRows()).toEqual([]);
    expect(await box.backlog()).toBe(0);
  });

  it('records a batch of events with one call, in order, each with its own context, and publishes them in order', async () => {
    const { box, published } = recordingOutbox({ pollMs: 60_000 });
    box.start();
    const other = { ...callContext, requestId: 'req_other', actor: undefined };
    const ids = await database.db.transaction(async (tx) => {
      await tx.insert(widgets).values([
        { id: 'b1', name: 'one' },
        { id: 'b2', name: 'two' },
        { id: 'b3', name: 'three' },
      ]);
      return box.enqueueMany(tx, [
        pendingEvent(widgetCreated, { id: 'b1', name: 'one' }, callContext),
        pendingEvent(widgetCreated, { id: 'b2', name: 'two' }, other),
        pendingEvent(widgetCreated, { id: 'b3', name: 'three' }, callContext),
      ]);
    });
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    const rows = await outboxRows();
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(rows.map((r) => (r.payload as { id: string }).id)).toEqual(['b1', 'b2', 'b3']);
    expect(rows[1]?.headers['x-request-id']).toBe('req_other');
    expect(rows[1]?.headers['x-actor']).toBeUndefined();
    expect(rows[0]?.headers['x-actor']).toBe(JSON.stringify(callContext.actor));
    // One notification for the whole batch still wakes the relay.
    await vi.waitFor(() => expect(published.map((e) => e.id)).toEqual(ids), { timeout: 2_000, interval: 5 });
    expect(await box.enqueueMany(database.db, [])).toEqual([]);
  });

  it('writes state changes and their events as one statement, and publishes the events in order', async () => {
    const { box, published } = recordingOutbox({ pollMs: 60_000 });
    box.start();
    await database.db.insert(widgets).values({ id: 's0', name: 'zero' });
    const rows = [
      { id: 's1', name: 'one', size: 3, colour: 'red' },
      { id: 's2', name: "it's two", size: 4 },
    ];
    const ids = await box.commitWith(
      database.db,
      [insertFromJson(widgets, rows), sql`update ${widgets} set size = size + 10 where id = 's0'`],
      rows.map((r) => pendingEvent(widgetCreated, { id: r.id, name: r.name }, callContext)),
    );
    expect(await database.db.select().from(widgets).orderBy(widgets.id)).toEqual([
      { id: 's0', name: 'zero', size: 11, colour: null },
      { id: 's1', name: 'one', size: 3, colour: 'red' },
      { id: 's2', name: "it's two", size: 4, colour: null },
    ]);
    expect((await outboxRows()).map((r) => r.id)).toEqual(ids);
    await vi.waitFor(() => expect(published.map((e) => e.id)).toEqual(ids), { timeout: 2_000, interval: 5 });
  });

  it('writes nothing of a statement that fails: neither the changes nor the events', async () => {
    const { box } = recordingOutbox();
    await database.db.insert(widgets).values({ id: 'taken', name: 'first' });
    await expect(
      box.commitWith(
        database.db,
        [
          insertFromJson(widgets, [{ id: 'new', name: 'fine' }]),
          insertFromJson(widgets, [{ id: 'taken', name: 'again' }]),
        ],
        [pendingEvent(widgetCreated, { id: 'new', name: 'fine' }, callContext)],
      ),
    ).rejects.toThrow();
    expect(await database.db.select({ id: widgets.id }).from(widgets)).toEqual([{ id: 'taken' }]);
    expect(await outboxRows()).toEqual([]);
  });

  it('refuses a generated or unknown column in a JSON insert', () => {
    expect(() => insertFromJson(outbox, [{ seq: 1 } as never])).toThrow(/generated/);
    expect(() => insertFromJson(widgets, [{ nope: 1 } as never])).toThrow(/no column nope/);
  });

  it('publishes committed events promptly on NOTIFY, with id, subject, payload and headers intact', async () => {
    const publishedAt = new Map<string, number>();
    // A poll far longer than the test: only NOTIFY can explain a prompt publication.
    const { box, published } = recordingOutbox({ pollMs: 60_000 });
    const inner = published.push.bind(published);
    published.push = (...events: EventMessage[]) => {
      for (const e of events) publishedAt.set(e.id, performance.now());
      return inner(...events);
    };
    box.start();
    const warmUp = await createWidget(box, 'w0');
    await vi.waitFor(() => expect(publishedAt.has(warmUp)).toBe(true), { timeout: 2_000, interval: 5 });

    const latencies: number[] = [];
    for (let i = 1; i <= 20; i++) {
      const id = await createWidget(box, `w${i}`);
      const committed = performance.now();
      await vi.waitFor(() => expect(publishedAt.has(id)).toBe(true), { timeout: 2_000, interval: 1 });
      latencies.push(publishedAt.get(id)! - committed);
    }
    latencies.sort((a, b) => a - b);
    if (process.env.RL_REPORT_LATENCY) {
      console.info(
        `${driver} commit→publish ms: median ${latencies[10]?.toFixed(2)}, max ${latencies[19]?.toFixed(2)}`,
      );
    }
    // Far below the 60 s poll of this relay: only the commit notification can explain it.
    expect(latencies[19]).toBeLessThan(1_000);

    const event = published.find((e) => e.id === warmUp);
    expect(event).toEqual({
      id: warmUp,
      subject: 'evt.dbtest.widget.created',
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      payload: { id: 'w0', name: 'widget w0' },
      headers: {
        'x-request-id': 'req_test',
        'x-actor': JSON.stringify(callContext.actor),
        traceparent: callContext.traceparent,
      },
    });
    expect(JSON.parse(event!.headers['x-actor']!)).toEqual(callContext.actor);
    // The row is marked published right after its publish returns.
    await vi.waitFor(async () => expect(await box.backlog()).toBe(0), { timeout: 2_000 });
    expect((await outboxRows()).every((r) => r.publishedAt instanceof Date)).toBe(true);
  });

  it('publishes in enqueue order', async () => {
    const { box, published } = recordingOutbox({ batchSize: 7 });
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await createWidget(box, `w${i}`));
    box.start();
    await vi.waitFor(() => expect(published).toHaveLength(30), { timeout: 5_000 });
    expect(published.map((e) => e.id)).toEqual(ids);
  });

  it('publishes an event committed by a process that died before publishing it', async () => {
    const before = recordingOutbox();
    const eventId = await createWidget(before.box, 'w1');
    // The "process" dies: no relay ever ran, the database connection goes away.
    await database.close();
    database = await place.open();

    const after = recordingOutbox();
    after.box.start();
    await vi.waitFor(() => expect(after.published.map((e) => e.id)).toEqual([eventId]), { timeout: 5_000 });
    expect(before.published).toEqual([]);
  });

  it('keeps a row whose publish failed pending, counts the attempt, and publishes it on a later try', async () => {
    let failures = 1;
    const published: EventMessage[] = [];
    const { box } = recordingOutbox({
      publish: async (event) => {
        if (failures-- > 0) throw new Error('bus unavailable');
        published.push(event);
      },
    });
    const first = await createWidget(box, 'w1');
    const second = await createWidget(box, 'w2');

    await expect(box.flush()).rejects.toThrow('bus unavailable');
    expect(published).toEqual([]);
    expect(await box.backlog()).toBe(2);
    expect((await outboxRows()).map((r) => [r.id, r.attempts, r.publishedAt])).toEqual([
      [first, 1, null],
      [second, 0, null],
    ]);

    expect(await box.flush()).toBe(2);
    expect(published.map((e) => e.id)).toEqual([first, second]);
    expect(await box.backlog()).toBe(0);
  });

  it('backs off after a failed publish and retries on its own', async () => {
    let failures = 2;
    const published: EventMessage[] = [];
    const { box, log } = recordingOutbox({
      pollMs: 60_000,
      publish: async (event) => {
        if (failures-- > 0) throw new Error('bus unavailable');
        published.push(event);
      },
    });
    box.start();
    const id = await createWidget(box, 'w1');
    await vi.waitFor(() => expect(published.map((e) => e.id)).toEqual([id]), { timeout: 3_000 });
    const [row] = await outboxRows();
    expect(row?.attempts).toBe(2);
    expect(log.lines.filter((l) => l.level === 'warn')).toHaveLength(2);
  });

  it('lets two relays run at once: every event is published, each exactly once', async () => {
    // On PostgreSQL the second relay is another replica with its own pool; PGlite has one per process.
    const replica = driver === 'postgres' ? await place.open() : database;
    if (replica !== database) extra.push(replica);
    const published: EventMessage[] = [];
    const by = { a: 0, b: 0 };
    const publishAs = (relay: keyof typeof by) => async (event: EventMessage) => {
      await sleep(Math.random() * 2);
      published.push(event);
      by[relay] += 1;
    };
    const a = createOutbox({ database, table: outbox, publish: publishAs('a'), log: memoryLogger(), batchSize: 5 });
    const b = createOutbox({
      database: replica,
      table: outbox,
      publish: publishAs('b'),
      log: memoryLogger(),
      batchSize: 5,
    });
    relays.push(a, b);
    a.start();
    b.start();

    const ids: string[] = [];
    for (let round = 0; round < 10; round++) {
      const batch = Array.from({ length: 10 }, (_, i) => `w${round}-${i}`);
      ids.push(...(await Promise.all(batch.map((w, i) => createWidget(i % 2 ? a : b, w, i % 2 ? database : replica)))));
    }
    await vi.waitFor(() => expect(new Set(published.map((e) => e.id)).size).toBe(100), { timeout: 10_000 });
    await sleep(200);
    expect(published.map((e) => e.id).sort()).toEqual([...ids].sort());
    // Both relays took part, so the test did exercise two relays claiming from one table.
    expect(by.a).toBeGreaterThan(0);
    expect(by.b).toBeGreaterThan(0);
    await vi.waitFor(async () => expect(await a.backlog()).toBe(0), { timeout: 2_000 });
  });

  it('counts pending rows in its backlog', async () => {
    const { box } = recordingOutbox();
    expect(await box.backlog()).toBe(0);
    for (const w of ['w1', 'w2', 'w3']) await createWidget(box, w);
    expect(await box.backlog()).toBe(3);
    expect(await box.flush()).toBe(3);
    expect(await box.backlog()).toBe(0);
    expect(await box.flush()).toBe(0);
  });

  it('falls back to polling when LISTEN is unavailable', async () => {
    const deaf: Database = { ...database, listen: () => Promise.reject(new Error('LISTEN not supported')) };
    const { box, published, log } = recordingOutbox({ database: deaf, pollMs: 50 });
    box.start();
    const id = await createWidget(box, 'w1');
    await vi.waitFor(() => expect(published.map((e) => e.id)).toEqual([id]), { timeout: 2_000 });
    expect(log.lines.some((l) => l.level === 'warn' && l.msg?.includes('polling'))).toBe(true);
  });

  it('looks for rows it was not told of each time its LISTEN starts again', async () => {
    // A database whose LISTEN hears nothing and lets the test say when listening (re)started, as after a reconnect.
    const restarts: (() => void)[] = [];
    const unheard: Database = {
      ...database,
      listen: async (_channel, _fn, onListen) => {
        if (onListen) restarts.push(onListen);
        return async () => {};
      },
    };
    const { box, published } = recordingOutbox({ database: unheard, pollMs: 60_000 });
    box.start();
    await vi.waitFor(() => expect(restarts).toHaveLength(1));
    // The relay's first look at start has ended (on PGlite it would otherwise wait for the insert and see it).
    await sleep(300);
    const id = await createWidget(box, 'w1');
    await sleep(200);
    // No notification and no poll within the minute: the row waits.
    expect(published).toEqual([]);
    restarts[0]!();
    await vi.waitFor(() => expect(published.map((e) => e.id)).toEqual([id]), { timeout: 2_000 });
  });

  it('prunes published rows older than the retention', async () => {
    const first = recordingOutbox();
    await createWidget(first.box, 'w1');
    await createWidget(first.box, 'w2');
    expect(await first.box.flush()).toBe(2);
    await sleep(5);

    const pruning = recordingOutbox({ retentionMs: 1 });
    pruning.box.start();
    await vi.waitFor(async () => expect((await database.db.select({ n: count() }).from(outbox))[0]?.n).toBe(0), {
      timeout: 3_000,
    });
  });

  it('stops only after the batch in flight has finished', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const entered: string[] = [];
    const { box } = recordingOutbox({
      publish: async (event) => {
        entered.push(event.id);
        await gate;
      },
    });
    box.start();
    const id = await createWidget(box, 'w1');
    await vi.waitFor(() => expect(entered).toEqual([id]), { timeout: 2_000 });

    let stopped = false;
    const stopping = box.stop().then(() => {
      stopped = true;
    });
    await sleep(50);
    expect(stopped).toBe(false);
    release();
    await stopping;
    const [row] = await database.db.select().from(outbox).where(eq(outbox.id, id));
    expect(row?.publishedAt).toBeInstanceOf(Date);
  });
});
