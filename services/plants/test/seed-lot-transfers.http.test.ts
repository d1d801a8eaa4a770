import { transferAccepted, transferDeclined, transferProposed } from '@rootline/contracts';
import {
  actingCaller,
  collectEvents,
  type EventLog,
  ledgerTransaction,
  seedOrganization,
} from '@rootline/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlantsPlatform, type TestPlatform } from './support.js';

// Transfers of seed lots between a person and organizations, over HTTP on real NATS, PostgreSQL and the ledger.
describe('seed lot transfers over HTTP', () => {
  let p: TestPlatform;
  let riverside: string;
  let hilltop: string;
  let proposed: EventLog<typeof transferProposed>;
  let accepted: EventLog<typeof transferAccepted>;
  let declined: EventLog<typeof transferDeclined>;
  const tokens: Record<string, string> = {};
  const ACCOUNTS = [
    'usr_lt_alice',
    'usr_lt_owner',
    'usr_lt_manager',
    'usr_lt_member',
    'usr_lt_viewer',
    'usr_lt_outsider',
    'usr_lt_hill',
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
  const propose = (sub: string, org: string | null, lotId: string, to: string, message?: string) =>
    call(sub, org, 'POST', '/api/transfers', {
      subjectType: 'seed-lot',
      subjectId: lotId,
      to: { id: to },
      ...(message ? { message } : {}),
    });
  /** A new lot of Alice's: tomato 'Brandywine' of 2026, 120 seeds. */
  const aliceLot = async (variety = 'Brandywine') => {
    const res = await call('usr_lt_alice', null, 'POST', '/api/seed-lots', {
      crop: 'tomato',
      variety,
      harvestYear: 2026,
      quantity: { amount: 120, unit: 'seeds' },
      storage: { place: 'cellar, shelf 2' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };

  beforeAll(async () => {
    p = await startPlantsPlatform({ ACCOUNT_NAMES_CACHE_MS: '0' });
    for (const sub of ACCOUNTS) tokens[sub] = await p.token('USER', sub, sub === 'usr_lt_alice' ? 'Alice' : undefined);
    riverside = await seedOrganization(p.database, 'Riverside Seed Library', {
      usr_lt_owner: 'owner',
      usr_lt_manager: 'manager',
      usr_lt_member: 'member',
      usr_lt_viewer: 'viewer',
    });
    hilltop = await seedOrganization(p.database, 'Hilltop Growers', { usr_lt_hill: 'manager' });
    proposed = await collectEvents(p.bus, transferProposed);
    accepted = await collectEvents(p.bus, transferAccepted);
    declined = await collectEvents(p.bus, transferDeclined);
  });
  afterAll(async () => {
    await proposed?.stop();
    await accepted?.stop();
    await declined?.stop();
    await p?.stop();
  });

  it('gives a person’s lot to an organization once a manager accepts, signed for on the ledger by both', async () => {
    const lotId = await aliceLot();
    const res = await propose('usr_lt_alice', null, lotId, riverside, 'For the library');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const t = res.body.data;
    expect(t).toMatchObject({
      subjectType: 'seed-lot',
      subjectId: lotId,
      subjectName: 'tomato, Brandywine (2026)',
      status: 'pending',
      from: { id: 'usr_lt_alice', name: 'Alice' },
      to: { id: riverside, name: 'Riverside Seed Library' },
      givenBy: { accountId: 'usr_lt_alice', organizationId: null, role: null },
      block: null,
    });
    // The receiving organization's owners and managers are told, by the lot's name.
    const told = await proposed.next((e) => e.transferId === t.id);
    expect(told).toMatchObject({ subjectType: 'seed-lot', subjectName: 'tomato, Brandywine (2026)' });
    expect(told.audience.sort()).toEqual(['usr_lt_manager', 'usr_lt_owner']);
    // One pending transfer per lot: a second proposal withdraws the first.
    const again = await propose('usr_lt_alice', null, lotId, hilltop);
    expect(again.status).toBe(201);
    expect((await call('usr_lt_alice', null, 'GET', `/api/transfers/${t.id}`)).body.data.status).toBe('cancelled');
    const back = await propose('usr_lt_alice', null, lotId, riverside, 'For the library');
    expect(back.status).toBe(201);
    const id = back.body.data.id as string;

    // The organization lists it by the lot's name; only an owner or manager answers it.
    const incoming = await call('usr_lt_viewer', riverside, 'GET', '/api/transfers?direction=incoming&status=pending');
    expect(incoming.body.data).toEqual([
      expect.objectContaining({ id, subjectType: 'seed-lot', subjectName: 'tomato, Brandywine (2026)' }),
    ]);
    const member = await call('usr_lt_member', riverside, 'POST', `/api/transfers/${id}/accept`);
    expect(member.status).toBe(403);
    expect(member.body.error.details).toMatchObject({ reason: 'org-role', required: 'manager' });
    const giver = await call('usr_lt_alice', null, 'POST', `/api/transfers/${id}/accept`);
    expect(giver.status).toBe(403);
    expect(giver.body.error.details).toMatchObject({ reason: 'not-recipient' });
    // Nothing moved yet: the lot is Alice's, in her inventory.
    expect((await call('usr_lt_alice', null, 'GET', `/api/seed-lots/${lotId}`)).body.data).toMatchObject({
      ownerId: 'usr_lt_alice',
      access: 'holder',
    });

    const ok = await call('usr_lt_manager', riverside, 'POST', `/api/transfers/${id}/accept`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({
      status: 'accepted',
      acceptedBy: { accountId: 'usr_lt_manager', organizationId: riverside, role: 'manager' },
    });
    const tx = await ledgerTransaction(p, ok.body.data.block.txId);
    expect(tx.type).toBe('ownership.transfer');
    expect(JSON.parse(tx.payload)).toMatchObject({
      transferId: id,
      subjectType: 'seed-lot',
      subjectId: lotId,
      from: { id: 'usr_lt_alice', name: 'Alice' },
      to: { id: riverside, name: 'Riverside Seed Library' },
      givenBy: { accountId: 'usr_lt_alice', organizationId: null, role: null },
      acceptedBy: { accountId: 'usr_lt_manager', organizationId: riverside, role: 'manager' },
    });
    const event = await accepted.next((e) => e.transferId === id);
    expect(event).toMatchObject({
      subjectType: 'seed-lot',
      acceptedById: 'usr_lt_manager',
      audience: ['usr_lt_alice'],
    });

    // The lot is the organization's now: its viewers hold it, Alice sees the public form, her list no longer has it.
    const held = await call('usr_lt_viewer', riverside, 'GET', `/api/seed-lots/${lotId}`);
    expect(held.body.data).toMatchObject({ ownerId: riverside, access: 'holder', quantity: { amount: 120 } });
    const former = await call('usr_lt_alice', null, 'GET', `/api/seed-lots/${lotId}`);
    expect(former.body.data).toMatchObject({ ownerId: riverside, access: 'public', quantity: null });
    const aliceList = await call('usr_lt_alice', null, 'GET', '/api/seed-lots');
    expect(aliceList.body.data.map((l: { id: string }) => l.id)).not.toContain(lotId);
    const orgList = await call('usr_lt_viewer', riverside, 'GET', '/api/seed-lots');
    expect(orgList.body.data.map((l: { id: string }) => l.id)).toContain(lotId);
    // Alice may no longer change it; the organization's member may.
    expect((await call('usr_lt_alice', null, 'PATCH', `/api/seed-lots/${lotId}`, { notes: 'mine' })).status).toBe(403);
    expect((await call('usr_lt_member', riverside, 'PATCH', `/api/seed-lots/${lotId}`, { notes: 'ours' })).status).toBe(
      200,
    );

    // Its ownership history, to anyone, signed in or not, with the names the ledger recorded.
    for (const token of [undefined, tokens.usr_lt_outsider]) {
      const history = await p.http('GET', `/api/seed-lots/${lotId}/ownership`, token ? { token } : {});
      expect(history.status).toBe(200);
      expect(history.body.data).toEqual([
        {
          transferId: id,
          from: { id: 'usr_lt_alice', name: 'Alice' },
          to: { id: riverside, name: 'Riverside Seed Library' },
          givenBy: { accountId: 'usr_lt_alice', organizationId: null, role: null },
          acceptedBy: { accountId: 'usr_lt_manager', organizationId: riverside, role: 'manager' },
          at: ok.body.data.decidedAt,
          block: ok.body.data.block,
        },
      ]);
    }
    // A plant's history route knows no lot, and a lot's history names only its own transfers.
    expect((await p.http('GET', `/api/plants/ownership/${lotId}`)).status).toBe(400);
    expect((await p.http('GET', `/api/seed-lots/${await aliceLot('Cherokee Purple')}/ownership`)).body.data).toEqual(
      [],
    );
  });

  it('lets an organization give a lot on to another: refused to members and the former holder, cancelled, declined, accepted', async () => {
    const lotId = await aliceLot('Green Zebra');
    const first = await propose('usr_lt_alice', null, lotId, riverside);
    const ok = await call('usr_lt_owner', riverside, 'POST', `/api/transfers/${first.body.data.id}/accept`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);

    const member = await propose('usr_lt_member', riverside, lotId, hilltop);
    expect(member.status).toBe(403);
    expect(member.body.error.details).toMatchObject({ reason: 'org-role', required: 'manager' });
    const former = await propose('usr_lt_alice', null, lotId, hilltop);
    expect(former.status).toBe(403);
    expect(former.body.error.details).toMatchObject({ reason: 'not-owner' });
    const outsider = await propose('usr_lt_outsider', null, lotId, hilltop);
    expect(outsider.status).toBe(403);

    const cancelled = await propose('usr_lt_manager', riverside, lotId, hilltop);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(201);
    expect(cancelled.body.data).toMatchObject({
      from: { id: riverside, name: 'Riverside Seed Library' },
      to: { id: hilltop, name: 'Hilltop Growers' },
      givenBy: { accountId: 'usr_lt_manager', organizationId: riverside, role: 'manager' },
    });
    // The recipient cannot cancel; the giving side can.
    const wrong = await call('usr_lt_hill', hilltop, 'POST', `/api/transfers/${cancelled.body.data.id}/cancel`);
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.details).toMatchObject({ reason: 'not-giver' });
    const cancel = await call('usr_lt_owner', riverside, 'POST', `/api/transfers/${cancelled.body.data.id}/cancel`);
    expect(cancel.body.data).toMatchObject({ status: 'cancelled', decidedBy: 'usr_lt_owner' });

    const refused = await propose('usr_lt_manager', riverside, lotId, hilltop);
    const decline = await call('usr_lt_hill', hilltop, 'POST', `/api/transfers/${refused.body.data.id}/decline`);
    expect(decline.body.data.status).toBe('declined');
    expect((await declined.next((e) => e.transferId === refused.body.data.id)).audience.sort()).toEqual([
      'usr_lt_manager',
      'usr_lt_owner',
    ]);
    const late = await call('usr_lt_hill', hilltop, 'POST', `/api/transfers/${refused.body.data.id}/accept`);
    expect(late.status).toBe(409);
    expect(late.body.error.details).toMatchObject({ reason: 'not-pending', status: 'declined' });
    expect((await p.http('GET', `/api/seed-lots/${lotId}`)).body.data.ownerId).toBe(riverside);

    const given = await propose('usr_lt_owner', riverside, lotId, hilltop);
    const taken = await call('usr_lt_hill', hilltop, 'POST', `/api/transfers/${given.body.data.id}/accept`);
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    const tx = await ledgerTransaction(p, taken.body.data.block.txId);
    expect(JSON.parse(tx.payload)).toMatchObject({
      subjectType: 'seed-lot',
      subjectId: lotId,
      from: { id: riverside, name: 'Riverside Seed Library' },
      to: { id: hilltop, name: 'Hilltop Growers' },
      givenBy: { accountId: 'usr_lt_owner', organizationId: riverside, role: 'owner' },
      acceptedBy: { accountId: 'usr_lt_hill', organizationId: hilltop, role: 'manager' },
    });
    const history = await p.http('GET', `/api/seed-lots/${lotId}/ownership`);
    expect(history.body.data.map((c: { from: { id: string }; to: { id: string } }) => [c.from.id, c.to.id])).toEqual([
      ['usr_lt_alice', riverside],
      [riverside, hilltop],
    ]);
    expect((await call('usr_lt_hill', hilltop, 'GET', `/api/seed-lots/${lotId}`)).body.data).toMatchObject({
      ownerId: hilltop,
      access: 'holder',
    });
  });

  it('refuses a discarded or empty lot, when proposed and when accepted, and an unknown one', async () => {
    const discarded = await aliceLot('Moneymaker');
    expect((await call('usr_lt_alice', null, 'DELETE', `/api/seed-lots/${discarded}`)).status).toBe(200);
    const gone = await propose('usr_lt_alice', null, discarded, riverside);
    expect(gone.status).toBe(409);
    expect(gone.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'lot-discarded' } });
    // A discarded lot is still read, with its (empty) history.
    expect((await p.http('GET', `/api/seed-lots/${discarded}/ownership`)).body.data).toEqual([]);

    const emptied = await aliceLot('Roma');
    const patch = { quantity: { amount: 0, unit: 'seeds' }, quantityNote: 'All sown' };
    expect((await call('usr_lt_alice', null, 'PATCH', `/api/seed-lots/${emptied}`, patch)).status).toBe(200);
    const empty = await propose('usr_lt_alice', null, emptied, riverside);
    expect(empty.status).toBe(409);
    expect(empty.body.error.details).toMatchObject({ reason: 'lot-empty' });

    // Discarded while the transfer waited: accepting is refused, and the lot stays Alice's.
    const waiting = await aliceLot('San Marzano');
    const offer = await propose('usr_lt_alice', null, waiting, riverside);
    expect(offer.status).toBe(201);
    expect((await call('usr_lt_alice', null, 'DELETE', `/api/seed-lots/${waiting}`)).status).toBe(200);
    const late = await call('usr_lt_manager', riverside, 'POST', `/api/transfers/${offer.body.data.id}/accept`);
    expect(late.status).toBe(409);
    expect(late.body.error.details).toMatchObject({ reason: 'lot-discarded' });
    expect((await call('usr_lt_alice', null, 'GET', `/api/transfers/${offer.body.data.id}`)).body.data.status).toBe(
      'pending',
    );
    expect((await p.http('GET', `/api/seed-lots/${waiting}`)).body.data.ownerId).toBe('usr_lt_alice');
    expect((await p.http('GET', `/api/seed-lots/${waiting}/ownership`)).body.data).toEqual([]);

    const unknown = await propose('usr_lt_alice', null, 'lot_01HZX3K6Q2W8N4B7T5R9V0C1MD', riverside);
    expect(unknown.status).toBe(404);
    expect((await p.http('GET', '/api/seed-lots/lot_01HZX3K6Q2W8N4B7T5R9V0C1MD/ownership')).status).toBe(404);
    expect((await p.http('GET', '/api/seed-lots/not-a-lot/ownership')).body.error.code).toBe('VALIDATION_ERROR');
    // A lot is not named as a plant, nor a plant as a lot.
    const asPlant = await call('usr_lt_alice', null, 'POST', '/api/transfers', {
      subjectType: 'plant',
      subjectId: waiting,
      to: { id: riverside },
    });
    expect(asPlant.status).toBe(404);
  });
});
