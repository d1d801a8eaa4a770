import { createHash } from 'node:crypto';
import { ROLE_PERMISSIONS } from '@rootline/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBus, type TestBus, testGateway } from './support.js';

let bus: TestBus;
let app: FastifyInstance;
let session: { authorization: string };

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
  session = await bus.bearer('GROWER', 'usr_grower');
});
afterAll(async () => {
  await app?.close();
  await bus?.close();
});

const issue = (payload: object, headers: Record<string, string> = session) =>
  app.inject({ method: 'POST', url: '/api/auth/tokens', payload, headers });
const asToken = (token: string) => ({ authorization: `Bearer ${token}` });

describe('API tokens', () => {
  it('are issued once with a recognisable prefix; the secret is stored only as a hash', async () => {
    const res = await issue({ name: 'sensor', scopes: ['plants:read', 'plants:write'] });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      id: expect.stringMatching(/^tok_/),
      name: 'sensor',
      scopes: ['plants:read', 'plants:write'],
      expiresAt: null,
      lastUsedAt: null,
    });
    expect(data.token).toMatch(/^rlpat_[0-9A-Za-z]{46}$/);
    expect(data.hint).toBe(`rlpat_…${data.token.slice(-4)}`);
    const rows = JSON.stringify(await bus.database.db.execute(sql`select * from identity.api_tokens`));
    expect(rows).not.toContain(data.token);
    expect(rows).toContain(createHash('sha256').update(data.token).digest('hex'));
  });

  it("default to the owner's permissions, and are listed without their secrets", async () => {
    const { token, id } = (await issue({ name: 'everything' })).json().data;
    const list = await app.inject({ url: '/api/auth/tokens', headers: session });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(token);
    // A list answered whole (a local route's array) has its pagination beside it, like every list.
    const total = list.json().data.length;
    expect(list.json().pagination).toEqual({ page: 1, limit: total, total, totalPages: 1 });
    const listed = list.json().data.find((t: { id: string }) => t.id === id);
    expect(listed.scopes).toEqual([...ROLE_PERMISSIONS.GROWER].sort());
    expect(listed).not.toHaveProperty('token');
  });

  it('authenticate as their owner, limited to their scopes', async () => {
    const { token } = (await issue({ name: 'reader', scopes: ['account:read'] })).json().data;
    const me = await app.inject({ url: '/api/auth/session', headers: asToken(token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ user: { id: 'usr_grower', role: 'GROWER' }, credential: 'api-token' });
    const outOfScope = await app.inject({
      method: 'POST',
      url: '/api/auth/verify-email/resend',
      headers: asToken(token),
    });
    expect(outOfScope.statusCode).toBe(403);
    expect(outOfScope.json().error.message).toBe("The API token's scopes do not include account:write");
    // Use is recorded beside the request, not in its way: the list shows it shortly after.
    await expect
      .poll(async () => {
        const listed = (await app.inject({ url: '/api/auth/tokens', headers: session })).json().data;
        return listed.find((t: { name: string }) => t.name === 'reader').lastUsedAt;
      })
      .not.toBeNull();
  });

  it("cannot be issued with scopes beyond the owner's permissions", async () => {
    const res = await issue({ name: 'greedy', scopes: ['plants:read', 'admin:users', 'farm:write'] });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'FORBIDDEN',
      details: { field: 'body/scopes', excess: ['admin:users', 'farm:write'] },
    });
  });

  it('cannot issue other tokens', async () => {
    const { token } = (await issue({ name: 'account', scopes: ['account:read', 'account:write'] })).json().data;
    const res = await issue({ name: 'child' }, asToken(token));
    expect(res.statusCode).toBe(403);
  });

  it('stop working at once when revoked, and only their owner can revoke them', async () => {
    const { token, id } = (await issue({ name: 'short-lived' })).json().data;
    const other = await bus.bearer('USER', 'usr_other');
    const notYours = await app.inject({ method: 'DELETE', url: `/api/auth/tokens/${id}`, headers: other });
    expect(notYours.statusCode).toBe(404);
    expect((await app.inject({ url: '/api/auth/session', headers: asToken(token) })).statusCode).toBe(200);
    const revoked = await app.inject({ method: 'DELETE', url: `/api/auth/tokens/${id}`, headers: session });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.id).toBe(id);
    const after = await app.inject({ url: '/api/auth/session', headers: asToken(token) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.message).toBe('The API token is invalid, revoked or expired');
    const listed = (await app.inject({ url: '/api/auth/tokens', headers: session })).json().data;
    expect(listed.map((t: { id: string }) => t.id)).not.toContain(id);
    const twice = await app.inject({ method: 'DELETE', url: `/api/auth/tokens/${id}`, headers: session });
    expect(twice.statusCode).toBe(404);
  });

  it('expire at their expiry, which must lie in the future', async () => {
    const past = await issue({ name: 'past', expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.details).toEqual([{ field: 'body/expiresAt', message: 'must be in the future' }]);
    const { token, id } = (await issue({ name: 'soon', expiresAt: new Date(Date.now() + 60_000).toISOString() })).json()
      .data;
    expect((await app.inject({ url: '/api/auth/session', headers: asToken(token) })).statusCode).toBe(200);
    await bus.database.db.execute(
      sql`update identity.api_tokens set expires_at = now() - interval '1 second' where id = ${id}`,
    );
    expect((await app.inject({ url: '/api/auth/session', headers: asToken(token) })).statusCode).toBe(401);
  });

  it("never do more than the owner's current role allows", async () => {
    const admin = await bus.bearer('ADMIN', 'usr_boss');
    const { token } = (await issue({ name: 'admin tool', scopes: ['admin:users'] }, admin)).json().data;
    expect((await app.inject({ url: '/api/admin/users', headers: asToken(token) })).statusCode).toBe(200);
    // Demoted: the token keeps admin:users on paper, but the role no longer grants it.
    await bus.bearer('USER', 'usr_boss');
    const res = await app.inject({ url: '/api/admin/users', headers: asToken(token) });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('Role USER lacks the permission admin:users');
  });

  it('refuse a malformed, unknown or altered token with 401', async () => {
    const { token } = (await issue({ name: 'typo' })).json().data;
    for (const bad of [
      'rlpat_nope',
      `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`,
      `rlpat_${'A'.repeat(46)}`,
    ]) {
      const res = await app.inject({ url: '/api/auth/session', headers: asToken(bad) });
      expect(res.statusCode, bad).toBe(401);
    }
  });

  it('validate their input', async () => {
    expect((await issue({ name: '' })).json().error.details[0].field).toBe('body/name');
    expect((await issue({ name: 'x', scopes: ['plants:fly'] })).statusCode).toBe(400);
    expect((await issue({ name: 'x', scopes: [] })).statusCode).toBe(400);
    expect((await issue({ name: 'x', expiresAt: 'tomorrow' })).statusCode).toBe(400);
    const badId = await app.inject({ method: 'DELETE', url: '/api/auth/tokens/not-an-id', headers: session });
    expect(badId.statusCode).toBe(400);
  });
});
