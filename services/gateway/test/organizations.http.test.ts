import { newId } from '@rootline/contracts';
import {
  organizationCreated,
  organizationInvitationIssue,
  organizationInvitationSent,
  organizationMemberAdded,
  organizationMemberLeft,
  organizationMemberRemoved,
  organizationMemberRoleChanged,
} from '@rootline/contracts/organizations';
import { call } from '@rootline/host';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectEvents, type EventLog, startTestBus, type TestBus, testGateway } from './support.js';

let bus: TestBus;
let app: FastifyInstance;
let ada: { authorization: string };
let grace: { authorization: string };
let carl: { authorization: string };
let sent: EventLog<typeof organizationInvitationSent>;
let created: EventLog<typeof organizationCreated>;
let added: EventLog<typeof organizationMemberAdded>;
let roleChanged: EventLog<typeof organizationMemberRoleChanged>;
let removed: EventLog<typeof organizationMemberRemoved>;
let left: EventLog<typeof organizationMemberLeft>;

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
  ada = await bus.bearer('USER', 'usr_org_ada');
  grace = await bus.bearer('GROWER', 'usr_org_grace');
  carl = await bus.bearer('USER', 'usr_org_carl');
  sent = await collectEvents(bus.peer, organizationInvitationSent);
  created = await collectEvents(bus.peer, organizationCreated);
  added = await collectEvents(bus.peer, organizationMemberAdded);
  roleChanged = await collectEvents(bus.peer, organizationMemberRoleChanged);
  removed = await collectEvents(bus.peer, organizationMemberRemoved);
  left = await collectEvents(bus.peer, organizationMemberLeft);
});
afterAll(async () => {
  for (const log of [sent, created, added, roleChanged, removed, left]) await log?.stop();
  await app?.close();
  await bus?.close();
});

const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: object = {}, payload?: object) =>
  app.inject({ method, url, headers: headers as Record<string, string>, ...(payload ? { payload } : {}) });

const LOCATION = { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' };

async function createOrg(headers: object, name = 'Riverside Seed Library') {
  const res = await req('POST', '/api/organizations', headers, {
    name,
    kind: 'seed-library',
    description: 'Open-pollinated seeds',
    website: 'https://seeds.example.org',
    location: LOCATION,
    privacyLevel: 'city',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; location: typeof LOCATION; role: string; memberCount: number };
}

/** What notify does for the invitation email: asks the gateway for the link's secret. */
async function linkOf(invitationId: string): Promise<string> {
  const link = await call(
    bus.peer,
    organizationInvitationIssue,
    { invitationId },
    { requestId: newId('req', Date.now()) },
  );
  expect(link.linkPath).toBe(`/organizations/join?token=${encodeURIComponent(link.token)}`);
  return link.token;
}

async function invite(orgId: string, headers: object, email: string, role: string) {
  const res = await req('POST', `/api/organizations/${orgId}/invitations`, headers, { email, role });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; status: string; email: string };
}

async function join(orgId: string, who: object, email: string, role: string) {
  const invitation = await invite(orgId, ada, email, role);
  const token = await linkOf(invitation.id);
  const res = await req('POST', '/api/organizations/invitations/accept', who, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

describe('organizations', () => {
  it('are created with their creator as owner, the location at its privacy level, and announced', async () => {
    const org = await createOrg(ada);
    expect(org).toMatchObject({ role: 'owner', memberCount: 1, kind: 'seed-library', privacyLevel: 'city' });
    // Snapped to the centre of a ~10 km cell: the exact point is never stored.
    expect(org.location.city).toBe('Utrecht');
    expect(org.location.latitude).not.toBe(LOCATION.latitude);
    const rows = JSON.stringify(await bus.database.db.execute(sql`select location from identity.organizations`));
    expect(rows).not.toContain('52.0907');
    const event = await created.next((e) => e.organizationId === org.id);
    expect(event).toMatchObject({ createdBy: 'usr_org_ada', audience: ['usr_org_ada'] });

    // Public: read and listed signed out too.
    const publicRead = await req('GET', `/api/organizations/${org.id}`);
    expect(publicRead.statusCode).toBe(200);
    expect(publicRead.json().data).toMatchObject({ id: org.id, name: 'Riverside Seed Library' });
    expect(publicRead.json().data).not.toHaveProperty('role');
    const mine = await req('GET', '/api/organizations/mine', ada);
    expect(mine.json().data.map((o: { id: string; role: string }) => [o.id, o.role])).toContainEqual([org.id, 'owner']);
  });

  it('are listed and searched a page at a time, like every list', async () => {
    await createOrg(ada, 'Hillside Growers Co-op');
    await createOrg(carl, 'Valley Compost Company');
    const page = await req('GET', '/api/organizations?q=hill&limit=1');
    expect(page.statusCode).toBe(200);
    expect(page.json().data.map((o: { name: string }) => o.name)).toEqual(['Hillside Growers Co-op']);
    expect(page.json().pagination).toEqual({ page: 1, limit: 1, total: 1, totalPages: 1 });
    const all = await req('GET', '/api/organizations?limit=2&page=2');
    expect(all.json().pagination).toMatchObject({ page: 2, limit: 2 });
    expect(all.json().pagination.total).toBeGreaterThanOrEqual(3);
    const bad = await req('GET', '/api/organizations?kind=guild');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
  });

  it('invite by email: a single-use, hashed link that joins with the role; owners and managers hear of it', async () => {
    const org = await createOrg(ada, 'Invite Test Farm');
    const invitation = await invite(org.id, ada, 'Grace@Example.org', 'member');
    expect(invitation).toMatchObject({ status: 'pending', email: 'grace@example.org' });
    const event = await sent.next((e) => e.invitationId === invitation.id);
    expect(event).toMatchObject({ organizationName: 'Invite Test Farm', role: 'member', audience: ['usr_org_ada'] });
    expect(JSON.stringify(event)).not.toContain('token');

    const token = await linkOf(invitation.id);
    const stored = JSON.stringify(await bus.database.db.execute(sql`select * from identity.organization_invitations`));
    expect(stored).not.toContain(token);

    const preview = await req('POST', '/api/organizations/invitations/preview', {}, { token });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data).toMatchObject({ role: 'member', organization: { id: org.id } });

    const pending = await req('GET', `/api/organizations/${org.id}/invitations`, ada);
    expect(pending.json().data.map((i: { id: string }) => i.id)).toEqual([invitation.id]);

    // Signing in is needed to answer.
    expect((await req('POST', '/api/organizations/invitations/accept', {}, { token })).statusCode).toBe(401);
    const accepted = await req('POST', '/api/organizations/invitations/accept', grace, { token });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data).toMatchObject({ role: 'member', organization: { id: org.id, memberCount: 2 } });
    await added.next((e) => e.organizationId === org.id && e.userId === 'usr_org_grace');

    // Single use.
    const again = await req('POST', '/api/organizations/invitations/accept', carl, { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await req('GET', `/api/organizations/${org.id}/invitations`, ada)).json().data).toEqual([]);

    const members = await req('GET', `/api/organizations/${org.id}/members`, grace);
    expect(members.json().data.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      ['usr_org_ada', 'owner'],
      ['usr_org_grace', 'member'],
    ]);
  });

  it('revoked and declined invitations stop working; the link is refused once it expires', async () => {
    const org = await createOrg(ada, 'Revocation Co-op');
    const one = await invite(org.id, ada, 'x@example.org', 'viewer');
    const token = await linkOf(one.id);
    const revoked = await req('DELETE', `/api/organizations/${org.id}/invitations/${one.id}`, ada);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.status).toBe('revoked');
    expect((await req('POST', '/api/organizations/invitations/preview', {}, { token })).statusCode).toBe(400);

    const two = await invite(org.id, ada, 'y@example.org', 'viewer');
    const declined = await req('POST', '/api/organizations/invitations/decline', carl, {
      token: await linkOf(two.id),
    });
    expect(declined.json().data).toMatchObject({ role: null });
    expect((await req('GET', `/api/organizations/${org.id}/members`, carl)).statusCode).toBe(403);

    const three = await invite(org.id, ada, 'z@example.org', 'viewer');
    const late = await linkOf(three.id);
    await bus.database.db.execute(
      sql`update identity.organization_invitations set expires_at = now() - interval '1 second' where id = ${three.id}`,
    );
    expect((await req('POST', '/api/organizations/invitations/accept', carl, { token: late })).statusCode).toBe(400);
  });

  it('roles: managers manage below owner; the last owner cannot be demoted, removed or leave', async () => {
    const org = await createOrg(ada, 'Roles Collective');
    await join(org.id, grace, 'grace@example.org', 'manager');
    await join(org.id, carl, 'carl@example.org', 'member');

    // A manager changes members below owner, but makes no owners and touches no owner.
    const demote = await req('PATCH', `/api/organizations/${org.id}/members/usr_org_carl`, grace, { role: 'viewer' });
    expect(demote.statusCode).toBe(200);
    expect(demote.json().data).toMatchObject({ userId: 'usr_org_carl', role: 'viewer' });
    const event = await roleChanged.next((e) => e.organizationId === org.id);
    expect(event).toMatchObject({ previousRole: 'member', role: 'viewer', changedBy: 'usr_org_grace' });
    expect(event.audience.sort()).toEqual(['usr_org_ada', 'usr_org_grace']);
    const promote = await req('PATCH', `/api/organizations/${org.id}/members/usr_org_carl`, grace, { role: 'owner' });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().error.details).toMatchObject({ reason: 'OWNER_ONLY' });
    const touchOwner = await req('DELETE', `/api/organizations/${org.id}/members/usr_org_ada`, grace);
    expect(touchOwner.statusCode).toBe(403);

    // A viewer reads the members but changes nothing.
    expect((await req('GET', `/api/organizations/${org.id}/members`, carl)).statusCode).toBe(200);
    const byViewer = await req('PATCH', `/api/organizations/${org.id}`, carl, { description: 'mine now' });
    expect(byViewer.statusCode).toBe(403);
    expect(byViewer.json().error.details).toMatchObject({ reason: 'org-role', required: 'manager' });
    const byManager = await req('PATCH', `/api/organizations/${org.id}`, grace, { description: 'Seeds since 2019' });
    expect(byManager.json().data.description).toBe('Seeds since 2019');

    // The last owner.
    const lastDemote = await req('PATCH', `/api/organizations/${org.id}/members/usr_org_ada`, ada, { role: 'member' });
    expect(lastDemote.statusCode).toBe(409);
    expect(lastDemote.json()).toMatchObject({
      success: false,
      data: null,
      error: { code: 'CONFLICT', details: { reason: 'LAST_OWNER' } },
    });
    const lastLeave = await req('POST', `/api/organizations/${org.id}/leave`, ada);
    expect(lastLeave.statusCode).toBe(409);
    expect(lastLeave.json().error.details.reason).toBe('LAST_OWNER');

    // With a second owner, the first may leave.
    expect(
      (await req('PATCH', `/api/organizations/${org.id}/members/usr_org_grace`, ada, { role: 'owner' })).statusCode,
    ).toBe(200);
    expect((await req('POST', `/api/organizations/${org.id}/leave`, ada)).statusCode).toBe(200);
    await left.next((e) => e.organizationId === org.id && e.userId === 'usr_org_ada');
    expect((await req('GET', `/api/organizations/${org.id}/members`, ada)).statusCode).toBe(403);
  });

  it('a removed member loses access at once, by session and by API token alike', async () => {
    const org = await createOrg(ada, 'Immediate Removal Farm');
    await join(org.id, grace, 'grace@example.org', 'member');
    const issued = await req('POST', '/api/auth/tokens', grace, { name: 'script', scopes: ['account:read'] });
    const token = { authorization: `Bearer ${issued.json().data.token}` };
    expect((await req('GET', `/api/organizations/${org.id}/members`, grace)).statusCode).toBe(200);
    expect((await req('GET', `/api/organizations/${org.id}/members`, token)).statusCode).toBe(200);

    const res = await req('DELETE', `/api/organizations/${org.id}/members/usr_org_grace`, ada);
    expect(res.statusCode).toBe(200);
    await removed.next((e) => e.organizationId === org.id && e.userId === 'usr_org_grace');
    for (const who of [grace, token]) {
      const after = await req('GET', `/api/organizations/${org.id}/members`, who);
      expect(after.statusCode).toBe(403);
      expect(after.json().error.details).toMatchObject({ reason: 'not-a-member' });
    }
    expect(
      (await req('GET', '/api/organizations/mine', grace)).json().data.map((o: { id: string }) => o.id),
    ).not.toContain(org.id);
  });

  it('an outsider is refused, a dissolved organization is not found, and only an owner dissolves', async () => {
    const org = await createOrg(ada, 'Short Lived Company');
    await join(org.id, grace, 'grace@example.org', 'manager');
    expect((await req('GET', `/api/organizations/${org.id}/members`, carl)).statusCode).toBe(403);
    expect(
      (await req('POST', `/api/organizations/${org.id}/invitations`, carl, { email: 'a@b.org', role: 'member' }))
        .statusCode,
    ).toBe(403);
    expect((await req('DELETE', `/api/organizations/${org.id}`, grace)).statusCode).toBe(403);
    const dissolved = await req('DELETE', `/api/organizations/${org.id}`, ada);
    expect(dissolved.statusCode).toBe(200);
    expect((await req('GET', `/api/organizations/${org.id}`)).statusCode).toBe(404);
    expect((await req('GET', `/api/organizations/${org.id}/members`, grace)).statusCode).toBe(404);
    // Kept, marked dissolved (the audit log names it).
    const kept = await bus.database.db.execute(
      sql`select dissolved_by from identity.organizations where id = ${org.id}`,
    );
    expect(JSON.stringify(kept)).toContain('usr_org_ada');
    const missing = await req('GET', '/api/organizations/org_00000000000000000000000000');
    expect(missing.json()).toMatchObject({ success: false, data: null, error: { code: 'NOT_FOUND' } });
  });
});
