import { transferAccepted, transferProposed } from '@rootline/contracts';
import {
  actingCaller,
  collectEvents,
  type EventLog,
  ledgerTransaction,
  seedOrganization,
} from '@rootline/gateway/testing';
import { plantInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlantsPlatform, type TestPlatform } from './support.js';

// Transfers of a plant between a person and organizations, over HTTP on real NATS, PostgreSQL and the ledger.
describe('ownership transfers over HTTP', () => {
  let p: TestPlatform;
  let riverside: string;
  let hilltop: string;
  let plantId: string;
  let proposed: EventLog<typeof transferProposed>;
  let accepted: EventLog<typeof transferAccepted>;
  const tokens: Record<string, string> = {};
  const ACCOUNTS = [
    'usr_tr_alice',
    'usr_tr_owner',
    'usr_tr_manager',
    'usr_tr_member',
    'usr_tr_viewer',
    'usr_tr_outsider',
    'usr_tr_hill',
  ];
  let actingFor = '';
  const as = actingCaller(
    () => p,
    tokens,
    () => actingFor,
  );
  /** A call by `sub` acting for `org`, or alone without it. */
  const call = (sub: string, org: string | null, method: string, url: string, body?: unknown) => {
    actingFor = org ?? '';
    return as(sub, method, url, body, org === null);
  };
  const propose = (sub: string, org: string | null, to: string, message?: string) =>
    call(sub, org, 'POST', '/api/transfers', {
      subjectType: 'plant',
      subjectId: plantId,
      to: { id: to },
      ...(message ? { message } : {}),
    });

  beforeAll(async () => {
    p = await startPlantsPlatform({ ACCOUNT_NAMES_CACHE_MS: '0' });
    for (const sub of ACCOUNTS) tokens[sub] = await p.token('USER', sub, sub === 'usr_tr_alice' ? 'Alice' : undefined);
    riverside = await seedOrganization(p.database, 'Riverside Seed Library', {
      usr_tr_owner: 'owner',
      usr_tr_manager: 'manager',
      usr_tr_member: 'member',
      usr_tr_viewer: 'viewer',
    });
    hilltop = await seedOrganization(p.database, 'Hilltop Growers', { usr_tr_hill: 'manager' });
    proposed = await collectEvents(p.bus, transferProposed);
    accepted = await collectEvents(p.bus, transferAccepted);
    const reg = await call(
      'usr_tr_alice',
      null,
      'POST',
      '/api/plants/register',
      plantInput({ owner: { id: 'usr_tr_alice' } }),
    );
    expect(reg.status, JSON.stringify(reg.body)).toBe(201);
    plantId = reg.body.data.id;
  });
  afterAll(async () => {
    await proposed?.stop();
    await accepted?.stop();
    await p?.stop();
  });

  it('moves a person’s plant to an organization once a manager accepts, signed for on the ledger by both', async () => {
    const res = await propose('usr_tr_alice', null, riverside, 'For the library');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const t = res.body.data;
    expect(t).toMatchObject({
      subjectType: 'plant',
      subjectId: plantId,
      status: 'pending',
      from: { id: 'usr_tr_alice', name: 'Alice' },
      to: { id: riverside, name: 'Riverside Seed Library' },
      message: 'For the library',
      givenBy: { accountId: 'usr_tr_alice', organizationId: null },
      acceptedBy: null,
      block: null,
    });
    // The receiving organization's owners and managers are told.
    const told = await proposed.next((e) => e.transferId === t.id);
    expect(told.audience.sort()).toEqual(['usr_tr_manager', 'usr_tr_owner']);
    // One pending transfer per plant: a new proposal withdraws the pending one, and the last one stands.
    const again = await propose('usr_tr_alice', null, hilltop);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    const withdrawn = await call('usr_tr_alice', null, 'GET', `/api/transfers/${t.id}`);
    expect(withdrawn.body.data).toMatchObject({ status: 'cancelled', decidedBy: 'usr_tr_alice' });
    const back = await propose('usr_tr_alice', null, riverside, 'For the library');
    expect(back.status).toBe(201);
    expect((await call('usr_tr_alice', null, 'GET', `/api/transfers/${again.body.data.id}`)).body.data.status).toBe(
      'cancelled',
    );
    Object.assign(t, back.body.data);

    // The receiving organization's members and viewers see it, but only owners and managers answer it.
    const incoming = await call('usr_tr_viewer', riverside, 'GET', '/api/transfers?direction=incoming&status=pending');
    expect(incoming.status).toBe(200);
    expect(incoming.body.data.map((x: { id: string }) => x.id)).toEqual([t.id]);
    for (const sub of ['usr_tr_member', 'usr_tr_viewer']) {
      const refused = await call(sub, riverside, 'POST', `/api/transfers/${t.id}/accept`);
      expect(refused.status, sub).toBe(403);
      expect(refused.body.error.details).toMatchObject({ reason: 'org-role', required: 'manager' });
    }
    const outsider = await call('usr_tr_outsider', riverside, 'POST', `/api/transfers/${t.id}/accept`);
    expect(outsider.status).toBe(403);
    expect(outsider.body.error.details).toMatchObject({ reason: 'not-a-member' });
    // Alone, the outsider is no side of it: it does not exist for them.
    expect((await call('usr_tr_outsider', null, 'POST', `/api/transfers/${t.id}/accept`)).status).toBe(404);
    expect((await call('usr_tr_outsider', null, 'GET', `/api/transfers/${t.id}`)).status).toBe(404);
    // The manager acting alone is no side either: the transfer is the organization's to answer.
    expect((await call('usr_tr_manager', null, 'POST', `/api/transfers/${t.id}/accept`)).status).toBe(404);
    // The giver cannot accept its own transfer.
    const giver = await call('usr_tr_alice', null, 'POST', `/api/transfers/${t.id}/accept`);
    expect(giver.status).toBe(403);
    expect(giver.body.error.details).toMatchObject({ reason: 'not-recipient' });

    const ok = await call('usr_tr_manager', riverside, 'POST', `/api/transfers/${t.id}/accept`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({
      status: 'accepted',
      acceptedBy: { accountId: 'usr_tr_manager', organizationId: riverside, role: 'manager' },
      decidedBy: 'usr_tr_manager',
    });
    const tx = await ledgerTransaction(p, ok.body.data.block.txId);
    expect(tx.type).toBe('ownership.transfer');
    expect(JSON.parse(tx.payload)).toMatchObject({
      transferId: t.id,
      subjectType: 'plant',
      subjectId: plantId,
      from: { id: 'usr_tr_alice', name: 'Alice' },
      to: { id: riverside, name: 'Riverside Seed Library' },
      givenBy: { accountId: 'usr_tr_alice', organizationId: null },
      acceptedBy: { accountId: 'usr_tr_manager', organizationId: riverside, role: 'manager' },
    });
    const event = await accepted.next((e) => e.transferId === t.id);
    expect(event).toMatchObject({
      givenById: 'usr_tr_alice',
      acceptedById: 'usr_tr_manager',
      audience: ['usr_tr_alice'],
    });

    // The plant is the organization's now, publicly, with its ownership history.
    const plant = await p.http('GET', `/api/plants/${plantId}`);
    expect(plant.body.data.owner).toMatchObject({ id: riverside, name: 'Riverside Seed Library' });
    const history = await p.http('GET', `/api/plants/ownership/${plantId}`);
    expect(history.status).toBe(200);
    expect(history.body.data).toEqual([
      expect.objectContaining({
        transferId: t.id,
        from: expect.objectContaining({ id: 'usr_tr_alice' }),
        to: expect.objectContaining({ id: riverside }),
        block: ok.body.data.block,
      }),
    ]);
    // Answered once: a second accept is the same transfer, a decline now is refused.
    const declined = await call('usr_tr_manager', riverside, 'POST', `/api/transfers/${t.id}/decline`);
    expect(declined.status).toBe(409);
    expect(declined.body.error.details).toMatchObject({ reason: 'not-pending', status: 'accepted' });
  });

  it('lets an organization give the plant on to another, cancel, and be declined', async () => {
    // Only an owner or manager gives for the organization; the former owner no longer may.
    const member = await propose('usr_tr_member', riverside, hilltop);
    expect(member.status).toBe(403);
    expect(member.body.error.details).toMatchObject({ reason: 'org-role', required: 'manager' });
    const former = await propose('usr_tr_alice', null, hilltop);
    expect(former.status).toBe(403);
    expect(former.body.error.details).toMatchObject({ reason: 'not-owner' });

    const first = await call('usr_tr_owner', riverside, 'POST', '/api/transfers', {
      subjectType: 'plant',
      subjectId: plantId,
      to: { id: hilltop },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data.givenBy).toEqual({ accountId: 'usr_tr_owner', organizationId: riverside, role: 'owner' });
    // The recipient cannot cancel; the giving side can.
    expect((await call('usr_tr_hill', hilltop, 'POST', `/api/transfers/${first.body.data.id}/cancel`)).status).toBe(
      403,
    );
    const cancelled = await call('usr_tr_manager', riverside, 'POST', `/api/transfers/${first.body.data.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', decidedBy: 'usr_tr_manager' });

    const second = await propose('usr_tr_manager', riverside, hilltop);
    expect(second.status).toBe(201);
    const declined = await call('usr_tr_hill', hilltop, 'POST', `/api/transfers/${second.body.data.id}/decline`);
    expect(declined.status).toBe(200);
    expect(declined.body.data.status).toBe('declined');
    const late = await call('usr_tr_hill', hilltop, 'POST', `/api/transfers/${second.body.data.id}/accept`);
    expect(late.status).toBe(409);
    // Still Riverside's; outgoing lists both answers, newest first.
    expect((await p.http('GET', `/api/plants/${plantId}`)).body.data.owner.id).toBe(riverside);
    const outgoing = await call('usr_tr_viewer', riverside, 'GET', '/api/transfers?direction=outgoing');
    expect(outgoing.body.data.map((x: { status: string }) => x.status)).toEqual(['declined', 'cancelled']);
    expect(outgoing.body.pagination).toMatchObject({ page: 1, total: 2 });
  });

  it('refuses an unknown recipient and the owner itself, and answers a retried proposal once', async () => {
    const unknown = await propose('usr_tr_manager', riverside, 'usr_nobody_at_all');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.details).toMatchObject({ field: 'to.id' });
    const self = await propose('usr_tr_manager', riverside, riverside);
    expect(self.status).toBe(400);
    expect(self.body.error.details).toMatchObject({ reason: 'same-owner' });
    const key = { 'idempotency-key': '5b0f7c1e-3d7e-4c55-9a51-0b3b0c7c2a11', 'rootline-act-as': riverside };
    const body = { subjectType: 'plant', subjectId: plantId, to: { id: 'usr_tr_alice' } };
    const one = await p.http('POST', '/api/transfers', { token: tokens.usr_tr_manager, body, headers: key });
    const two = await p.http('POST', '/api/transfers', { token: tokens.usr_tr_manager, body, headers: key });
    expect(one.status, JSON.stringify(one.body)).toBe(201);
    expect(two.body.data.id).toBe(one.body.data.id);
    // The recipient person sees it among their incoming transfers.
    const mine = await call('usr_tr_alice', null, 'GET', '/api/transfers?direction=incoming');
    expect(mine.body.data.map((x: { id: string }) => x.id)).toContain(one.body.data.id);
  });
});
