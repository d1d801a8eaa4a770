import type { ServedService } from '@rootline/bus';
import { type Actor, farmRegister, plantListOwned } from '@rootline/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers, organizations } from '../src/identity/db/schema.js';
import { seedOrganization, serve, startTestBus, type TestBus, testGateway } from './support.js';

let bus: TestBus;
let app: FastifyInstance;
const served: ServedService[] = [];
/** The actors the services were sent, in order. */
const seen: Actor[] = [];
let orgId: string;

// The services answer NOT_FOUND: a 404 shows the gateway let the request through, with the actor it sent.
const notFound = async (_payload: unknown, headers: Record<string, string>) => {
  seen.push(JSON.parse(headers['x-actor'] ?? 'null') as Actor);
  return { ok: false as const, error: { code: 'NOT_FOUND' as const, message: 'nothing here' } };
};

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
  served.push(await serve(bus.peer, 'plants', plantListOwned, notFound));
  served.push(await serve(bus.peer, 'farm', farmRegister, notFound));
  // Accounts first (each a USER with a session), then the organization that names them.
  for (const sub of ['usr_act_owner', 'usr_act_manager', 'usr_act_member', 'usr_act_viewer', 'usr_act_outsider']) {
    await bus.bearer('USER', sub);
  }
  orgId = await seedOrganization(bus.database, 'Northside Growers Co-op', {
    usr_act_owner: 'owner',
    usr_act_manager: 'manager',
    usr_act_member: 'member',
    usr_act_viewer: 'viewer',
  });
});
afterEach(() => {
  seen.length = 0;
});
afterAll(async () => {
  await Promise.all(served.map((s) => s.stop()));
  await app?.close();
  await bus?.close();
});

const as = async (sub: string, actAs?: string) => ({
  ...(await bus.bearer('USER', sub)),
  ...(actAs === undefined ? {} : { 'rootline-act-as': actAs }),
});
const readOwned = async (sub: string, actAs?: string, ownerId = orgId) =>
  app.inject({ method: 'GET', url: `/api/plants/owned/${ownerId}`, headers: await as(sub, actAs) });
const FARM = {
  name: 'Basement Greens',
  location: { latitude: 52.37, longitude: 4.9 },
  floorAreaM2: 40,
  levels: 3,
  lightingSystem: 'led',
  climateSystem: 'hvac',
};
const registerFarm = async (sub: string, actAs?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/vertical-farm/register',
    headers: await as(sub, actAs),
    payload: FARM,
  });

describe('acting for an organization (Rootline-Act-As)', () => {
  it('sends the services an actor that names the organization, the role read on this request and its name', async () => {
    const res = await readOwned('usr_act_member', orgId);
    expect(res.statusCode, res.body).toBe(404);
    expect(seen.at(-1)).toEqual({
      id: 'usr_act_member',
      role: 'USER',
      org: { id: orgId, role: 'member', name: 'Northside Growers Co-op' },
    });
    // Without the header a request acts for the account alone, as before; its own id is the only owner it names.
    expect((await readOwned('usr_act_member', undefined, 'usr_act_member')).statusCode).toBe(404);
    expect(seen.at(-1)).toEqual({ id: 'usr_act_member', role: 'USER' });
    const notSelf = await readOwned('usr_act_member');
    expect(notSelf.statusCode).toBe(403);
    expect(notSelf.json().error.details).toMatchObject({ reason: 'not-self' });
  });

  it('lets a viewer read for the organization but not change anything', async () => {
    expect((await readOwned('usr_act_viewer', orgId)).statusCode).toBe(404);
    expect(seen.at(-1)?.org).toMatchObject({ id: orgId, role: 'viewer' });
    const write = await registerFarm('usr_act_viewer', orgId);
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({
      success: false,
      data: null,
      // Registering a farm asks the route's organization role (manager), declared with the route.
      error: { code: 'FORBIDDEN', details: { reason: 'org-role', required: 'manager', role: 'viewer' } },
    });
    expect(seen).toHaveLength(1);
  });

  it('refuses an outsider, an unknown and a malformed organization in the envelope, telling nothing more', async () => {
    const outsider = await readOwned('usr_act_outsider', orgId);
    const unknown = await readOwned('usr_act_outsider', 'org_00000000000000000000000000');
    for (const res of [outsider, unknown]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        success: false,
        data: null,
        error: { code: 'FORBIDDEN', details: { reason: 'not-a-member' } },
      });
    }
    const malformed = await readOwned('usr_act_member', 'usr_act_owner');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'header/rootline-act-as' },
    });
    expect(seen).toHaveLength(0);
  });

  it('gives an organization’s members farm writes without the account role FARM_MANAGER', async () => {
    const alone = await registerFarm('usr_act_manager');
    expect(alone.statusCode).toBe(403);
    expect(alone.json().error.details).toMatchObject({ permission: 'farm:write' });
    const acting = await registerFarm('usr_act_manager', orgId);
    expect(acting.statusCode, acting.body).toBe(404);
    expect(seen.at(-1)?.org).toMatchObject({ id: orgId, role: 'manager' });
  });

  it('takes a removal or a lowered role into account on the very next request, by session and API token', async () => {
    const member = await as('usr_act_member', orgId);
    const issued = await app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: await as('usr_act_member'),
      payload: { name: 'co-op script', scopes: ['plants:read'] },
    });
    expect(issued.statusCode, issued.body).toBe(201);
    const token = { authorization: `Bearer ${issued.json().data.token}`, 'rootline-act-as': orgId };
    const farmAs = (headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/api/vertical-farm/register',
        headers,
        payload: FARM,
      });
    expect((await app.inject({ url: `/api/plants/owned/${orgId}`, headers: token })).statusCode).toBe(404);

    const { db } = bus.database;
    await db
      .update(organizationMembers)
      .set({ role: 'viewer' })
      .where(eq(organizationMembers.userId, 'usr_act_member'));
    for (const headers of [member, token]) {
      const res = await farmAs(headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.details).toMatchObject({ reason: 'org-role', role: 'viewer' });
    }
    await db.delete(organizationMembers).where(eq(organizationMembers.userId, 'usr_act_member'));
    for (const headers of [member, token]) {
      const res = await app.inject({ url: `/api/plants/owned/${orgId}`, headers });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.details).toMatchObject({ reason: 'not-a-member' });
    }
  });

  it('issues a token for the organization to its managers only, which then always acts for it, and for it alone', async () => {
    const issue = async (sub: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/tokens',
        headers: await as(sub, orgId),
        payload: { name: 'co-op greenhouse', scopes: ['plants:read'] },
      });
    const byViewer = await issue('usr_act_viewer');
    expect(byViewer.statusCode).toBe(403);
    expect(byViewer.json().error.details).toMatchObject({ reason: 'org-role', required: 'manager' });
    const issued = await issue('usr_act_manager');
    expect(issued.statusCode, issued.body).toBe(201);
    expect(issued.json().data.organizationId).toBe(orgId);
    const bearer = { authorization: `Bearer ${issued.json().data.token}` };

    expect((await app.inject({ url: `/api/plants/owned/${orgId}`, headers: bearer })).statusCode).toBe(404);
    expect(seen.at(-1)).toMatchObject({ id: 'usr_act_manager', org: { id: orgId, role: 'manager' } });
    const other = await seedOrganization(bus.database, 'Other Co-op', { usr_act_manager: 'owner' });
    const elsewhere = await app.inject({
      url: `/api/plants/owned/${other}`,
      headers: { ...bearer, 'rootline-act-as': other },
    });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().error.details).toMatchObject({ reason: 'token-organization', organizationId: orgId });

    await bus.database.db.delete(organizationMembers).where(eq(organizationMembers.userId, 'usr_act_manager'));
    const removed = await app.inject({ url: `/api/plants/owned/${orgId}`, headers: bearer });
    expect(removed.statusCode).toBe(403);
    expect(removed.json().error.details).toMatchObject({ reason: 'not-a-member' });
  });

  it('refuses to act for a dissolved organization', async () => {
    const gone = await seedOrganization(bus.database, 'Gone Seed Library', { usr_act_owner: 'owner' });
    expect((await readOwned('usr_act_owner', gone, gone)).statusCode).toBe(404);
    await bus.database.db
      .update(organizations)
      .set({ dissolvedAt: new Date(), dissolvedBy: 'usr_act_owner' })
      .where(eq(organizations.id, gone));
    const res = await readOwned('usr_act_owner', gone, gone);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.details).toMatchObject({ reason: 'not-a-member' });
  });
});
