import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type Bus, createNatsBus } from '@rootline/bus';
import { AppError, defineSubject, statusSubject } from '@rootline/contracts';
import { type Database, openDatabase } from '@rootline/db';
import {
  createTestDatabase,
  freePort,
  type NatsServerHandle,
  startNatsServer,
  type TestDatabase,
} from '@rootline/testing';
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  call,
  createLogger,
  handle,
  loadConfig,
  type RunningService,
  type ServiceModule,
  startService,
  withBase,
} from '../src/index.js';

const echo = defineSubject({
  subject: 'notify.echo.run',
  request: Type.Object({ text: Type.String({ maxLength: 5 }), waitMs: Type.Optional(Type.Integer()) }),
  reply: Type.Object({
    text: Type.String(),
    requestId: Type.String(),
    actorId: Type.Union([Type.String(), Type.Null()]),
  }),
  summary: 'test echo',
});
const fail = defineSubject({
  subject: 'notify.fail.run',
  request: Type.Object({ kind: Type.String() }),
  reply: Type.Object({}),
  summary: 'test failure',
});

describe('loadConfig', () => {
  const schema = withBase({ PORT: Type.Integer({ default: 3000, minimum: 0, maximum: 65535 }) });

  it('applies defaults and converts strings to the schema types', () => {
    const cfg = loadConfig(schema, { PORT: '8080' });
    expect(cfg.PORT).toBe(8080);
    expect(cfg.NATS_URL).toBe('nats://127.0.0.1:4222');
    expect(cfg.LOG_LEVEL).toBe('info');
  });

  it('fails with an error that names the bad variable and its value', () => {
    expect(() => loadConfig(schema, { PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig(schema, { PORT: 'eighty' })).toThrow(/PORT.*"eighty"/);
    expect(() => loadConfig(schema, { LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(() => loadConfig(schema, { DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });
});

describe('startService on NATS', () => {
  let nats: NatsServerHandle;
  let serviceBus: Bus;
  let client: Bus;
  let running: RunningService;
  let pg: TestDatabase;
  /** A database the `db` failure uses after it was closed: every query fails as an outage would. */
  let closed: Database;
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });

  const mod: ServiceModule = {
    name: 'notify',
    version: '1.2.3',
    create: (ctx) => ({
      handlers: [
        handle(echo, async (input, caller) => {
          caller.log.info('echoing');
          if (input.waitMs) await new Promise((r) => setTimeout(r, input.waitMs));
          return { text: input.text, requestId: caller.requestId, actorId: caller.actor?.id ?? null };
        }),
        handle(fail, async ({ kind }) => {
          if (kind === 'app') throw new AppError('DUPLICATE', 'already there');
          if (kind === 'db') await closed.db.execute(sql`select 1`);
          throw new Error(`secret detail ${ctx.instanceId}`);
        }),
      ],
    }),
  };

  beforeAll(async () => {
    pg = await createTestDatabase('rl_host');
    closed = await openDatabase({ url: pg.url, dataDir: '' });
    await closed.close();
    nats = await startNatsServer();
    serviceBus = await createNatsBus({ url: nats.url, name: 'notify' });
    client = await createNatsBus({ url: nats.url, name: 'client' });
    running = await startService(mod, { bus: serviceBus, log: createLogger('notify', 'info', sink), env: {} });
  });
  afterAll(async () => {
    await running?.stop();
    await serviceBus?.close();
    await client?.close();
    await nats?.stop();
    await pg?.drop();
  });

  it('hands the handler validated input, the caller and a logger carrying the request id', async () => {
    const ctx = { requestId: 'req_abc', actor: { id: 'usr_9', role: 'USER' as const } };
    const reply = await call(client, echo, { text: 'hi' }, ctx);
    expect(reply).toEqual({ text: 'hi', requestId: 'req_abc', actorId: 'usr_9' });
    expect(lines.find((l) => l.msg === 'echoing')).toMatchObject({ requestId: 'req_abc', service: 'notify' });
  });

  it('answers VALIDATION_ERROR naming the field before the handler runs', async () => {
    await expect(call(client, echo, { text: 'too long' }, { requestId: 'r' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('text'),
    });
  });

  it('passes an AppError through and hides an unexpected error behind INTERNAL', async () => {
    await expect(call(client, fail, { kind: 'app' }, { requestId: 'r' })).rejects.toMatchObject({
      code: 'DUPLICATE',
      message: 'already there',
    });
    const err = await call(client, fail, { kind: 'boom' }, { requestId: 'r' }).catch((e: AppError) => e);
    expect(err).toMatchObject({ code: 'INTERNAL', message: 'Internal error' });
    expect(lines.some((l) => l.msg === 'handler failed')).toBe(true);
  });

  it('answers an unreachable database UNAVAILABLE with a retry time, not INTERNAL', async () => {
    const err = await call(client, fail, { kind: 'db' }, { requestId: 'r' }).catch((e: AppError) => e);
    expect(err).toMatchObject({ code: 'UNAVAILABLE', details: { retryAfterSeconds: 2 } });
    expect(lines.some((l) => l.msg === 'database unavailable')).toBe(true);
  });

  it('answers its status subject', async () => {
    const status = await call(client, statusSubject('notify'), {}, { requestId: 'r' });
    expect(status).toMatchObject({ service: 'notify', version: '1.2.3', database: 'none', outboxBacklog: 0 });
  });

  it('finishes in-flight requests on stop, then refuses new ones', async () => {
    const slow = call(client, echo, { text: 'slow', waitMs: 300 }, { requestId: 'r_slow' });
    await new Promise((r) => setTimeout(r, 50));
    await running.stop();
    await expect(slow).resolves.toMatchObject({ text: 'slow' });
    await expect(call(client, echo, { text: 'x' }, { requestId: 'r' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});

describe('a service process that cannot start', () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  const run = (env: NodeJS.ProcessEnv) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', 'src/index.ts'], {
        cwd: join(root, 'services', 'plants'),
        env: { ...process.env, ...env },
      });
      let stderr = '';
      child.stderr.on('data', (c) => {
        stderr += c;
      });
      child.on('exit', (code) => resolve({ code, stderr }));
    });

  it('names the unreachable NATS server', async () => {
    const port = await freePort();
    const out = await run({
      NATS_URL: `nats://127.0.0.1:${port}`,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
    });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`cannot reach NATS at nats://127.0.0.1:${port}`);
  });

  it('names a bad setting', async () => {
    const out = await run({ LOG_LEVEL: 'chatty' });
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/plants could not start: Invalid configuration:[\s\S]*LOG_LEVEL/);
  });

  it('requires DATABASE_URL when running on its own', async () => {
    const out = await run({ DATABASE_URL: '' });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('DATABASE_URL');
  });
});
