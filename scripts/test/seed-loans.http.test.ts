import { service as chainMiner } from '@rootline/chain-miner';
import { ledgerTransaction, seedOrganization, startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { ledgerTxId, type ServiceModule } from '@rootline/host';
import { service as notify } from '@rootline/notify';
import { service as plants } from '@rootline/plants';
import { plantInput } from '@rootline/testing';
import { service as transport } from '@rootline/transport';
import type { TObject } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Lending seed from a library's lot and returning it as a new lot, over HTTP on real NATS and PostgreSQL. */

const MGR = 'usr_loan_manager';
const MEMBER = 'usr_loan_member';
const BOB = 'usr_loan_bob';
const CAROL = 'usr_loan_carol';
const YEAR_MS = 366 * 24 * 3600 * 1000;

describe('seed loans over HTTP', () => {
  let p: TestPlatform;
  let orgId: string;
  let lotId: string;
  let loanId: string;
  /** The services' clock: the system's, moved ahead by `ahead` ms. */
  let ahead = 0;
  const tokens: Record<string, string> = {};
  const as = (sub: string, method: string, url: string, body?: unknown, actFor = false) =>
    p.http(method, url, {
      token: tokens[sub] as string,
      ...(body === undefined ? {} : { body }),
      ...(actFor ? { headers: { 'rootline-act-as': orgId } } : {}),
    });
  const lib = (sub: string, method: string, url: string, body?: unknown) => as(sub, method, url, body, true);
  const lotAmount = async () => (await lib(MGR, 'GET', `/api/seed-lots/${lotId}`)).body.data.quantity.amount;
  const plantFrom = async (sub: string, seedLotId?: string) => {
    const res = await as(sub, 'POST', '/api/plants/register', {
      ...plantInput({ commonName: 'Tomato', owner: { id: sub } }),
      ...(seedLotId ? { seedLotId } : {}),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };

  beforeAll(async () => {
    p = await startTestPlatform(
      [chainMiner, plants, transport, notify] as unknown as ServiceModule<TObject>[],
      { CHAIN_DIFFICULTY: '8' },
      { clock: { now: () => new Date(Date.now() + ahead) } },
    );
    for (const [sub, name] of [
      [MGR, 'Mia Manager'],
      [MEMBER, 'Max Member'],
      [BOB, 'Bob Borrower'],
      [CAROL, 'Carol Outsider'],
    ] as const) {
      tokens[sub] = await p.token('GROWER', sub, name);
    }
    orgId = await seedOrganization(p.database, 'Utrecht Seed Library', { [MGR]: 'manager', [MEMBER]: 'member' });
    const lot = await lib(MGR, 'POST', '/api/seed-lots', {
      crop: 'Tomato',
      variety: 'Brandywine',
      harvestYear: 2025,
      quantity: { amount: 100, unit: 'seeds' },
    });
    expect(lot.status, JSON.stringify(lot.body)).toBe(201);
    lotId = lot.body.data.id;
  });
  afterAll(async () => p?.stop());

  it('lends seed of the library’s lot: the lot goes down and the loan is a seed-sharing event on the ledger', async () => {
    const res = await lib(MGR, 'POST', `/api/seed-lots/${lotId}/loans`, {
      borrower: { id: BOB },
      quantity: { amount: 30 },
      dueSeason: '2030-autumn',
      notes: 'Grow them apart',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    loanId = res.body.data.id;
    expect(loanId).toMatch(/^sln_/);
    expect(res.body.data).toMatchObject({
      seedLotId: lotId,
      crop: 'Tomato',
      variety: 'Brandywine',
      lender: { id: orgId, name: 'Utrecht Seed Library' },
      borrower: { id: BOB, name: 'Bob Borrower' },
      quantity: { amount: 30, unit: 'seeds' },
      dueSeason: '2030-autumn',
      dueAt: '2030-11-30T23:59:59.999Z',
      status: 'open',
      returnedAt: null,
      plantsGrown: [],
    });
    expect(await lotAmount()).toBe(70);
    const eventId = res.body.data.lendEventId as string;
    expect(eventId).toMatch(/^tev_/);
    const tx = await ledgerTransaction(p, ledgerTxId(eventId));
    expect(tx.type).toBe('transport.seed-sharing');
    expect(JSON.parse(tx.payload as string)).toMatchObject({ seedLotId: lotId, recipientId: BOB, handlerId: orgId });
    const changes = (await p.database.db.execute(
      sql`select reason, amount, delta from plants.seed_lot_quantity_changes where seed_lot_id = ${lotId} order by id`,
    )) as unknown as { reason: string; amount: number; delta: number }[];
    expect(changes.at(-1)).toEqual({ reason: 'lent', amount: 70, delta: -30 });

    // The borrower is told, with a link to the loans page.
    let notice: { title: string; body: string; link: string | null } | undefined;
    for (let i = 0; i < 100 && !notice; i++) {
      const list = await as(BOB, 'GET', '/api/notifications');
      notice = (list.body.data as { title: string; body: string; link: string | null }[]).find((n) =>
        n.title.includes('lent to you'),
      );
      if (!notice) await new Promise((r) => setTimeout(r, 100));
    }
    expect(notice).toMatchObject({
      title: 'Tomato ‘Brandywine’ lent to you',
      body: expect.stringContaining('Utrecht Seed Library lent you 30 seeds of Tomato ‘Brandywine’'),
    });
    expect(notice?.body).toContain('by the end of autumn 2030');
    expect(notice?.link).toContain('/loans');
  });

  it('refuses to lend more than the lot holds, and of two loans at once that together do, one', async () => {
    const over = await lib(MGR, 'POST', `/api/seed-lots/${lotId}/loans`, {
      borrower: { id: CAROL },
      quantity: { amount: 71 },
      dueSeason: '2030-autumn',
    });
    expect(over.status).toBe(409);
    expect(over.body.error.details).toMatchObject({ reason: 'loan-exceeds-lot', available: 70, unit: 'seeds' });
    expect(await lotAmount()).toBe(70);

    const both = await Promise.all(
      [1, 2].map(() =>
        lib(MGR, 'POST', `/api/seed-lots/${lotId}/loans`, {
          borrower: { id: CAROL },
          quantity: { amount: 40 },
          dueSeason: '2027-spring',
        }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await lotAmount()).toBe(30);
  });

  it('answers a retry with the same Idempotency-Key with the first loan, lending once', async () => {
    const key = crypto.randomUUID();
    const send = () =>
      p.http('POST', `/api/seed-lots/${lotId}/loans`, {
        token: tokens[MGR] as string,
        body: { borrower: { id: CAROL }, quantity: { amount: 5 }, dueSeason: '2030-summer' },
        headers: { 'rootline-act-as': orgId, 'idempotency-key': key },
      });
    const first = await send();
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.data.lendEventId).toBe(first.body.data.lendEventId);
    expect(await lotAmount()).toBe(25);
  });

  it('lets only the holder’s owners and managers lend, to an account, before the season ends', async () => {
    const member = await lib(MEMBER, 'POST', `/api/seed-lots/${lotId}/loans`, {
      borrower: { id: CAROL },
      quantity: { amount: 1 },
      dueSeason: '2030-autumn',
    });
    expect(member.status).toBe(403);
    const outsider = await as(CAROL, 'POST', `/api/seed-lots/${lotId}/loans`, {
      borrower: { id: CAROL },
      quantity: { amount: 1 },
      dueSeason: '2030-autumn',
    });
    expect(outsider.status).toBe(403);
    const nobody = await lib(MGR, 'POST', `/api/seed-lots/${lotId}/loans`, {
      borrower: { id: 'usr_nosuchaccount' },
      quantity: { amount: 1 },
      dueSeason: '2030-autumn',
    });
    expect(nobody.status).toBe(404);
    expect(nobody.body.error.details).toMatchObject({ field: 'borrower.id', reason: 'unknown-recipient' });
    const past = await lib(MGR, 'POST', `/api/seed-lots/${lotId}/loans`, {
      borrower: { id: CAROL },
      quantity: { amount: 1 },
      dueSeason: '2020-autumn',
    });
    expect(past.status).toBe(400);
    expect(past.body.error.details).toMatchObject({ field: 'dueSeason', reason: 'due-passed' });
    const shape = await lib(MGR, 'POST', `/api/seed-lots/${lotId}/loans`, {
      borrower: { id: CAROL },
      quantity: { amount: 1 },
      dueSeason: '2030-monsoon',
    });
    expect(shape.status).toBe(400);
    expect(await lotAmount()).toBe(25);
  });

  it('shows a loan to its lender and borrower only, and lists each side’s loans', async () => {
    expect((await as(BOB, 'GET', `/api/loans/${loanId}`)).status).toBe(200);
    expect((await lib(MEMBER, 'GET', `/api/loans/${loanId}`)).status).toBe(200);
    expect((await as(CAROL, 'GET', `/api/loans/${loanId}`)).status).toBe(404);
    expect((await as(MGR, 'GET', `/api/loans/${loanId}`)).status).toBe(404);

    const mine = await as(BOB, 'GET', '/api/loans?role=borrower');
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((l: { id: string }) => l.id)).toEqual([loanId]);
    expect(mine.body.pagination).toMatchObject({ page: 1, total: 1 });
    const carols = await as(CAROL, 'GET', '/api/loans?role=borrower');
    expect(carols.body.data.map((l: { id: string }) => l.id)).not.toContain(loanId);
    expect((await as(CAROL, 'GET', '/api/loans')).body.data).toEqual([]);
    const library = await lib(MEMBER, 'GET', '/api/loans?limit=1');
    expect(library.body.pagination).toMatchObject({ total: 3, totalPages: 3 });
  });

  it('counts a loan overdue once the services’ clock passes the end of its due season', async () => {
    const ids = async (status: string) =>
      (await lib(MGR, 'GET', `/api/loans?status=${status}`)).body.data.map((l: { id: string }) => l.id) as string[];
    const spring = (await lib(MGR, 'GET', '/api/loans')).body.data.find(
      (l: { dueSeason: string }) => l.dueSeason === '2027-spring',
    );
    expect(spring.status).toBe('open');
    expect(await ids('open')).toContain(spring.id);
    expect(await ids('overdue')).toEqual([]);
    ahead = Date.parse('2027-06-01T00:00:00Z') - Date.now() + YEAR_MS;
    try {
      expect(await ids('overdue')).toEqual([spring.id]);
      const open = await ids('open');
      expect(open).toContain(loanId);
      expect(open).not.toContain(spring.id);
      expect((await lib(MGR, 'GET', `/api/loans/${spring.id}`)).body.data.status).toBe('overdue');
    } finally {
      ahead = 0;
    }
  });

  it('returns seed saved from the plants grown from the loan as a new lot of the library', async () => {
    const bobsPlant = await plantFrom(BOB, lotId);
    const bobsOther = await plantFrom(BOB);
    const carolsPlant = await plantFrom(CAROL, lotId);
    const loan = await as(BOB, 'GET', `/api/loans/${loanId}`);
    // Named as registered, so that a return can offer them by name.
    const grown = [{ id: bobsPlant, commonName: 'Tomato', scientificName: 'Solanum lycopersicum' }];
    expect(loan.body.data.plantsGrown).toEqual(grown);

    const body = (parentPlantIds: string[]) => ({
      parentPlantIds,
      quantity: { amount: 250, unit: 'seeds' },
      harvestYear: 2026,
      notes: 'From the two best plants',
    });
    for (const wrong of [[carolsPlant], [bobsPlant, bobsOther]]) {
      const res = await as(BOB, 'POST', `/api/loans/${loanId}/return`, body(wrong));
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.details).toMatchObject({ reason: 'not-grown-from-loan', plantIds: [wrong.at(-1)] });
    }
    const byLender = await lib(MGR, 'POST', `/api/loans/${loanId}/return`, body([bobsPlant]));
    expect(byLender.status).toBe(403);
    expect(byLender.body.error.details).toMatchObject({ reason: 'not-borrower' });
    expect((await as(CAROL, 'POST', `/api/loans/${loanId}/return`, body([carolsPlant]))).status).toBe(404);

    const res = await as(BOB, 'POST', `/api/loans/${loanId}/return`, body([bobsPlant]));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'returned', plantsGrown: grown });
    const newLot = res.body.data.returnLotId as string;
    expect(newLot).toMatch(/^lot_/);
    expect(newLot).not.toBe(lotId);

    // The lineage runs lot → plant → new lot, and the new lot is the library's.
    const held = await lib(MGR, 'GET', `/api/seed-lots/${newLot}`);
    expect(held.body.data).toMatchObject({
      access: 'holder',
      ownerId: orgId,
      crop: 'Tomato',
      variety: 'Brandywine',
      parentPlantIds: [bobsPlant],
      harvestYear: 2026,
      quantity: { amount: 250, unit: 'seeds' },
    });
    const lineage = await as(BOB, 'GET', `/api/plants/lineage/${bobsPlant}`);
    expect(lineage.body.data.plant.seedLot.id).toBe(lotId);
    const listed = (await lib(MGR, 'GET', '/api/seed-lots')).body.data.map((l: { id: string }) => l.id);
    expect(listed).toContain(newLot);

    const tx = await ledgerTransaction(p, ledgerTxId(res.body.data.returnEventId));
    expect(tx.type).toBe('transport.seed-saving');
    expect(JSON.parse(tx.payload as string)).toMatchObject({ plantId: bobsPlant, handlerId: BOB, recipientId: orgId });
    const journey = await as(BOB, 'GET', `/api/transport/journey/${bobsPlant}`);
    expect(journey.body.data.map((e: { kind: string }) => e.kind)).toContain('seed-saving');

    const again = await as(BOB, 'POST', `/api/loans/${loanId}/return`, body([bobsPlant]));
    expect(again.status).toBe(409);
    expect(again.body.error.details).toMatchObject({ reason: 'loan-returned', returnLotId: newLot });
    expect((await lib(MGR, 'GET', '/api/loans?status=returned')).body.data.map((l: { id: string }) => l.id)).toEqual([
      loanId,
    ]);
  });
});
