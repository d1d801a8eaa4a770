import { emailVerificationRequested, passwordChanged, passwordResetRequested } from '@rootline/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectEvents, type EventLog, emailLink, sleep, startTestBus, type TestBus, testGateway } from './support.js';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new passphrase';
let bus: TestBus;
let app: FastifyInstance;
let verification: EventLog<typeof emailVerificationRequested>;
let resets: EventLog<typeof passwordResetRequested>;
let changes: EventLog<typeof passwordChanged>;
let ip = 0;

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
  verification = await collectEvents(bus.peer, emailVerificationRequested);
  resets = await collectEvents(bus.peer, passwordResetRequested);
  changes = await collectEvents(bus.peer, passwordChanged);
});
afterAll(async () => {
  for (const log of [verification, resets, changes]) await log?.stop();
  await app?.close();
  await bus?.close();
});

/** Each call from its own client address, so the per-IP limits (tested elsewhere) stay out of the way. */
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url, payload, headers, remoteAddress: `10.1.0.${(ip++ % 250) + 1}` });

async function account(email: string) {
  const res = await post('/api/auth/register', { email, password: PASSWORD, name: 'Test' });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string };
}
async function signIn(email: string, password = PASSWORD) {
  return post('/api/auth/signin', { email, password });
}
async function tokenOf(email: string, password = PASSWORD): Promise<string> {
  const res = await signIn(email, password);
  expect(res.statusCode).toBe(200);
  return res.json().data.token;
}

describe('email verification', () => {
  it('confirms the address with the token from the event, once', async () => {
    const user = await account('verify@example.org');
    const { token } = await emailLink(bus.peer, await verification.next((p) => p.userId === user.id));
    const res = await post('/api/auth/verify-email', { token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: user.id, emailVerified: true });
    const again = await post('/api/auth/verify-email', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'body/token is invalid, used or expired',
    });
  });

  it('refuses an unknown token and validates its shape', async () => {
    expect((await post('/api/auth/verify-email', { token: 'x'.repeat(43) })).statusCode).toBe(400);
    const short = await post('/api/auth/verify-email', { token: 'abc' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.details[0].field).toBe('body/token');
  });

  it('sends a new link on request, and the earlier one stops working', async () => {
    const user = await account('resend@example.org');
    const first = await emailLink(bus.peer, await verification.next((p) => p.userId === user.id));
    const auth = { authorization: `Bearer ${await tokenOf('resend@example.org')}` };
    const res = await post('/api/auth/verify-email/resend', {}, auth);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.message).toBe('A new verification link is on its way');
    const second = await emailLink(
      bus.peer,
      await verification.next((p) => p.userId === user.id && p.linkId !== first.linkId),
    );
    expect((await post('/api/auth/verify-email', { token: first.token })).statusCode).toBe(400);
    expect((await post('/api/auth/verify-email', { token: second.token })).statusCode).toBe(200);
    const done = await post('/api/auth/verify-email/resend', {}, auth);
    expect(done.json().data.message).toBe('The address is already confirmed');
  });

  it('refuses an expired token', async () => {
    const user = await account('late@example.org');
    const { token } = await emailLink(bus.peer, await verification.next((p) => p.userId === user.id));
    await bus.database.db.execute(
      sql`update identity.account_tokens set expires_at = now() - interval '1 second' where user_id = ${user.id}`,
    );
    expect((await post('/api/auth/verify-email', { token })).statusCode).toBe(400);
  });
});

describe('password reset', () => {
  it('answers known and unknown addresses identically, and only a known one gets a link', async () => {
    const user = await account('forgetful@example.org');
    const known = await post('/api/auth/forgot-password', { email: 'Forgetful@example.org' });
    const unknown = await post('/api/auth/forgot-password', { email: 'stranger@example.org' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(known.json().data).toEqual({ message: 'If an account uses that address, a reset link is on its way' });
    const link = await emailLink(bus.peer, await resets.next((p) => p.userId === user.id));
    expect(link).toMatchObject({ email: 'forgetful@example.org', name: 'Test' });
    expect(link.linkPath).toBe(`/reset-password?token=${link.token}`);
    const ttl = Date.parse(link.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(55 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(60 * 60 * 1000);
    await sleep(300);
    expect(resets.payloads.filter((p) => p.email === 'stranger@example.org')).toEqual([]);
  });

  it('sets the new password, ends every session of the account, and works only once', async () => {
    const user = await account('reset@example.org');
    const sessions = [await tokenOf('reset@example.org'), await tokenOf('reset@example.org')];
    await post('/api/auth/forgot-password', { email: 'reset@example.org' });
    const { token } = await emailLink(bus.peer, await resets.next((p) => p.userId === user.id));

    const res = await post('/api/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.message).toBe('Password changed: sign in with the new password');
    for (const t of sessions) {
      const s = await app.inject({ url: '/api/auth/session', headers: { authorization: `Bearer ${t}` } });
      expect(s.statusCode).toBe(401);
    }
    expect((await signIn('reset@example.org')).statusCode).toBe(401);
    const signedIn = await signIn('reset@example.org', NEW_PASSWORD);
    expect(signedIn.statusCode).toBe(200);
    // The link reached the mailbox: the address counts as confirmed.
    expect(signedIn.json().data.user.emailVerified).toBe(true);
    expect(await changes.next((p) => p.userId === user.id)).toMatchObject({ email: 'reset@example.org' });

    const reuse = await post('/api/auth/reset-password', { token, password: 'yet another passphrase' });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error.message).toBe('body/token is invalid, used or expired');
  });

  it('refuses a weak new password without using up the link', async () => {
    const user = await account('weak@example.org');
    await post('/api/auth/forgot-password', { email: 'weak@example.org' });
    const { token } = await emailLink(bus.peer, await resets.next((p) => p.userId === user.id));
    // Too short is refused by the schema, too common by the policy; neither uses up the link.
    const short = await post('/api/auth/reset-password', { token, password: 'weak' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.message).toBe('body/password must NOT have fewer than 10 characters');
    const weak = await post('/api/auth/reset-password', { token, password: 'password123' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.details).toEqual([
      { field: 'body/password', message: 'is too common', reason: 'password-common' },
    ]);
    expect((await post('/api/auth/reset-password', { token, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('only the latest link works, and an expired one does not', async () => {
    const user = await account('twice@example.org');
    await post('/api/auth/forgot-password', { email: 'twice@example.org' });
    const first = await emailLink(bus.peer, await resets.next((p) => p.userId === user.id));
    await post('/api/auth/forgot-password', { email: 'twice@example.org' });
    const second = await emailLink(
      bus.peer,
      await resets.next((p) => p.userId === user.id && p.linkId !== first.linkId),
    );
    expect((await post('/api/auth/reset-password', { token: first.token, password: NEW_PASSWORD })).statusCode).toBe(
      400,
    );
    await bus.database.db.execute(
      sql`update identity.account_tokens set expires_at = now() - interval '1 second' where user_id = ${user.id}`,
    );
    expect((await post('/api/auth/reset-password', { token: second.token, password: NEW_PASSWORD })).statusCode).toBe(
      400,
    );
  });

  it('stores only hashes of the link tokens', async () => {
    const user = await account('hashed@example.org');
    await post('/api/auth/forgot-password', { email: 'hashed@example.org' });
    const { token } = await emailLink(bus.peer, await resets.next((p) => p.userId === user.id));
    const rows = await bus.database.db.execute(
      sql`select token_hash from identity.account_tokens where user_id = ${user.id}`,
    );
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(token);
    expect(stored).toMatch(/[0-9a-f]{64}/);
  });
});
