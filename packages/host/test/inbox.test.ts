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
