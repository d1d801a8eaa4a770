import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type Bus, createMemoryBroker, createNatsBus, openMemoryBroker } from '@rootline/bus';
import { contextToHeaders, defineEvent } from '@rootline/contracts';
import { type Database, executeRows, openDatabase, openEventLog } from '@rootline/db';
import { createTestDatabase, startNatsServer } from '@rootline/testing';
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, type RunningService, startService, subscribe } from '../src/index.js';
import { tallyRequested } from './fixtures/tally/src/events.js';
import { outbox } from './fixtures/tally/src/schema.js';
import { tallyService } from './fixtures/tally/src/service.js';
import { onTallyRequestedInBatches } from './fixtures/tally/src/subscribers/tally-requested.js';

const ACK_WAIT_MS = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quiet = { info() {}, warn() {}, error() {} };

async function until(what: string, ok: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A bus for the service and one for the publisher, on NATS + PostgreSQL or on the embedded broker + PGlite. */
interface Env {
  database: Database;
  serviceBus: Bus;
  publisher: Bus;
  teardown(): Promise<void>;
}

async function natsEnv(): Promise<Env> {
  const nats = await startNatsServer();
  const pg = await createTestDatabase('rl_inbox');
  const dataDir = await mkdtemp(join(tmpdir(), 'rl-inbox-'));
  const database = await openDatabase({ url: pg.url, dataDir });
  const serviceBus = await createNatsBus({ url: nats.url, name: 'notify', log: quiet });
  const publisher = await createNatsBus({ url: nats.url, name: 'publisher', log: quiet });
  return {
    database,
    serviceBus,
    publisher,
    teardown: async () => {
      await serviceBus.close();
      await publisher.close();
      await database.close();
      await nats.stop();
      await pg.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function memoryEnv(): Promise<Env> {
  const dataDir = await mkdtemp(join(tmpdir(), 'rl-inbox-'));
  const database = await openDatabase({ dataDir });
  const eventLog = await openEventLog({ database, log: { debug() {}, ...quiet } });
  const broker = await openMemoryBroker({ store: eventLog, log: quiet });
  const serviceBus = broker.connect('notify');
  const publisher = broker.connect('publisher');
  return {
    database,
    serviceBus,
    publisher,
    teardown: async () => {
      await serviceBus.close();
      await publisher.close();
      eventLog.stop();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each([
  ['nats', natsEnv],
  ['memory', memoryEnv],
] as const)('subscribers with an inbox on the %s bus', (_name, setup) => {
  let env: Env;
  let running: RunningService;
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });

  beforeAll(async () => {
    env = await setup();
    running = await startService(tallyService, {
      bus: env.serviceBus,
      database: env.database,
      log: createLogger('notify', 'debug', sink),
      env: { TALLY_ACK_WAIT_MS: String(ACK_WAIT_MS) },
    });
  });
  afterAll(async () => {
    await running?.stop();
    await env?.teardown();
  });

  async function publish(payload: { n: number; holdMs?: number; failFirst?: boolean }): Promise<string> {
    const id = `evt_${randomBytes(8).toString('hex')}`;
    await env.publisher.publish({
      id,
      subject: tallyRequested.subject,
      occurredAt: new Date().toISOString(),
      payload,
      headers: contextToHeaders({ requestId: `req_${id}` }),
    });
    return id;
  }

  async function state(eventId: string) {
    const [effect] = await executeRows<{ applied: number }>(
      env.database.db,
      sql`select applied from tally.effects where event_id = ${eventId}`,
    );
    const [inbox] = await executeRows<{ n: number }>(
      env.database.db,
      sql`select count(*)::int as n from tally.inbox where event_id = ${eventId}`,
    );
    const [followUps] = await executeRows<{ n: number }>(
      env.database.db,
      sql`select count(*)::int as n from ${outbox} where payload->>'eventId' = ${eventId}`,
    );
    return { applied: effect?.applied ?? 0, inbox: inbox!.n, followUps: followUps!.n };
  }

  it('applies an event delivered again while its first delivery still runs once, and skips the second', async () => {
    // The first delivery holds its transaction past the ack wait, so the bus delivers the same event id again.
    const id = await publish({ n: 1, holdMs: ACK_WAIT_MS * 3 });
    await until('the skipped redelivery', () =>
      lines.some((l) => l.msg === 'event already applied; skipped' && l.eventId === id),
    );
    await sleep(ACK_WAIT_MS * 2);
    expect(await state(id)).toEqual({ applied: 1, inbox: 1, followUps: 1 });
    expect(await running.inbox!.has('notify-count', id)).toBe(true);
  });

  it('rolls back the effect and the follow-up event of a failed delivery, and applies the retry once', async () => {
    const id = await publish({ n: 2, failFirst: true });
    await until('the retry applied', async () => (await state(id)).applied > 0);
    await sleep(ACK_WAIT_MS * 2);
    // Had the first delivery's writes (or its inbox record) committed, this would be 2 (or the retry skipped).
    expect(await state(id)).toEqual({ applied: 1, inbox: 1, followUps: 1 });
  });
});

describe.each([
  ['nats', natsEnv],
  ['memory', memoryEnv],
] as const)('batched subscribers with an inbox on the %s bus', (_name, setup) => {
  const BATCH_MAX = 10;
  let env: Env;
  let running: RunningService;
  /** The event ids of each batch the subscriber was called with, in order. */
  const batches: string[][] = [];
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });

  beforeAll(async () => {
    env = await setup();
    running = await startService(
      {
        ...tallyService,
        create: (ctx) => ({
          handlers: [],
          subscribers: [onTallyRequestedInBatches(ctx.outbox, ACK_WAIT_MS, BATCH_MAX, (ids) => batches.push(ids))],
        }),
      },
      { bus: env.serviceBus, database: env.database, log: createLogger('notify', 'debug', sink), env: {} },
    );
  });
  afterAll(async () => {
    await running?.stop();
    await env?.teardown();
  });

  async function publish(payload: { n: number; holdMs?: number; failFirst?: boolean }): Promise<string> {
    const id = `evt_${randomBytes(8).toString('hex')}`;
    await env.publisher.publish({
      id,
      subject: tallyRequested.subject,
      occurredAt: new Date().toISOString(),
      payload,
      headers: contextToHeaders({ requestId: `req_${id}` }),
    });
    return id;
  }

  async function states(ids: string[]) {
    const effects = await executeRows<{ event_id: string; applied: number }>(
      env.database.db,
      sql`select event_id, applied from tally.effects where event_id in ${ids}`,
    );
    const inboxRows = await executeRows<{ event_id: string }>(
      env.database.db,
      sql`select event_id from tally.inbox where event_id in ${ids}`,
    );
    const followUps = await executeRows<{ event_id: string }>(
      env.database.db,
      sql`select payload->>'eventId' as event_id from ${outbox} where payload->>'eventId' in ${ids}`,
    );
    const applied = Object.fromEntries(effects.map((r) => [r.event_id, r.applied]));
    return ids.map((id) => ({
      applied: applied[id] ?? 0,
      inbox: inboxRows.filter((r) => r.event_id === id).length,
      followUps: followUps.filter((r) => r.event_id === id).length,
    }));
  }
  const once = { applied: 1, inbox: 1, followUps: 1 };
  /** Batches that held any of the ids. */
  const batchesOf = (ids: string[]) => batches.filter((b) => b.some((id) => ids.includes(id)));

  it('applies many events in one transaction and acknowledges them after it commits', async () => {
    // The first event holds its batch open, so the others gather behind it into full batches.
    const holder = await publish({ n: 0, holdMs: 400 });
    const ids = [holder, ...(await Promise.all(Array.from({ length: 30 }, (_, i) => publish({ n: i + 1 }))))];
    await until('every event applied', async () => (await states(ids)).every((s) => s.applied === 1));
    // Acknowledged once committed: past the ack wait nothing comes again (a redelivery would show as a batch).
    await sleep(ACK_WAIT_MS * 2);
    expect(await states(ids)).toEqual(ids.map(() => once));
    const used = batchesOf(ids);
    expect(used.flat().sort()).toEqual([...ids].sort());
    expect(Math.max(...used.map((b) => b.length))).toBeGreaterThan(1);
    expect(Math.max(...used.map((b) => b.length))).toBeLessThanOrEqual(BATCH_MAX);
  });

  it('rolls back a batch that fails mid-way, applies its other events once and the failed one on redelivery', async () => {
    const holder = await publish({ n: 100, holdMs: 400 });
    const [failing, ...others] = await Promise.all([
      publish({ n: 103, failFirst: true }),
      ...[101, 102, 104, 105].map((n) => publish({ n })),
    ]);
    const ids = [holder, failing!, ...others];
    await until('every event applied', async () => (await states(ids)).every((s) => s.applied > 0));
    await sleep(ACK_WAIT_MS * 2);
    // Had the failed batch's writes committed, the events applied in it would show applied 2 (or be skipped).
    expect(await states(ids)).toEqual(ids.map(() => once));
    // The failing event was in a batch with others, and came back after its failure.
    expect(batchesOf([failing!]).some((b) => b.length > 1)).toBe(true);
    expect(lines.some((l) => l.msg === 'batch failed; applying its events one by one')).toBe(true);
  });

  it('skips an event delivered again after its first delivery committed in an earlier batch', async () => {
    // Its batch holds the transaction past the ack wait, so the bus delivers the event again meanwhile.
    const id = await publish({ n: 200, holdMs: ACK_WAIT_MS * 3 });
    await until('the skipped redelivery', () =>
      lines.some((l) => l.msg === 'events already applied; skipped' && (l.eventIds as string[]).includes(id)),
    );
    await sleep(ACK_WAIT_MS * 2);
    expect(await states([id])).toEqual([once]);
    // Offered to the subscriber once only: the second delivery was dropped by the inbox before it.
    expect(batches.flat().filter((e) => e === id)).toEqual([id]);
  });
});

describe('startService with subscribers', () => {
  it('refuses a service with a database and subscribers but no inbox table', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rl-inbox-'));
    const database = await openDatabase({ dataDir });
    const broker = await openMemoryBroker({
      store: await openEventLog({ database, log: { debug() {}, ...quiet } }),
      log: quiet,
    });
    try {
      const { inbox: _none, ...db } = tallyService.db!;
      await expect(
        startService(
          { ...tallyService, db },
          { bus: broker.connect(), database, log: createLogger('notify', 'silent'), env: {} },
        ),
      ).rejects.toThrow(/no inbox/);
    } finally {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('runs a subscriber of a service without a database at least once, with a transaction that refuses use', async () => {
    const ping = defineEvent({ subject: 'evt.notify.ping.sent', payload: Type.Object({ n: Type.Integer() }) });
    const broker = createMemoryBroker({ log: quiet });
    const seen: Array<{ n: number; txError: string }> = [];
    const running = await startService(
      {
        name: 'notify',
        version: '0.0.1',
        create: () => ({
          handlers: [],
          subscribers: [
            subscribe(ping, 'pings', async ({ n }, meta) => {
              let txError = '';
              try {
                meta.tx.select();
              } catch (err) {
                txError = (err as Error).message;
              }
              seen.push({ n, txError });
            }),
          ],
        }),
      },
      { bus: broker.connect(), log: createLogger('notify', 'silent'), env: {} },
    );
    try {
      await broker
        .connect()
        .publish({ id: 'evt_ping1', subject: ping.subject, occurredAt: '', payload: { n: 7 }, headers: {} });
      await until('the ping', () => seen.length === 1);
      expect(seen).toEqual([{ n: 7, txError: 'this service declares no database' }]);
    } finally {
      await running.stop();
    }
  });
});
