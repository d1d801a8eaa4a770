import { service as chainMiner } from '@rootline/chain-miner';
import { ledgerTransaction, startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { ledgerTxId } from '@rootline/host';
import { service as plants } from '@rootline/plants';
import { service as transport } from '@rootline/transport';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Parties without an account read as "stated by" whoever stated their name, and records keep the names they were
 * written with while reads show the account's current name beside a different one (docs/privacy.md, "Names on
 * records"; ADR 194), through HTTP on NATS and PostgreSQL.
 */
const ADMIN = { id: 'usr_statedadmin1', name: 'Ada Admin' };
const ALICE = { id: 'usr_statedalice1', name: 'Alice Hofman' };
const BOB = { id: 'usr_statedbob001', name: 'Bob Visser' };
const GROCER = { id: 'shop-green-grocer', name: 'Green Grocer' };
const COOP = { id: 'coop-utrecht-veg', name: 'Utrecht Veg Co-op' };
const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };
const LEIDEN = { latitude: 52.1601, longitude: 4.497, city: 'Leiden', country: 'NL' };

describe('stated names and current account names in reads, over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  let admin: string;
  let alice: string;
  let bob: string;
  let time = Date.parse('2026-06-01T08:00:00Z');
  const nextTime = () => {
    time += 3_600_000;
    return new Date(time).toISOString();
  };

  beforeAll(async () => {
    // Names read afresh on every answer: the account is renamed between reads.
    p = await startTestPlatform([chainMiner, plants, transport], {
      CHAIN_DIFFICULTY: '8',
      ACCOUNT_NAMES_CACHE_MS: '0',
    });
    admin = await p.token('ADMIN', ADMIN.id, ADMIN.name);
    alice = await p.token('GROWER', ALICE.id, ALICE.name);
    bob = await p.token('GROWER', BOB.id, BOB.name);
  });
  afterAll(async () => p?.stop());

  const register = async (token: string, owner: Record<string, unknown>, commonName = 'Tomato') => {
    const res = await p.http('POST', '/api/plants/register', {
      token,
      body: { commonName, location: AMSTERDAM, owner, privacyLevel: 'exact' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };
  const record = async (token: string, plantId: string, kind: string, body: Record<string, unknown>) => {
    const res = await p.http('POST', `/api/transport/${kind}`, {
      token,
      body: { plantId, eventTime: nextTime(), to: LEIDEN, ...body },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };
  const journeyEvent = async (plantId: string, eventId: string) => {
    const res = await p.http('GET', `/api/transport/journey/${plantId}?limit=1000`);
    expect(res.status).toBe(200);
    return res.body.data.find((e: { id: string }) => e.id === eventId);
  };
  const rename = (id: string, name: string) =>
    p.database.db.execute(sql`update identity.users set name = ${name} where id = ${id}`);

  it('reads a plant owner an ADMIN names without an account as stated by the ADMIN, everywhere', async () => {
    const plantId = await register(admin, GROCER, 'Heirloom Carrot');
    const stated = { ...GROCER, statedBy: ADMIN };

    // A visitor's read, the lineage, "my plants" for the ADMIN, search by owner name.
    const plant = await p.http('GET', `/api/plants/${plantId}`);
    expect(plant.body.data.owner).toEqual(stated);
    const lineage = await p.http('GET', `/api/plants/lineage/${plantId}`);
    expect(lineage.body.data.plant.owner).toEqual(stated);
    const owned = await p.http('GET', `/api/plants/owned/${GROCER.id}`, { token: admin });
    expect(owned.body.data.map((x: { owner: unknown }) => x.owner)).toEqual([stated]);
    const search = await p.http('GET', '/api/plants/search?q=green%20grocer&type=owner');
    expect(search.body.data.find((x: { id: string }) => x.id === plantId)?.owner).toEqual(stated);
    const nearby = await p.http(
      'GET',
      `/api/plants/nearby?lat=${AMSTERDAM.latitude}&lon=${AMSTERDAM.longitude}&radius=1&limit=100`,
    );
    expect(nearby.body.data.find((x: { id: string }) => x.id === plantId)?.owner).toEqual(stated);

    // Stored with the row and on the ledger under the ADMIN's name then.
    const tx = await ledgerTransaction(p, ledgerTxId(plantId));
    expect(JSON.parse(tx.payload)).toMatchObject({ owner: GROCER, ownerNameStatedBy: ADMIN.name });

    // A propagation an ADMIN makes for the shop is stated by the ADMIN too; an account's own plant is not stated.
    const clone = await p.http('POST', '/api/plants/clone', {
      token: admin,
      body: { parentPlantId: plantId, propagationType: 'seed', newPlant: { location: AMSTERDAM, owner: GROCER } },
    });
    expect(clone.status, JSON.stringify(clone.body)).toBe(201);
    const child = await p.http('GET', `/api/plants/lineage/${clone.body.data.id}`);
    expect(child.body.data.plant.owner).toEqual(stated);
    expect(child.body.data.ancestors[0].owner).toEqual(stated);
    const own = await register(bob, { id: BOB.id });
    expect((await p.http('GET', `/api/plants/${own}`)).body.data.owner).toEqual(BOB);
  });

  it('reads a journey handler an ADMIN names without an account as stated by the ADMIN', async () => {
    const plantId = await register(bob, { id: BOB.id });
    const eventId = await record(admin, plantId, 'distribution', { handler: COOP, recipient: { id: ALICE.id } });
    const event = await journeyEvent(plantId, eventId);
    expect(event.handler).toEqual({ ...COOP, statedBy: ADMIN });
    expect(event.recipient).toEqual({ ...ALICE, nameStatedBy: null });
    const tx = await ledgerTransaction(p, ledgerTxId(eventId));
    expect(JSON.parse(tx.payload)).toMatchObject({ handlerId: COOP.id, handlerNameStatedBy: ADMIN.name });

    // A recipient without an account: stated by the caller, by id and name (and `nameStatedBy` as before).
    const handoff = await record(bob, plantId, 'distribution', { recipient: GROCER });
    expect((await journeyEvent(plantId, handoff)).recipient).toEqual({
      ...GROCER,
      statedBy: BOB,
      nameStatedBy: BOB.name,
    });
  });

  it('keeps stored names and shows the account’s current name beside one that differs', async () => {
    const plantId = await register(alice, { id: ALICE.id });
    const handed = await record(alice, plantId, 'distribution', { recipient: { id: BOB.id } });
    const toShop = await record(alice, plantId, 'distribution', { recipient: COOP });
    // A record written before names were bound: its row (and ledger) carry a name the account never had.
    await p.database.db.execute(sql`update plants.plants set owner_name = 'Alice the Gardener' where id = ${plantId}`);
    const before = await p.http('GET', `/api/plants/${plantId}`);
    expect(before.body.data.owner).toEqual({ id: ALICE.id, name: 'Alice the Gardener', accountName: ALICE.name });

    // Alice's account changes its display name: every stored name stays, each read shows the current one beside.
    const renamed = 'Alice de Vries';
    await rename(ALICE.id, renamed);
    try {
      const plant = await p.http('GET', `/api/plants/${plantId}`);
      expect(plant.body.data.owner).toEqual({ id: ALICE.id, name: 'Alice the Gardener', accountName: renamed });
      const lineage = await p.http('GET', `/api/plants/lineage/${plantId}`);
      expect(lineage.body.data.plant.owner).toEqual({ id: ALICE.id, name: 'Alice the Gardener', accountName: renamed });

      const event = await journeyEvent(plantId, handed);
      expect(event.handler).toEqual({ ...ALICE, accountName: renamed });
      expect(event.recipient).toEqual({ ...BOB, nameStatedBy: null });
      // Who stated the co-op's name is shown under the account's current name; the recorded one stays beside.
      expect((await journeyEvent(plantId, toShop)).recipient).toEqual({
        ...COOP,
        statedBy: { id: ALICE.id, name: renamed },
        nameStatedBy: ALICE.name,
      });
      const tx = await ledgerTransaction(p, ledgerTxId(handed));
      expect(JSON.parse(tx.payload)).toMatchObject({ handlerName: ALICE.name });
    } finally {
      await rename(ALICE.id, ALICE.name);
    }
  });
});
