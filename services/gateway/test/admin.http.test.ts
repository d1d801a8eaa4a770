import { userRoleChanged } from '@rootline/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectEvents, type EventLog, startTestBus, type TestBus, testGateway } from './support.js';

let bus: TestBus;
let app: FastifyInstance;
let roleChanges: EventLog<typeof userRoleChanged>;

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
  roleChanges = await collectEvents(bus.peer, userRoleChanged);
});
afterAll(async () => {
  await roleChanges?.stop();
  await app?.close();
  await bus?.close();
});

const setRole = (userId: string, role: string, headers: Record<string, string>) =>
  app.inject({ method: 'PUT', url: `/api/admin/users/${userId}/role`, payload: { role }, headers });

async function registered(email: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password: 'correct horse battery staple', name: 'Grower' },
  });
  return res.json().data.id;
}

describe('role administration', () => {
  it('lets an ADMIN change a role, which applies at once to the account’s existing session', async () => {
    const admin = await bus.bearer('ADMIN', 'usr_admin1');
    const id = await registered('grower@example.org');
    const signin = await app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: 'grower@example.org', password: 'correct horse battery staple' },
    });
    const userAuth = { authorization: `Bearer ${signin.json().data.token}` };
    const before = await app.inject({ url: '/api/auth/session', headers: userAuth });
    expect(before.json().data.user.role).toBe('USER');

    const res = await setRole(id, 'GROWER', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, role: 'GROWER' });
    const after = await app.inject({ url: '/api/auth/session', headers: userAuth });
    expect(after.json().data.user.role).toBe('GROWER');
    expect(await roleChanges.next((p) => p.userId === id)).toEqual({
      userId: id,
      role: 'GROWER',
      previousRole: 'USER',
      changedBy: 'usr_admin1',
    });
  });

  it('is refused to anyone but an ADMIN', async () => {
    const id = await registered('climber@example.org');
    for (const role of ['USER', 'GROWER', 'FARM_MANAGER'] as const) {
      const res = await setRole(id, 'ADMIN', await bus.bearer(role, `usr_${role.toLowerCase()}`));
      expect(res.statusCode, role).toBe(403);
    }
    expect((await setRole(id, 'ADMIN', {})).statusCode).toBe(401);
  });

  it('never demotes the last ADMIN', async () => {
    const fresh = await startTestBus();
    const solo = await testGateway(fresh);
    try {
      const seeded = await fresh.bearer('ADMIN', 'usr_seed_admin');
      const created = await solo.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: 'root@example.org', password: 'correct horse battery staple', name: 'Root' },
      });
      const rootId = created.json().data.id;
      const promote = await solo.inject({
        method: 'PUT',
        url: `/api/admin/users/${rootId}/role`,
        payload: { role: 'ADMIN' },
        headers: seeded,
      });
      expect(promote.statusCode).toBe(200);
      // The seeded ADMIN steps down: root is now the only ADMIN.
      await fresh.bearer('USER', 'usr_seed_admin');
      const signin = await solo.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: 'root@example.org', password: 'correct horse battery staple' },
      });
      const demote = await solo.inject({
        method: 'PUT',
        url: `/api/admin/users/${rootId}/role`,
        payload: { role: 'USER' },
        headers: { authorization: `Bearer ${signin.json().data.token}` },
      });
      expect(demote.statusCode).toBe(403);
      expect(demote.json().error.details).toEqual({ reason: 'LAST_ADMIN' });
      const still = await solo.inject({
        url: '/api/admin/users',
        headers: { authorization: `Bearer ${signin.json().data.token}` },
      });
      expect(still.statusCode).toBe(200);
    } finally {
      await solo.close();
      await fresh.close();
    }
  });

  it('answers 404 for an unknown account and 400 for an unknown role', async () => {
    const admin = await bus.bearer('ADMIN', 'usr_admin1');
    expect((await setRole('usr_01HZX3K6Q2W8N4B7T5R9V0C1MD', 'USER', admin)).statusCode).toBe(404);
    const bad = await setRole(await registered('typo@example.org'), 'ROOT', admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^body\/role/);
  });

  it('lists accounts for an ADMIN, a page at a time, without hashes', async () => {
    const admin = await bus.bearer('ADMIN', 'usr_admin1');
    const res = await app.inject({ url: '/api/admin/users?limit=2&page=1', headers: admin });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(2);
    expect(body.pagination).toMatchObject({ page: 1, limit: 2 });
    expect(body.pagination.total).toBeGreaterThanOrEqual(3);
    expect(res.body).not.toMatch(/\$2[aby]\$|\$argon2|passwordHash/);
    for (const page of ['1000', '1000000']) {
      const far = await app.inject({ url: `/api/admin/users?page=${page}`, headers: admin });
      expect(far.statusCode, page).toBe(200);
      expect(far.json().data).toEqual([]);
    }
    expect((await app.inject({ url: '/api/admin/users?page=0', headers: admin })).statusCode).toBe(400);
  });

  it('finds accounts by a piece of their email address or name, any case, and by role', async () => {
    const admin = await bus.bearer('ADMIN', 'usr_admin1');
    const ada = await registered('ada.lovelace@example.org');
    const grace = await registered('grace_hopper@example.org');
    await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'gh@example.org', password: 'correct horse battery staple', name: 'Grace Percent 100%' },
    });
    expect((await setRole(grace, 'FARM_MANAGER', admin)).statusCode).toBe(200);
    const list = async (query: string) => {
      const res = await app.inject({ url: `/api/admin/users?${query}`, headers: admin });
      expect(res.statusCode, query).toBe(200);
      return res.json() as { data: { id: string; email: string }[]; pagination: { total: number } };
    };
    const byEmail = await list('q=LOVELACE');
    expect(byEmail.data.map((u) => u.id)).toEqual([ada]);
    expect(byEmail.pagination.total).toBe(1);
    // `_` and `%` are the characters themselves, not wildcards.
    expect((await list('q=e_h')).data.map((u) => u.id)).toEqual([grace]);
    expect((await list('q=%25')).data.map((u) => u.email)).toEqual(['gh@example.org']);
    const managers = (await list('role=FARM_MANAGER')).data.map((u) => u.id);
    expect(managers).toContain(grace);
    expect(managers).not.toContain(ada);
    expect((await list('q=grace&role=FARM_MANAGER')).data.map((u) => u.id)).toEqual([grace]);
    expect((await list('q=grace&role=USER')).data.map((u) => u.email)).toEqual(['gh@example.org']);
    expect((await list('q=nobody-has-this')).pagination.total).toBe(0);
    const bad = await app.inject({ url: '/api/admin/users?role=ROOT', headers: admin });
    expect(bad.statusCode).toBe(400);
  });
});
