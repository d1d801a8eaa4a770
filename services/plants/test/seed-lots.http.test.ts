import { actingCaller, ledgerTransaction, ledgerTransactions, seedOrganization } from '@rootline/gateway/testing';
import { plantInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlantsPlatform, type TestPlatform } from './support.js';

const ALICE = 'usr_seed_alice';
const BOB = 'usr_seed_bob';

const lotBody = (over: Record<string, unknown> = {}) => ({
  crop: 'Tomato',
  variety: 'Brandywine',
  harvestYear: 2025,
  quantity: { amount: 120, unit: 'seeds' },
  storage: { place: 'cellar', temperatureC: 8, humidityPct: 35, container: 'glass jar' },
  notes: 'best fruit of the south bed',
  ...over,
});

describe('seed lots over HTTP', () => {
  let p: TestPlatform;
  let mother: string;
  let father: string;
  let lotId: string;
  const tokens: Record<string, string> = {};
  let orgId: string;
  const as = actingCaller(
    () => p,
    tokens,
    () => orgId,
  );
  const call = (sub: string | null, method: string, url: string, body?: unknown) =>
    p.http(method, url, {
      ...(sub ? { token: tokens[sub] as string } : {}),
      ...(body === undefined ? {} : { body }),
    });

  beforeAll(async () => {
    p = await startPlantsPlatform();
    for (const sub of [ALICE, BOB, 'usr_seed_mgr', 'usr_seed_member', 'usr_seed_viewer']) {
      tokens[sub] = await p.token('GROWER', sub);
    }
    orgId = await seedOrganization(p.database, 'Seed Library of Utrecht', {
      usr_seed_mgr: 'manager',
      usr_seed_member: 'member',
      usr_seed_viewer: 'viewer',
    });
    const reg = async (name: string) => {
      const res = await call(
        ALICE,
        'POST',
        '/api/plants/register',
        plantInput({ commonName: name, owner: { id: ALICE } }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id as string;
    };
    mother = await reg('Tomato');
    father = await reg('Tomato');
  });
  afterAll(async () => p?.stop());

  it('records a lot of the caller with its parents, and refuses parents that do not exist', async () => {
    const missing = await call(
      ALICE,
      'POST',
      '/api/seed-lots',
      lotBody({ parentPlantIds: [mother, 'plt_nosuchplant00001'] }),
    );
    expect(missing.status).toBe(404);
    expect(missing.body.error.details).toMatchObject({ field: 'parentPlantIds', missing: ['plt_nosuchplant00001'] });

    const before = await ledgerTransactions(p);
    const res = await call(ALICE, 'POST', '/api/seed-lots', lotBody({ parentPlantIds: [mother, father] }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    lotId = res.body.data.id;
    expect(lotId).toMatch(/^lot_[0-9A-Z]{26}$/);
    expect(res.body.data).toMatchObject({
      ownerId: ALICE,
      crop: 'Tomato',
      parentPlantIds: [mother, father],
      access: 'holder',
      quantity: { amount: 120, unit: 'seeds' },
      storage: { place: 'cellar', temperatureC: 8, humidityPct: 35, container: 'glass jar' },
      viability: { basis: 'age', longevityYears: 4, lastTest: null },
      discardedAt: null,
    });
    // Not on the ledger (ADR 270): no transaction was added for it.
    expect(await ledgerTransactions(p)).toBe(before);
  });

  it('refuses a body that breaks the contract with a clear message', async () => {
    const res = await call(ALICE, 'POST', '/api/seed-lots', lotBody({ quantity: { amount: 5, unit: 'handfuls' } }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body.error)).toContain('unit');
  });

  it('shows its holder every field and anyone else the public ones', async () => {
    const mine = await call(ALICE, 'GET', `/api/seed-lots/${lotId}`);
    expect(mine.body.data).toMatchObject({ access: 'holder', notes: 'best fruit of the south bed' });
    // Its parents named, mother first, as registered: a page shows them without a read per plant.
    const named = (id: string) => ({ id, commonName: 'Tomato', scientificName: 'Solanum lycopersicum' });
    expect(mine.body.data.parents).toEqual([named(mother), named(father)]);
    for (const who of [BOB, null]) {
      const res = await call(who, 'GET', `/api/seed-lots/${lotId}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        access: 'public',
        crop: 'Tomato',
        parentPlantIds: [mother, father],
        parents: [named(mother), named(father)],
        quantity: null,
        storage: null,
        notes: null,
        viability: null,
      });
    }
    expect((await call(BOB, 'GET', `/api/seed-lots/lot_nosuchlot00000000001`)).status).toBe(404);
  });

  it('records germination tests and carries the last one to an expected viability', async () => {
    const future = await call(ALICE, 'POST', `/api/seed-lots/${lotId}/germination-tests`, {
      testedOn: '2999-01-01',
      seedsSown: 10,
      germinated: 5,
    });
    expect(future.status).toBe(400);
    expect(future.body.error.details).toMatchObject({ field: 'testedOn' });
    const tooMany = await call(ALICE, 'POST', `/api/seed-lots/${lotId}/germination-tests`, {
      testedOn: '2026-01-10',
      seedsSown: 10,
      germinated: 11,
    });
    expect(tooMany.status).toBe(400);

    const first = await call(ALICE, 'POST', `/api/seed-lots/${lotId}/germination-tests`, {
      testedOn: '2026-01-10',
      seedsSown: 50,
      germinated: 45,
      method: 'between-paper',
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ rate: 0.9, method: 'between-paper' });
    const second = await call(ALICE, 'POST', `/api/seed-lots/${lotId}/germination-tests`, {
      testedOn: '2026-03-01',
      seedsSown: 20,
      germinated: 8,
    });
    expect(second.body.data).toMatchObject({ rate: 0.4, method: 'paper-towel' });

    const lot = await call(ALICE, 'GET', `/api/seed-lots/${lotId}`);
    expect(lot.body.data.viability.basis).toBe('test');
    expect(lot.body.data.viability.lastTest.id).toBe(second.body.data.id);
    expect(lot.body.data.viability.expected).toBeLessThanOrEqual(0.4);
    expect(lot.body.data.viability.low).toBe(true);

    const tests = await call(ALICE, 'GET', `/api/seed-lots/${lotId}/germination-tests?limit=1`);
    expect(tests.status).toBe(200);
    expect(tests.body.data.map((t: { id: string }) => t.id)).toEqual([second.body.data.id]);
    expect(tests.body.pagination).toMatchObject({ total: 2, limit: 1 });
    // Another grower neither reads nor adds tests.
    expect((await call(BOB, 'GET', `/api/seed-lots/${lotId}/germination-tests`)).status).toBe(403);
    const bobs = await call(BOB, 'POST', `/api/seed-lots/${lotId}/germination-tests`, {
      testedOn: '2026-03-02',
      seedsSown: 10,
      germinated: 10,
    });
    expect(bobs.status).toBe(403);
  });

  it('lists the owner’s lots with filters and pages, and only to the owner', async () => {
    const onion = await call(
      ALICE,
      'POST',
      '/api/seed-lots',
      lotBody({ crop: 'onion', variety: undefined, harvestYear: 2020 }),
    );
    expect(onion.status).toBe(201);
    const bean = await call(ALICE, 'POST', '/api/seed-lots', lotBody({ crop: 'bean', harvestYear: 2026 }));
    const all = await call(ALICE, 'GET', '/api/seed-lots');
    expect(all.body.data.map((l: { id: string }) => l.id)).toEqual([bean.body.data.id, lotId, onion.body.data.id]);
    const tomatoes = await call(ALICE, 'GET', '/api/seed-lots?crop=%20TOMATO');
    expect(tomatoes.body.data.map((l: { id: string }) => l.id)).toEqual([lotId]);
    const year = await call(ALICE, 'GET', '/api/seed-lots?harvestYear=2020');
    expect(year.body.data.map((l: { id: string }) => l.id)).toEqual([onion.body.data.id]);
    const low = await call(ALICE, 'GET', '/api/seed-lots?lowViability=true&limit=1');
    expect(low.body.data.map((l: { id: string }) => l.id)).toEqual([lotId]);
    expect(low.body.pagination.total).toBe(2);
    const page2 = await call(ALICE, 'GET', '/api/seed-lots?lowViability=true&limit=1&page=2');
    expect(page2.body.data.map((l: { id: string }) => l.id)).toEqual([onion.body.data.id]);
    const fine = await call(ALICE, 'GET', '/api/seed-lots?lowViability=false');
    expect(fine.body.data.map((l: { id: string }) => l.id)).toEqual([bean.body.data.id]);
    // Bob's list is his own (empty); naming Alice is refused.
    expect((await call(BOB, 'GET', '/api/seed-lots')).body.data).toEqual([]);
    expect((await call(BOB, 'GET', `/api/seed-lots?ownerId=${ALICE}`)).status).toBe(403);
    expect((await call(null, 'GET', '/api/seed-lots')).status).toBe(401);
  });

  it('records each quantity change, and lets only the holder change the lot', async () => {
    const refused = await call(BOB, 'PATCH', `/api/seed-lots/${lotId}`, { quantity: { amount: 1, unit: 'seeds' } });
    expect(refused.status).toBe(403);
    const res = await call(ALICE, 'PATCH', `/api/seed-lots/${lotId}`, {
      quantity: { amount: 80, unit: 'seeds' },
      quantityNote: 'sown 40',
      storage: null,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ quantity: { amount: 80, unit: 'seeds' }, storage: null });
    const empty = await call(ALICE, 'PATCH', `/api/seed-lots/${lotId}`, {});
    expect(empty.status).toBe(400);
    const changes = (await p.database.db.execute(
      sql`select reason, amount, delta, note, by from plants.seed_lot_quantity_changes where seed_lot_id = ${lotId} order by id`,
    )) as unknown as { reason: string; amount: number; delta: number; note: string | null; by: string }[];
    expect(changes).toEqual([
      { reason: 'recorded', amount: 120, delta: 120, note: null, by: ALICE },
      { reason: 'adjusted', amount: 80, delta: -40, note: 'sown 40', by: ALICE },
    ]);
  });

  it('puts the lot between generations in the lineage of a plant grown from it', async () => {
    const res = await call(ALICE, 'POST', '/api/plants/register', {
      ...plantInput({ commonName: 'Tomato', owner: { id: ALICE } }),
      seedLotId: lotId,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const child = res.body.data.id as string;
    const plant = await call(null, 'GET', `/api/plants/${child}`);
    expect(plant.body.data).toMatchObject({ parentId: mother, generation: 1, propagationType: 'seed' });
    const lineage = await call(null, 'GET', `/api/plants/lineage/${child}`);
    expect(lineage.body.data.plant.seedLot).toEqual({
      id: lotId,
      crop: 'Tomato',
      variety: 'Brandywine',
      harvestYear: 2025,
      parentPlantIds: [mother, father],
    });
    expect(lineage.body.data.ancestors.map((a: { id: string }) => a.id)).toEqual([mother]);
    expect(lineage.body.data.ancestors[0].seedLot).toBeNull();
    const down = await call(null, 'GET', `/api/plants/lineage/${mother}`);
    expect(down.body.data.descendants[0]).toMatchObject({ id: child, seedLot: { id: lotId } });
    // The plant's ledger transaction (a clone of the mother) names the lot.
    const tx = await ledgerTransaction(p, plant.body.data.block.txId);
    expect(tx.type).toBe('plant.clone');
    expect(JSON.stringify(tx)).toContain(lotId);
    const unknown = await call(ALICE, 'POST', '/api/plants/register', {
      ...plantInput({ owner: { id: ALICE } }),
      seedLotId: 'lot_nosuchlot00000000001',
    });
    expect(unknown.status).toBe(404);
  });

  it('is discarded, not erased: kept for the lineage, out of the list, closed to changes', async () => {
    const res = await call(ALICE, 'DELETE', `/api/seed-lots/${lotId}`);
    expect(res.status).toBe(200);
    expect(res.body.data.discardedAt).not.toBeNull();
    expect((await call(ALICE, 'DELETE', `/api/seed-lots/${lotId}`)).body.data.discardedAt).toBe(
      res.body.data.discardedAt,
    );
    expect((await call(null, 'GET', `/api/seed-lots/${lotId}`)).status).toBe(200);
    const list = await call(ALICE, 'GET', '/api/seed-lots');
    expect(list.body.data.map((l: { id: string }) => l.id)).not.toContain(lotId);
    expect((await call(ALICE, 'PATCH', `/api/seed-lots/${lotId}`, { notes: 'x' })).status).toBe(409);
    const sown = await call(ALICE, 'POST', '/api/plants/register', {
      ...plantInput({ owner: { id: ALICE } }),
      seedLotId: lotId,
    });
    expect(sown.status).toBe(409);
  });

  it('belongs to an organization acted for: viewers read, members write, managers discard, outsiders see the public form', async () => {
    const byViewer = await as('usr_seed_viewer', 'POST', '/api/seed-lots', lotBody());
    expect(byViewer.status).toBe(403);
    const made = await as('usr_seed_member', 'POST', '/api/seed-lots', lotBody({ crop: 'lettuce' }));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.data.id as string;
    expect(made.body.data.ownerId).toBe(orgId);

    const read = await as('usr_seed_viewer', 'GET', `/api/seed-lots/${id}`);
    expect(read.body.data.access).toBe('holder');
    const listed = await as('usr_seed_viewer', 'GET', '/api/seed-lots');
    expect(listed.body.data.map((l: { id: string }) => l.id)).toEqual([id]);
    expect((await as('usr_seed_viewer', 'PATCH', `/api/seed-lots/${id}`, { notes: 'x' })).status).toBe(403);
    expect((await as('usr_seed_member', 'PATCH', `/api/seed-lots/${id}`, { notes: 'dry' })).status).toBe(200);
    expect((await as('usr_seed_member', 'DELETE', `/api/seed-lots/${id}`)).status).toBe(403);
    // Without the header the member reads the public form: the lot is the organization's, not theirs.
    expect((await as('usr_seed_member', 'GET', `/api/seed-lots/${id}`, undefined, true)).body.data.access).toBe(
      'public',
    );
    expect((await call(BOB, 'GET', `/api/seed-lots/${id}`)).body.data.access).toBe('public');
    expect((await as(BOB, 'GET', `/api/seed-lots/${id}`)).status).toBe(403);
    expect((await as('usr_seed_mgr', 'DELETE', `/api/seed-lots/${id}`)).status).toBe(200);
  });
});
