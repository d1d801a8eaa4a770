import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Database, executeRows, openDatabase } from '@rootline/db';
import { createTestDatabase, type NatsServerHandle, startNatsServer, type TestDatabase } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * Exactly-once consumption across process deaths, on both buses: a consumer process (fixtures/tally/run.ts) is
 * killed with SIGKILL and restarted on the same database and bus; every event must have had its effect once.
 */

const RUNNER = fileURLToPath(new URL('./fixtures/tally/run.ts', import.meta.url));
const ACK_WAIT_MS = 1500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Child {
  /** Latest `effects <rows> <applications>` line. */
  effects(): { rows: number; applications: number };
  published(): boolean;
  exited: Promise<void>;
  proc: ChildProcess;
}

function start(env: NodeJS.ProcessEnv): Child {
  const proc = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', RUNNER], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, LOG_LEVEL: 'warn', TALLY_ACK_WAIT_MS: String(ACK_WAIT_MS), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let rows = 0;
  let applications = 0;
  let published = false;
  let buffer = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      if (line === 'published') published = true;
      const m = /^effects (\d+) (\d+)$/.exec(line);
      if (m) {
        rows = Number(m[1]);
        applications = Number(m[2]);
      }
    }
  });
  proc.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return { effects: () => ({ rows, applications }), published: () => published, exited, proc };
}

async function until(what: string, ok: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

async function kill(child: Child, signal: NodeJS.Signals): Promise<void> {
  if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill(signal);
  await child.exited;
}

interface Place {
  env: NodeJS.ProcessEnv;
  open(): Promise<Database>;
  remove(): Promise<void>;
}

async function place(bus: 'nats' | 'memory'): Promise<Place> {
  const dataDir = await mkdtemp(join(tmpdir(), 'rl-tally-'));
  if (bus === 'memory') {
    return {
      env: { BUS: 'memory', DATA_DIR: dataDir },
      open: () => openDatabase({ dataDir }),
      remove: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  let nats: NatsServerHandle | undefined;
  let pg: TestDatabase | undefined;
  try {
    nats = await startNatsServer();
    pg = await createTestDatabase('rl_tally');
  } catch (err) {
    await nats?.stop();
    throw err;
  }
  const { url } = pg;
  return {
    env: { BUS: 'nats', NATS_URL: nats.url, DATABASE_URL: url },
    open: () => openDatabase({ url, dataDir }),
    remove: async () => {
      await nats.stop();
      await pg.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** What the database says after the run: effects, how often they were applied, inbox rows and follow-ups. */
async function outcome(p: Place) {
  const database = await p.open();
  try {
    const [row] = await executeRows<{ rows: number; applications: number; most: number }>(
      database.db,
      sql`select count(*)::int as rows, coalesce(sum(applied), 0)::int as applications,
                 coalesce(max(applied), 0)::int as most from tally.effects`,
    );
    const [inbox] = await executeRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from tally.inbox where consumer = 'notify-count'`,
    );
    const [followUps] = await executeRows<{ n: number; distinct: number }>(
      database.db,
      sql`select count(*)::int as n, count(distinct payload->>'eventId')::int as distinct
          from tally.outbox where subject = 'evt.notify.tally.counted'`,
    );
    return { ...row!, inbox: inbox!.n, followUps: followUps!.n, distinctFollowUps: followUps!.distinct };
  } finally {
    await database.close();
  }
}

// Each case starts two processes (PGlite's first open of a data directory alone takes seconds).
describe.each(['nats', 'memory'] as const)('exactly-once consumption on the %s bus', { timeout: 120_000 }, (bus) => {
  let p: Place;
  const children: Child[] = [];
  const run = `r${Date.now().toString(36)}`;

  beforeEach(async () => {
    p = await place(bus);
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map((c) => kill(c, 'SIGKILL')));
    await p?.remove();
  });

  const spawnChild = (env: NodeJS.ProcessEnv) => {
    const c = start({ ...p.env, RUN: run, ...env });
    children.push(c);
    return c;
  };

  it('applies every event once when the consumer is killed mid-batch and restarted', async () => {
    const total = 40;
    // Acks lag 300 ms behind each commit, so the kill finds applied events unacknowledged: they come back.
    const first = spawnChild({ PUBLISH: String(total), CONSUME: '1', HOLD_MS: '50', ACK_DELAY_MS: '300' });
    await until('a third of the events applied', () => first.effects().rows >= total / 3);
    await kill(first, 'SIGKILL');

    const cut = await outcome(p);
    // Killed mid-batch: some events applied, some not.
    expect(cut.rows).toBeGreaterThan(0);
    expect(cut.rows).toBeLessThan(total);

    const second = spawnChild({ CONSUME: '1' });
    await until('every event applied', () => second.effects().rows === total);
    // Late redeliveries (deliveries cut off by the kill come back after the ack wait) must change nothing.
    await sleep(ACK_WAIT_MS + 500);
    expect(second.effects()).toEqual({ rows: total, applications: total });
    await kill(second, 'SIGTERM');

    expect(await outcome(p)).toEqual({
      rows: total,
      applications: total,
      most: 1,
      inbox: total,
      followUps: total,
      distinctFollowUps: total,
    });
  });

  it('applies every event once when a batched consumer is killed mid-batch and restarted', async () => {
    const total = 60;
    // Batches of up to 8 in one transaction each, acks 300 ms behind each commit: the kill finds whole committed
    // batches unacknowledged, and at most one batch uncommitted.
    const first = spawnChild({
      PUBLISH: String(total),
      CONSUME: '1',
      HOLD_MS: '20',
      ACK_DELAY_MS: '300',
      TALLY_BATCH: '8',
    });
    // The first open of a PGlite directory and 60 publishes come first: slow on a busy machine.
    await until('a third of the events applied', () => first.effects().rows >= total / 3, 60_000);
    await kill(first, 'SIGKILL');

    const cut = await outcome(p);
    expect(cut.rows).toBeGreaterThan(0);
    expect(cut.rows).toBeLessThan(total);

    const second = spawnChild({ CONSUME: '1', TALLY_BATCH: '8' });
    await until('every event applied', () => second.effects().rows === total);
    await sleep(ACK_WAIT_MS + 500);
    expect(second.effects()).toEqual({ rows: total, applications: total });
    await kill(second, 'SIGTERM');

    expect(await outcome(p)).toEqual({
      rows: total,
      applications: total,
      most: 1,
      inbox: total,
      followUps: total,
      distinctFollowUps: total,
    });
  });

  it('delivers an event published before a crash and not yet consumed, once, after the restart', async () => {
    const first = spawnChild({ PUBLISH: '5', CONSUME: '0' });
    await until('published', () => first.published());
    await kill(first, 'SIGKILL');

    const second = spawnChild({ CONSUME: '1' });
    await until('the events applied', () => second.effects().rows === 5);
    await kill(second, 'SIGTERM');

    expect(await outcome(p)).toMatchObject({ rows: 5, applications: 5, most: 1, inbox: 5, followUps: 5 });
  });
});
