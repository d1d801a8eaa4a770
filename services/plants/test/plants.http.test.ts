import type { DeliveredEvent } from '@rootline/bus';
import { PROPAGATION_TYPES, plantCloned, plantRegistered } from '@rootline/contracts';
import { ledgerTransaction } from '@rootline/gateway/testing';
import { cloneInput, plantInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlantsPlatform, type TestPlatform } from './support.js';

/** The ledger transaction as the chain serves it (type and the exact JSON that was hashed). */
async function ledgerTx(p: TestPlatform, txId: string): Promise<{ type: string; payload: Record<string, unknown> }> {
  const tx = await ledgerTransaction(p, txId);
  return { type: tx.type, payload: JSON.parse(tx.payload) };
}

describe('plants over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  let grower: string;
  let reader: string;
  const events: DeliveredEvent[] = [];
  beforeAll(async () => {
    p = await startPlantsPlatform();
    // Registers for the owners the bodies name, which only an ADMIN may do; it is recorded as registeredBy.
    grower = await p.token('ADMIN', 'usr_actor');
    reader = await p.token('USER', 'usr_reader');
    await p.bus.consume({
      durable: 'plants-http-registered',
      subject: plantRegistered.subject,
      handler: async (e) => {
        events.push(e);
      },
    });
    await p.bus.consume({
      durable: 'plants-http-cloned',
      subject: plantCloned.subject,
      handler: async (e) => {
        events.push(e);
      },
    });
  });
  afterAll(async () => p?.stop());

  const register = (body: unknown) => p.http('POST', '/api/plants/register', { token: grower, body });
  const clone = (body: unknown) => p.http('POST', '/api/plants/clone', { token: grower, body });

  describe('registration', () => {
    it('registers (201) on a mined block, reads back the plant and emits plant.registered', async () => {
      const created = await register(plantInput({ commonName: 'Mint' }));
      expect(created.status).toBe(201);
      const { id, blockHash, timestamp } = created.body.data;
      expect(Object.keys(created.body.data).sort()).toEqual(['blockHash', 'id', 'timestamp']);
      expect(id).toMatch(/^plt_[0-9A-Z]{26}$/);
      expect(blockHash).toMatch(/^[0-9a-f]{64}$/);
      expect(new Date(timestamp).toISOString()).toBe(timestamp);

      const got = await p.http('GET', `/api/plants/${id}`, { token: reader });
      expect(got.status).toBe(200);
      expect(got.body.data).toMatchObject({
        id,
        commonName: 'Mint',
        scientificName: 'Solanum lycopersicum',
        privacyLevel: 'exact',
        owner: { id: 'usr_test', name: 'Test Grower' },
        walletAddress: null,
        generation: 0,
        parentId: null,
        propagationType: null,
        block: { hash: blockHash },
        registeredAt: timestamp,
      });
      expect(got.body.data.block.index).toBeGreaterThan(0);

      await expect.poll(() => events.find((e) => (e.payload as { plantId: string }).plantId === id)).toBeTruthy();
      expect(events.find((e) => (e.payload as { plantId: string }).plantId === id)?.payload).toEqual({
        plantId: id,
        commonName: 'Mint',
        ownerId: 'usr_test',
        scientificName: 'Solanum lycopersicum',
        privacyLevel: 'exact',
        location: got.body.data.location,
      });
    });

    it('records the plant on the ledger as plant.register, and the acting user as registeredBy', async () => {
      const input = plantInput({ commonName: 'Sage' });
      const created = await register(input);
      const plant = (await p.http('GET', `/api/plants/${created.body.data.id}`, { token: reader })).body.data;
      const tx = await ledgerTx(p, plant.block.txId);
      expect(tx.type).toBe('plant.register');
      expect(tx.payload).toMatchObject({
        plantId: plant.id,
        commonName: 'Sage',
        location: input.location,
        owner: input.owner,
        generation: 0,
        parentId: null,
        privacyLevel: 'exact',
      });
      const rows = (await p.database.db.execute(
        sql`select registered_by from plants.plants where id = ${plant.id}`,
      )) as unknown as { registered_by: string }[];
      expect(rows[0]?.registered_by).toBe('usr_actor');
    });

    it.each([
      ['commonName missing', { commonName: undefined }, 'body/commonName'],
      ['commonName empty', { commonName: '' }, 'body/commonName'],
      ['commonName too long', { commonName: 'x'.repeat(201) }, 'body/commonName'],
      ['commonName not a string', { commonName: { text: 'Mint' } }, 'body/commonName'],
      ['owner not an object', { owner: 'Ada' }, 'body/owner'],
      ['location missing', { location: undefined }, 'body/location'],
      ['latitude above 90', { location: { latitude: 90.5, longitude: 0 } }, 'body/location/latitude'],
      ['latitude below -90', { location: { latitude: -91, longitude: 0 } }, 'body/location/latitude'],
      ['longitude above 180', { location: { latitude: 0, longitude: 180.01 } }, 'body/location/longitude'],
      ['longitude below -180', { location: { latitude: 0, longitude: -181 } }, 'body/location/longitude'],
      ['latitude not a number', { location: { latitude: 'north', longitude: 0 } }, 'body/location/latitude'],
      ['longitude missing', { location: { latitude: 1 } }, 'body/location/longitude'],
      ['city too long', { location: { latitude: 1, longitude: 1, city: 'c'.repeat(121) } }, 'body/location/city'],
      ['owner missing', { owner: undefined }, 'body/owner'],
      ['owner name empty', { owner: { id: 'usr_1', name: '' } }, 'body/owner/name'],
      ['owner id too long', { owner: { id: 'u'.repeat(121), name: 'A' } }, 'body/owner/id'],
      ['scientificName too long', { scientificName: 's'.repeat(201) }, 'body/scientificName'],
      ['unknown privacy level', { privacyLevel: 'blurry' }, 'body/privacyLevel'],
      ['unknown field', { colour: 'green' }, 'body/colour'],
    ])('refuses %s with 400 VALIDATION_ERROR naming the field', async (_name, change, field) => {
      const res = await register({ ...plantInput(), ...change });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('refuses a request without a token (401)', async () => {
      const res = await p.http('POST', '/api/plants/register', { body: plantInput() });
      expect(res.status).toBe(401);
    });
  });

  describe('reading', () => {
    it('answers 404 NOT_FOUND for an unknown plant and 400 for a malformed id', async () => {
      const missing = await p.http('GET', '/api/plants/plt_00000000000000000000000000', { token: reader });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ success: false, data: null, error: { code: 'NOT_FOUND' } });
      const malformed = await p.http('GET', '/api/plants/not-a-plant', { token: reader });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('propagation', () => {
    it('clones: 201 like registration; inherits the species; generation + 1; parent link on the ledger', async () => {
      const parent = (await register(plantInput({ commonName: 'Rosemary', scientificName: 'Salvia rosmarinus' }))).body
        .data;
      const input = cloneInput(parent.id, {
        propagationType: 'cutting',
        newPlant: {
          location: { latitude: 51.92, longitude: 4.48, city: 'Rotterdam', country: 'NL' },
          owner: { id: 'usr_ben', name: 'Ben' },
        },
      });
      const res = await clone(input);
      expect(res.status).toBe(201);
      expect(Object.keys(res.body.data).sort()).toEqual(['blockHash', 'id', 'timestamp']);
      const child = (await p.http('GET', `/api/plants/${res.body.data.id}`, { token: reader })).body.data;
      expect(child).toMatchObject({
        commonName: 'Rosemary',
        scientificName: 'Salvia rosmarinus',
        generation: 1,
        parentId: parent.id,
        propagationType: 'cutting',
        owner: { id: 'usr_ben', name: 'Ben' },
        location: { latitude: 51.92, longitude: 4.48, city: 'Rotterdam', country: 'NL' },
        block: { hash: res.body.data.blockHash },
      });
      const tx = await ledgerTx(p, child.block.txId);
      expect(tx.type).toBe('plant.clone');
      expect(tx.payload).toMatchObject({
        plantId: child.id,
        parentId: parent.id,
        parentBlockHash: parent.blockHash,
        propagationType: 'cutting',
        generation: 1,
        commonName: 'Rosemary',
      });
      await expect
        .poll(
          () =>
            events.find(
              (e) => e.subject === plantCloned.subject && (e.payload as { plantId: string }).plantId === child.id,
            )?.payload,
        )
        .toEqual({ plantId: child.id, parentPlantId: parent.id, propagationType: 'cutting', generation: 1 });
      await expect
        .poll(() =>
          events.some(
            (e) => e.subject === plantRegistered.subject && (e.payload as { plantId: string }).plantId === child.id,
          ),
        )
        .toBe(true);

      const grandchild = await clone(cloneInput(child.id, { propagationType: 'seed' }));
      const gc = (await p.http('GET', `/api/plants/${grandchild.body.data.id}`, { token: reader })).body.data;
      expect(gc).toMatchObject({ generation: 2, parentId: child.id, propagationType: 'seed', commonName: 'Rosemary' });
    });

    it('accepts every documented propagation type and refuses others naming the field', async () => {
      const parent = (await register(plantInput())).body.data;
      for (const propagationType of PROPAGATION_TYPES) {
        const res = await clone(cloneInput(parent.id, { propagationType }));
        expect(res.status, propagationType).toBe(201);
      }
      const bad = await clone(cloneInput(parent.id, { propagationType: 'teleport' as 'clone' }));
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.map((d: { field: string }) => d.field)).toContain('body/propagationType');
    });

    it('answers 404 NOT_FOUND for an unknown parent and 400 for a malformed body', async () => {
      const missing = await clone(cloneInput('plt_00000000000000000000000000'));
      expect(missing.status).toBe(404);
      expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND' });
      expect(missing.body.error.message).toContain('plt_00000000000000000000000000');
      const noLocation = await clone({
        parentPlantId: 'plt_00000000000000000000000000',
        propagationType: 'clone',
        newPlant: { owner: { id: 'u', name: 'n' } },
      });
      expect(noLocation.status).toBe(400);
      expect(noLocation.body.error.details.map((d: { field: string }) => d.field)).toContain('body/newPlant/location');
      const noParent = await clone({ propagationType: 'clone', newPlant: cloneInput('x').newPlant });
      expect(noParent.body.error.details.map((d: { field: string }) => d.field)).toContain('body/parentPlantId');
    });
  });

  describe('lineage', () => {
    it('returns the ancestors up to the root and the descendants, each with id, names, generation, type, parent and owner', async () => {
      // root → a (clone) → b (seed) → c (graft); b → d (division)
      const root = (await register(plantInput({ commonName: 'Fig', scientificName: 'Ficus carica' }))).body.data;
      const a = (await clone(cloneInput(root.id, { propagationType: 'clone' }))).body.data;
      const b = (await clone(cloneInput(a.id, { propagationType: 'seed' }))).body.data;
      const c = (await clone(cloneInput(b.id, { propagationType: 'graft' }))).body.data;
      const d = (await clone(cloneInput(b.id, { propagationType: 'division' }))).body.data;

      const res = await p.http('GET', `/api/plants/lineage/${b.id}`, { token: reader });
      expect(res.status).toBe(200);
      const l = res.body.data;
      expect(l.plant).toEqual({
        id: b.id,
        commonName: 'Fig',
        scientificName: 'Ficus carica',
        generation: 2,
        propagationType: 'seed',
        parentId: a.id,
        // usr_test has no account here: the ADMIN who registered it stated its name.
        owner: { id: 'usr_test', name: 'Test Grower', statedBy: { id: 'usr_actor', name: 'Test ADMIN' } },
        seedLot: null,
        depth: 0,
      });
      expect(
        l.ancestors.map((n: { id: string; depth: number; generation: number }) => [n.id, n.depth, n.generation]),
      ).toEqual([
        [a.id, 1, 1],
        [root.id, 2, 0],
      ]);
      expect(l.ancestors[1]).toMatchObject({ parentId: null, propagationType: null });
      expect(l.descendants.map((n: { id: string }) => n.id).sort()).toEqual([c.id, d.id].sort());
      expect(
        l.descendants.every((n: { parentId: string; depth: number }) => n.parentId === b.id && n.depth === 1),
      ).toBe(true);
      expect(l).toMatchObject({ reachedRoot: true, truncated: false, pedigreeDepth: 1000, progenyDepth: 10 });

      const fromRoot = (await p.http('GET', `/api/plants/lineage/${root.id}`, { token: reader })).body.data;
      expect(fromRoot.ancestors).toEqual([]);
      expect(fromRoot.descendants.map((n: { id: string; depth: number }) => [n.id, n.depth]).slice(0, 2)).toEqual([
        [a.id, 1],
        [b.id, 2],
      ]);
      expect(fromRoot.descendants).toHaveLength(4);
    });

    it('honours pedigreeDepth and progenyDepth in the manner of BrAPI', async () => {
      const root = (await register(plantInput())).body.data;
      const a = (await clone(cloneInput(root.id))).body.data;
      const b = (await clone(cloneInput(a.id))).body.data;
      const c = (await clone(cloneInput(b.id))).body.data;
      const one = (await p.http('GET', `/api/plants/lineage/${b.id}?pedigreeDepth=1&progenyDepth=0`, { token: reader }))
        .body.data;
      expect(one.ancestors.map((n: { id: string }) => n.id)).toEqual([a.id]);
      expect(one.descendants).toEqual([]);
      expect(one).toMatchObject({ reachedRoot: false, pedigreeDepth: 1, progenyDepth: 0 });
      const down = (await p.http('GET', `/api/plants/lineage/${root.id}?progenyDepth=2`, { token: reader })).body.data;
      expect(down.descendants.map((n: { id: string }) => n.id)).toEqual([a.id, b.id]);
      expect(down.descendants.map((n: { id: string }) => n.id)).not.toContain(c.id);
    });

    it('refuses depths out of range and answers 404 for an unknown plant', async () => {
      const tooDeep = await p.http('GET', '/api/plants/lineage/plt_00000000000000000000000000?progenyDepth=101', {
        token: reader,
      });
      expect(tooDeep.status).toBe(400);
      expect(tooDeep.body.error.details[0].field).toBe('querystring/progenyDepth');
      const negative = await p.http('GET', '/api/plants/lineage/plt_00000000000000000000000000?pedigreeDepth=-1', {
        token: reader,
      });
      expect(negative.status).toBe(400);
      const missing = await p.http('GET', '/api/plants/lineage/plt_00000000000000000000000000', { token: reader });
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('NOT_FOUND');
    });
  });
});
