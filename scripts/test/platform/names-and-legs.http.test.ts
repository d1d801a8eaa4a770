import { service as chainMiner } from '@rootline/chain-miner';
import { epcisEventId, haversineKm } from '@rootline/domain';
import { ledgerTransaction, startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { ledgerTxId } from '@rootline/host';
import { service as plants } from '@rootline/plants';
import { service as transparency } from '@rootline/transparency';
import { service as transport } from '@rootline/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Names on records are the accounts' own, and journey legs touching a fuzzy or hidden point show no distance finer
 * than the point (docs/privacy.md, "Names on records" and "Journey legs near hidden points"): each attack of the
 * privacy sweep, through HTTP on NATS and PostgreSQL.
 */
const ALICE = { id: 'usr_namesalice01', name: 'Alice Hofman' };
const BOB = { id: 'usr_namesbob0001', name: 'Bob Visser' };
const CY = { id: 'usr_namescy00001', name: 'Cy Jansen' };
const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };
/** Alice's home: her plant there is hidden. */
const ALICE_HOME = { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' };
const LEIDEN = { latitude: 52.1601, longitude: 4.497, city: 'Leiden', country: 'NL' };

describe('names bound to accounts and legs near hidden points, over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  let alice: string;
  let bob: string;
  let cy: string;
  let bobPlant: string;
  let time = Date.parse('2026-06-01T08:00:00Z');
  const nextTime = () => {
    time += 3_600_000;
    return new Date(time).toISOString();
  };

  beforeAll(async () => {
    p = await startTestPlatform([chainMiner, plants, transport, transparency], { CHAIN_DIFFICULTY: '8' });
    alice = await p.token('GROWER', ALICE.id, ALICE.name);
    bob = await p.token('GROWER', BOB.id, BOB.name);
    cy = await p.token('USER', CY.id, CY.name);
    const res = await p.http('POST', '/api/plants/register', {
      token: bob,
      body: { commonName: 'Tomato', location: AMSTERDAM, owner: { id: BOB.id }, privacyLevel: 'exact' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    bobPlant = res.body.data.id;
  });
  afterAll(async () => p?.stop());

  const record = (kind: string, body: Record<string, unknown>, token = bob) =>
    p.http('POST', `/api/transport/${kind}`, {
      token,
      body: { plantId: bobPlant, eventTime: nextTime(), to: LEIDEN, ...body },
    });
  const journeyEvent = async (eventId: string, token: string) => {
    const res = await p.http('GET', `/api/transport/journey/${bobPlant}?limit=1000`, { token });
    expect(res.status).toBe(200);
    return { event: res.body.data.find((e: { id: string }) => e.id === eventId), meta: res.body.meta };
  };

  it('refuses Bob registering a plant as owner {id: bob, name: "Alice"} (400 naming owner.name)', async () => {
    const res = await p.http('POST', '/api/plants/register', {
      token: bob,
      body: { commonName: 'Basil', location: AMSTERDAM, owner: { id: BOB.id, name: ALICE.name } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('owner.name'),
      details: { field: 'owner.name', reason: 'not-account-name' },
    });

    const clone = await p.http('POST', '/api/plants/clone', {
      token: bob,
      body: {
        parentPlantId: bobPlant,
        propagationType: 'cutting',
        newPlant: { location: AMSTERDAM, owner: { id: BOB.id, name: ALICE.name } },
      },
    });
    expect(clone.status).toBe(400);
    expect(clone.body.error.details).toMatchObject({ field: 'newPlant.owner.name', reason: 'not-account-name' });
  });

  it('records the account’s name on the plant and the ledger, whether the name is left out or sent as it is', async () => {
    for (const owner of [{ id: BOB.id }, { id: BOB.id, name: BOB.name }]) {
      const res = await p.http('POST', '/api/plants/register', {
        token: bob,
        body: { commonName: 'Basil', location: AMSTERDAM, owner },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const plant = await p.http('GET', `/api/plants/${res.body.data.id}`, { token: cy });
      expect(plant.body.data.owner).toEqual(BOB);
      const tx = await ledgerTransaction(p, ledgerTxId(res.body.data.id));
      expect(JSON.parse(tx.payload)).toMatchObject({ owner: BOB });
    }
  });

  it('refuses a transport event naming a registered recipient or handler with a wrong name (400 naming the field)', async () => {
    const wrongRecipient = await record('distribution', { recipient: { id: ALICE.id, name: 'Leiden Food Co-op' } });
    expect(wrongRecipient.status).toBe(400);
    expect(wrongRecipient.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'recipient.name', reason: 'not-account-name' },
    });
    const wrongHandler = await record('growing', { handler: { id: BOB.id, name: ALICE.name } });
    expect(wrongHandler.status).toBe(400);
    expect(wrongHandler.body.error.details).toMatchObject({ field: 'handler.name', reason: 'not-account-name' });

    const named = await record('distribution', { recipient: { id: ALICE.id } });
    expect(named.status, JSON.stringify(named.body)).toBe(201);
    const { event } = await journeyEvent(named.body.data.id, cy);
    expect(event.handler).toEqual(BOB);
    expect(event.recipient).toEqual({ ...ALICE, nameStatedBy: null });
  });

  it('stores an unregistered party as stated and reads it as stated by the caller', async () => {
    const coop = { id: 'coop-leiden-food', name: 'Leiden Food Co-op' };
    const res = await record('distribution', { recipient: coop });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { event } = await journeyEvent(res.body.data.id, alice);
    expect(event.recipient).toEqual({ ...coop, statedBy: BOB, nameStatedBy: BOB.name });
    const tx = await ledgerTransaction(p, ledgerTxId(res.body.data.id));
    expect(JSON.parse(tx.payload)).toMatchObject({
      recipientId: coop.id,
      recipientName: coop.name,
      recipientNameStatedBy: BOB.name,
      handlerName: BOB.name,
    });

    // Any id no account has is such a party, whatever it looks like; a body cannot say who stated the name.
    const ghost = await record('distribution', {
      recipient: { id: 'usr_nobodyhere01', name: 'Nobody', nameStatedBy: ALICE.name },
    });
    expect(ghost.status, JSON.stringify(ghost.body)).toBe(201);
    expect((await journeyEvent(ghost.body.data.id, cy)).event.recipient).toEqual({
      id: 'usr_nobodyhere01',
      name: 'Nobody',
      statedBy: BOB,
      nameStatedBy: BOB.name,
    });
    // A party without an account needs its name stated.
    const nameless = await record('distribution', { recipient: { id: 'coop-nameless' } });
    expect(nameless.status).toBe(400);
    expect(nameless.body.error.details).toMatchObject({ field: 'recipient.name', reason: 'name-required' });
  });

  it('shows others no exact distance of a leg between a public and a hidden plant, and keeps the owner’s footprint exact', async () => {
    const hidden = await p.http('POST', '/api/plants/register', {
      token: alice,
      body: { commonName: 'Tomato', location: ALICE_HOME, owner: { id: ALICE.id }, privacyLevel: 'hidden' },
    });
    expect(hidden.status).toBe(201);
    const exactKm = haversineKm(AMSTERDAM, ALICE_HOME);
    const fuzzyKm = haversineKm(AMSTERDAM, LEIDEN);
    const before = (await p.http('GET', `/api/transport/footprint/${BOB.id}`, { token: bob })).body.data;

    // Bob hands his (public, exact) plant to Alice's hidden home; then a fuzzy leg to Leiden.
    const toHidden = await record('distribution', {
      from: AMSTERDAM,
      to: ALICE_HOME,
      privacyLevel: 'hidden',
      transportMode: 'car',
      massKg: 2,
      recipient: { id: ALICE.id },
    });
    expect(toHidden.status, JSON.stringify(toHidden.body)).toBe(201);
    // The handler's own answer is the measured one.
    expect(toHidden.body.data.distanceKm).toBeCloseTo(exactKm, 2);
    const toFuzzy = await record('distribution', {
      from: AMSTERDAM,
      to: LEIDEN,
      privacyLevel: 'fuzzy',
      transportMode: 'car',
      massKg: 2,
    });
    expect(toFuzzy.status).toBe(201);
    const hiddenId = toHidden.body.data.id as string;
    const fuzzyId = toFuzzy.body.data.id as string;

    // The journey, read by someone else: no distance to the hidden end, the fuzzy one to its 5 km step.
    const seen = await journeyEvent(hiddenId, cy);
    expect(seen.event).toMatchObject({ distanceKm: null, kgCo2e: null, from: null, to: null });
    const fuzzy = (await journeyEvent(fuzzyId, cy)).event;
    expect(fuzzy.distanceKm % 5).toBe(0);
    expect(Math.abs(fuzzy.distanceKm - fuzzyKm)).toBeLessThanOrEqual(2.5);
    expect(fuzzy.distanceKm).not.toBeCloseTo(fuzzyKm, 1);
    // Totals carry no exact leg either: the hidden one adds nothing (the other legs of this journey are 0 km).
    expect(seen.meta.totals.distanceKm).toBe(fuzzy.distanceKm);

    // The public trace page.
    const page = await p.http('GET', `/api/transport/trace/${bobPlant}`);
    expect(page.status).toBe(200);
    const html = String(page.body);
    expect(html).not.toContain(String(toHidden.body.data.distanceKm));
    expect(html).not.toContain(String(toFuzzy.body.data.distanceKm));
    expect(html).toContain('distance not shown');

    // The ledger (public forever) and the exports.
    const hiddenTx = await ledgerTransaction(p, ledgerTxId(hiddenId));
    expect(JSON.parse(hiddenTx.payload)).toMatchObject({ distanceKm: null, kgCo2e: null });
    expect(hiddenTx.payload).not.toContain('exact');
    const fuzzyTx = await ledgerTransaction(p, ledgerTxId(fuzzyId));
    expect(JSON.parse(fuzzyTx.payload)).toMatchObject({ distanceKm: fuzzy.distanceKm });
    const exported = async (format: string) => {
      let res = await p.http('GET', `/api/transparency/export?format=${format}&type=transport.completed`, {
        token: cy,
      });
      for (let i = 0; i < 50 && !String(JSON.stringify(res.body)).includes(fuzzyId.slice(4)); i++) {
        await new Promise((r) => setTimeout(r, 200));
        res = await p.http('GET', `/api/transparency/export?format=${format}&type=transport.completed`, {
          token: cy,
        });
      }
      expect(res.status).toBe(200);
      return typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    };
    for (const format of ['json', 'csv', 'epcis']) {
      const text = await exported(format);
      // EPCIS names the event by its urn:uuid (ADR 276), the others by its id.
      expect(text, format).toContain(format === 'epcis' ? epcisEventId(fuzzyId) : fuzzyId.slice(4));
      expect(text, format).not.toContain(String(toHidden.body.data.distanceKm));
      expect(text, format).not.toContain(String(toFuzzy.body.data.distanceKm));
    }

    // The owner's own footprint stays exact.
    const after = (await p.http('GET', `/api/transport/footprint/${BOB.id}`, { token: bob })).body.data;
    expect(after.distanceKm - before.distanceKm).toBeCloseTo(exactKm + fuzzyKm, 2);
  });
});
