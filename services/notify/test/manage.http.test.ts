import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plantRegistered } from '@rootline/contracts';
import { publishEvent, startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as notify } from '@rootline/notify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let p: TestPlatform;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'notify-manage-'));
  p = await startTestPlatform([notify], { DATA_DIR: dataDir, NOTIFY_POLL_MS: '50' });
});
afterAll(async () => {
  await p?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const notificationsOf = (userId: string, query = '') =>
  p.http('GET', `/api/notifications${query}`, { role: 'USER', sub: userId });

describe('managing notifications', () => {
  const owner = 'usr_manage';
  const as = (sub: string, role: 'USER' | 'ADMIN' = 'USER') => ({ role, sub });
  beforeAll(async () => {
    for (const name of ['One', 'Two', 'Three']) {
      await publishEvent(p.bus, plantRegistered, { plantId: `plt_${name}`, commonName: name, ownerId: owner });
    }
    for (let i = 0; i < 200 && (await notificationsOf(owner)).body.pagination?.total !== 3; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it('pages newest first, counts unread, marks one and then all read', async () => {
    const first = await p.http('GET', '/api/notifications?limit=2&page=2', as(owner));
    expect(first.body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(first.body.data).toHaveLength(1);
    expect((await p.http('GET', '/api/notifications/unread-count', as(owner))).body.data).toEqual({ unread: 3 });

    const [newest] = (await notificationsOf(owner)).body.data;
    const read = await p.http('POST', `/api/notifications/${newest.id}/read`, as(owner));
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: newest.id, read: true });
    const again = await p.http('POST', `/api/notifications/${newest.id}/read`, as(owner));
    expect(again.body.data.readAt).toBe(read.body.data.readAt);
    const unread = await notificationsOf(owner, '?unread=true');
    expect(unread.body.pagination.total).toBe(2);
    expect(unread.body.data.map((n: { id: string }) => n.id)).not.toContain(newest.id);

    expect((await p.http('POST', '/api/notifications/read-all', as(owner))).body.data).toEqual({ marked: 2 });
    expect((await p.http('GET', '/api/notifications/unread-count', as(owner))).body.data).toEqual({ unread: 0 });
  });

  it('hides one user’s notifications from another, but lets an ADMIN act on them', async () => {
    const [one] = (await notificationsOf(owner)).body.data;
    const stranger = await p.http('POST', `/api/notifications/${one.id}/read`, as('usr_stranger'));
    expect(stranger.status).toBe(404);
    expect(stranger.body.error.code).toBe('NOT_FOUND');
    expect((await p.http('DELETE', `/api/notifications/${one.id}`, as('usr_stranger'))).status).toBe(404);
    expect((await notificationsOf('usr_stranger')).body.data).toEqual([]);
    const admin = await p.http('DELETE', `/api/notifications/${one.id}`, as('usr_admin', 'ADMIN'));
    expect(admin.body.data).toEqual({ id: one.id, deleted: true });
    expect((await p.http('DELETE', `/api/notifications/${one.id}`, as(owner))).status).toBe(404);
    expect((await notificationsOf(owner)).body.pagination.total).toBe(2);
  });

  it('needs a signed-in caller', async () => {
    for (const [method, url] of [
      ['GET', '/api/notifications'],
      ['GET', '/api/notifications/unread-count'],
      ['GET', '/api/notifications/preferences'],
      ['POST', '/api/notifications/read-all'],
    ] as const) {
      const res = await p.http(method, url);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
  });

  it.each([
    [{}, ''],
    [{ fax: { email: true } }, 'fax'],
    [{ welcome: {} }, 'welcome'],
    [{ welcome: { email: 'yes' } }, 'email'],
    [{ account: { email: false } }, 'account'],
  ])('refuses invalid preferences with 400 (%#)', async (body, field) => {
    const res = await p.http('PATCH', '/api/notifications/preferences', { ...as(owner), body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
    expect(JSON.stringify(res.body.error.details ?? res.body.error.message)).toContain(field);
  });

  it('refuses a malformed notification id and paging out of bounds', async () => {
    expect((await p.http('POST', '/api/notifications/nope/read', as(owner))).status).toBe(400);
    expect((await p.http('GET', '/api/notifications?limit=101', as(owner))).status).toBe(400);
    expect((await p.http('GET', '/api/notifications?unread=maybe', as(owner))).status).toBe(400);
  });

  it('answers the defaults before any change', async () => {
    const res = await p.http('GET', '/api/notifications/preferences', as('usr_fresh'));
    expect(res.body.data['demand-match']).toEqual({ email: true, push: true, 'in-app': true });
    expect(res.body.data['weekly-digest']).toEqual({ email: true, push: false, 'in-app': false });
    expect(Object.keys(res.body.data)).not.toContain('account');
  });
});
