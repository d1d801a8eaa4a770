import { type Bus, createNatsBus } from '@rootline/bus';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../src/identity/db/schema.js';
import { seedSession, startTestBus, type TestBus, testGateway } from './support.js';

// Two gateway replicas with their own bus connections, one database: what two gateway processes would share.
let bus: TestBus;
let second: Bus;
let a: FastifyInstance;
let b: FastifyInstance;
const env = { SESSION_CACHE_MS: '60000' };

beforeAll(async () => {
  bus = await startTestBus();
  second = await createNatsBus({ url: bus.nats.url, name: 'gateway-b', log: { info() {}, warn() {}, error() {} } });
  a = await testGateway(bus, env);
  b = await testGateway({ ...bus, gatewayBus: second }, env);
  await Promise.all([a.ready(), b.ready()]);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await second?.close();
  await bus?.close();
});

const session = (app: FastifyInstance, token: string) =>
  app.inject({ url: '/api/auth/session', headers: { authorization: `Bearer ${token}` } });

describe('cached sessions across gateway replicas', () => {
  it('remembers a live session: a revocation written only to the database goes unseen while cached', async () => {
    const { token, sessionId } = await seedSession(bus.database, 'USER', 'usr_cached');
    expect((await session(b, token)).statusCode).toBe(200);
    await bus.database.db.update(sessions).set({ revokedAt: sql`now()` }).where(eq(sessions.id, sessionId));
    // Proof that replica B answers from its cache (so the next tests exercise the broadcast, not a lookup).
    expect((await session(b, token)).statusCode).toBe(200);
    // Replica A never cached it and reads the database.
    expect((await session(a, token)).statusCode).toBe(401);
  });

  it('ends a session on every replica within moments when it signs out on one', async () => {
    const { token } = await seedSession(bus.database, 'USER', 'usr_signout');
    expect((await session(b, token)).statusCode).toBe(200);
    const out = await a.inject({
      method: 'POST',
      url: '/api/auth/signout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.statusCode).toBe(200);
    // The broadcast reaches B asynchronously: within moments, long before the 60 s cache would have expired.
    await expect.poll(async () => (await session(b, token)).statusCode, { timeout: 5000, interval: 20 }).toBe(401);
  });

  it('applies a role change on every replica within moments', async () => {
    const { token } = await seedSession(bus.database, 'USER', 'usr_promoted0001');
    const before = await session(b, token);
    expect(before.json().data.user.role).toBe('USER');
    const admin = await seedSession(bus.database, 'ADMIN', 'usr_admin_cache');
    const changed = await a.inject({
      method: 'PUT',
      url: '/api/admin/users/usr_promoted0001/role',
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { role: 'GROWER' },
    });
    expect(changed.statusCode).toBe(200);
    await expect
      .poll(async () => (await session(b, token)).json().data.user.role, { timeout: 5000, interval: 20 })
      .toBe('GROWER');
  });
});
