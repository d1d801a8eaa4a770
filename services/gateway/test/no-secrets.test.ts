import { Writable } from 'node:stream';
import { emailVerificationRequested, passwordResetRequested } from '@rootline/contracts';
import { createLogger } from '@rootline/host';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectEvents, type EventLog, emailLink, sleep, startTestBus, type TestBus, testGateway } from './support.js';

const PASSWORD = 'first secret passphrase';
const NEW_PASSWORD = 'second secret passphrase';
let bus: TestBus;
let app: FastifyInstance;
const logLines: string[] = [];
let verification: EventLog<typeof emailVerificationRequested>;
let resets: EventLog<typeof passwordResetRequested>;

/** Every response the test saw, and whether it is one whose job is to hand out a secret. */
const responses: { text: string; issues: boolean }[] = [];

beforeAll(async () => {
  bus = await startTestBus();
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  // Everything the gateway logs, at the most verbose level.
  app = await testGateway(bus, { LOG_LEVEL: 'trace' }, createLogger('gateway', 'trace', sink));
  verification = await collectEvents(bus.peer, emailVerificationRequested);
  resets = await collectEvents(bus.peer, passwordResetRequested);
});
afterAll(async () => {
  await verification?.stop();
  await resets?.stop();
  await app?.close();
  await bus?.close();
});

async function send(opts: InjectOptions, issues = false): Promise<LightMyRequestResponse> {
  const res = await app.inject(opts);
  responses.push({ text: `${JSON.stringify(res.headers)}\n${res.body}`, issues });
  return res;
}

describe('secrets never leak', () => {
  it('into any response, log line, stored event or outbox row, through every identity flow', async () => {
    const reg = await send({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'leak@example.org', password: PASSWORD, name: 'Leak' },
    });
    const userId = reg.json().data.id;
    await send({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: 'leak@example.org', password: 'wrong wrong wrong' },
    });
    const signin = await send(
      { method: 'POST', url: '/api/auth/signin', payload: { email: 'leak@example.org', password: PASSWORD } },
      true,
    );
    const jwt = signin.json().data.token as string;
    const bearer = { authorization: `Bearer ${jwt}` };
    await send({ url: '/api/auth/session', headers: bearer });
    const csrf = (await send({ url: '/api/auth/csrf', cookies: { rootline_session: jwt } }, true)).json().data
      .csrfToken;
    await send({ url: '/api/auth/session', cookies: { rootline_session: jwt } });

    const created = await send(
      { method: 'POST', url: '/api/auth/tokens', payload: { name: 'leaky' }, headers: bearer },
      true,
    );
    const apiToken = created.json().data.token as string;
    await send({ url: '/api/auth/tokens', headers: bearer });
    await send({ url: '/api/auth/session', headers: { authorization: `Bearer ${apiToken}` } });
    await send({ method: 'DELETE', url: `/api/auth/tokens/${created.json().data.id}`, headers: bearer });
    await send({ url: '/api/auth/session', headers: { authorization: `Bearer ${apiToken}` } });

    const verifyToken = (await emailLink(bus.peer, await verification.next((p) => p.userId === userId))).token;
    await send({ method: 'POST', url: '/api/auth/verify-email', payload: { token: verifyToken } });
    await send({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'leak@example.org' } });
    const resetToken = (await emailLink(bus.peer, await resets.next((p) => p.userId === userId))).token;
    await send({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: resetToken, password: NEW_PASSWORD },
    });
    await send({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: resetToken, password: NEW_PASSWORD },
    });
    await send({
      method: 'POST',
      url: '/api/auth/signout',
      cookies: { rootline_session: jwt },
      headers: { 'x-csrf-token': csrf },
    });
    // A provider callback carries a code and a state in its URL; the request log must not.
    await send({ url: '/api/auth/callback/github?code=oauth-code-secret-123&state=oauth-state-secret-456' });

    const rows = (await bus.database.db.execute(sql`
      select password_hash as h from identity.users
      union all select token_hash from identity.api_tokens
      union all select token_hash from identity.account_tokens`)) as unknown as { h: string }[];
    const hashes = rows.map((r) => r.h).filter(Boolean);
    expect(hashes.length).toBeGreaterThanOrEqual(4);

    const secrets: Record<string, string> = {
      password: PASSWORD,
      'new password': NEW_PASSWORD,
      'session JWT': jwt,
      'JWT signature': jwt.split('.')[2]!,
      'API token': apiToken,
      'verification token': verifyToken,
      'reset token': resetToken,
      'CSRF token': csrf,
      'OAuth code': 'oauth-code-secret-123',
      'OAuth state': 'oauth-state-secret-456',
      ...Object.fromEntries(hashes.map((h, i) => [`stored hash ${i}`, h])),
    };
    // The logs are real and detailed: requests, their URLs, the failures.
    expect(logLines.length).toBeGreaterThan(30);
    expect(logLines.join('\n')).toContain('/api/auth/callback/github?code=%5Bredacted%5D');

    // Nothing durable holds a secret: every event on the stream, read back from its start, and the outbox.
    const stored: string[] = [];
    const audit = await bus.peer.consume({
      durable: 'no-secrets-audit',
      subject: 'evt.>',
      handler: async (e) => void stored.push(JSON.stringify(e)),
    });
    // user.registered, the verification and reset requests, password.changed.
    await expect.poll(() => stored.length).toBeGreaterThanOrEqual(4);
    await sleep(300);
    await audit.stop();
    expect(stored.some((e) => e.includes(verification.payloads[0]!.linkId))).toBe(true);
    const outboxRows = await bus.database.db.execute(sql`select payload from identity.outbox`);

    const leaks: string[] = [];
    for (const [name, secret] of Object.entries(secrets)) {
      stored.forEach((e, i) => {
        if (e.includes(secret)) leaks.push(`event ${i} on the stream contains the ${name}: ${e.slice(0, 200)}`);
      });
      if (JSON.stringify(outboxRows).includes(secret)) leaks.push(`the outbox contains the ${name}`);
    }
    for (const [name, secret] of Object.entries(secrets)) {
      logLines.forEach((line, i) => {
        if (line.includes(secret)) leaks.push(`log line ${i} contains the ${name}: ${line.slice(0, 200)}`);
      });
    }
    for (const [name, secret] of Object.entries(secrets)) {
      const handedOut = ['session JWT', 'JWT signature', 'API token', 'CSRF token'].includes(name);
      responses.forEach((r, i) => {
        if (r.text.includes(secret) && !(handedOut && r.issues)) leaks.push(`response ${i} contains the ${name}`);
      });
    }
    expect(leaks).toEqual([]);
    // And responses never show a hash of any kind.
    for (const r of responses) expect(r.text).not.toMatch(/\$2[aby]\$\d\d\$|\$argon2id\$/);
  });
});
