import { batchStarted } from '@rootline/contracts';
import { collectEvents } from '@rootline/gateway/testing';
import { plantInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, farmWithZone, MANAGER, OTHER_MANAGER, startFarmPlatform, type TestPlatform } from './support.js';

const LETTUCE = 'rcp_lettuce0butterhead01';
const seedLot = { type: 'seed-lot', seedLot: 'RZ-2026-0412', supplier: 'Rijk Zwaan' };

describe('crop batches over HTTP', () => {
  let p: TestPlatform;
  let farmId: string;
  let zoneId: string;
  const start = (over: Record<string, unknown> = {}, sub = MANAGER) =>
    p.http('POST', '/api/vertical-farm/batch/start', {
      role: 'FARM_MANAGER',
      sub,
      body: {
        farmId,
        zoneId,
        recipeId: LETTUCE,
        crop: 'lettuce',
        variety: 'Rex',
        plantCount: 100,
        seedSource: seedLot,
        ...over,
      },
    });

  beforeAll(async () => {
    p = await startFarmPlatform();
    ({ farmId, zoneId } = await farmWithZone(p, MANAGER, { capacity: 500 }));
  });
  afterAll(async () => p?.stop());

  it('starts a batch from a seed lot: germinating, first phase, expected harvest after the recipe’s 35 days', async () => {
    const events = await collectEvents(p.bus, batchStarted);
    const res = await start();
    expect(res.status).toBe(201);
    const batch = res.body.data;
    expect(batch).toMatchObject({
      farmId,
      zoneId,
      recipeId: LETTUCE,
      state: 'germinating',
      phase: 'germination',
      daysInPhase: 0,
      plantCount: 100,
      seedSource: { type: 'seed-lot', seedLot: 'RZ-2026-0412', plantId: null },
      readings: { count: 0, compliance: null },
      harvest: null,
    });
    expect(batch.targets.ppfd).toEqual({ min: 40, max: 60 });
    const days = (Date.parse(batch.expectedHarvestAt) - Date.parse(batch.startedAt)) / 86_400_000;
    expect(days).toBe(35);
    const read = await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${batch.id}`, { role: 'USER' });
    expect(read.body.data).toEqual(batch);
    const event = await events.next((e) => e.batchId === batch.id);
    expect(event).toMatchObject({ farmId, zoneId, crop: 'lettuce', plantId: null });
    await events.stop();
  });

  it('records a batch started 10 days ago with the state, phase and expected harvest of a 10-day-old batch', async () => {
    const startedAt = new Date(Date.now() - 10 * 86_400_000);
    const res = await start({ startedAt: startedAt.toISOString(), plantCount: 5 });
    expect(res.status).toBe(201);
    // Butterhead lettuce: germination 3 days, seedling 8, vegetative 24: day 10 is the seedling phase's 7th day.
    expect(res.body.data).toMatchObject({
      state: 'growing',
      phase: 'seedling',
      daysInPhase: 7,
      startedAt: startedAt.toISOString(),
      expectedHarvestAt: new Date(startedAt.getTime() + 35 * 86_400_000).toISOString(),
    });
    const read = await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${res.body.data.id}`, { role: 'USER' });
    expect(read.body.data).toMatchObject({ state: 'growing', phase: 'seedling', daysInPhase: 7 });
  });

  it('records a batch whose harvest window has come as ready', async () => {
    const startedAt = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const res = await start({ startedAt, plantCount: 5 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ state: 'ready', phase: 'vegetative', startedAt });
  });

  it('refuses a start in the future or before the recipe’s cycle plus a year', async () => {
    for (const days of [1, -(35 + 366)]) {
      const res = await start({ startedAt: new Date(Date.now() + days * 86_400_000).toISOString(), plantCount: 5 });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'startedAt' } });
    }
    const bad = await start({ startedAt: 'last week', plantCount: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('links a batch to a registered plant, checked with the plant registry', async () => {
    const plant = await p.http('POST', '/api/plants/register', {
      role: 'FARM_MANAGER',
      sub: MANAGER,
      body: plantInput({ commonName: 'Butterhead mother', owner: { id: MANAGER } }),
    });
    expect(plant.status).toBe(201);
    const res = await start({ seedSource: { type: 'plant', plantId: plant.body.data.id }, plantCount: 10 });
    expect(res.status).toBe(201);
    expect(res.body.data.seedSource).toMatchObject({
      type: 'plant',
      plantId: plant.body.data.id,
      plantName: 'Butterhead mother',
      plantBlockHash: plant.body.data.blockHash,
    });
    const unknown = await start({ seedSource: { type: 'plant', plantId: 'plt_00000000000000000000000000' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });

  it('respects the zone’s plant sites', async () => {
    const { farmId: f, zoneId: z } = await farmWithZone(p, MANAGER, { capacity: 150 });
    const first = await start({ farmId: f, zoneId: z, plantCount: 100 });
    expect(first.status).toBe(201);
    const over = await start({ farmId: f, zoneId: z, plantCount: 51 });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { reason: 'zone-capacity', capacity: 150, used: 100 },
    });
    expect((await start({ farmId: f, zoneId: z, plantCount: 50 })).status).toBe(201);
    const zones = await expectStatus(p, 200, 'GET', `/api/vertical-farm/${f}/zones`, { role: 'USER' });
    expect(zones.body.data[0].plantsGrowing).toBe(150);
  });

  it('refuses a recipe of another crop, an unknown zone or recipe, and a bad body', async () => {
    const mismatch = await start({ crop: 'basil' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.details).toMatchObject({ field: 'crop' });
    expect((await start({ zoneId: 'zon_00000000000000000000000000' })).status).toBe(404);
    expect((await start({ recipeId: 'rcp_00000000000000000000' })).status).toBe(404);
    const bad = await start({ plantCount: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
  });

  it('lets only the farm’s owner or an ADMIN start or fail a batch', async () => {
    const other = await start({}, OTHER_MANAGER);
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('FORBIDDEN');
    const grower = await p.http('POST', '/api/vertical-farm/batch/start', { role: 'GROWER', body: {} });
    expect(grower.status).toBe(403);
    const batch = (await start()).body.data;
    const refused = await p.http('POST', `/api/vertical-farm/batch/${batch.id}/fail`, {
      role: 'FARM_MANAGER',
      sub: OTHER_MANAGER,
      body: { reason: 'not mine' },
    });
    expect(refused.status).toBe(403);
    const failed = await p.http('POST', `/api/vertical-farm/batch/${batch.id}/fail`, {
      role: 'ADMIN',
      sub: 'usr_admin',
      body: { reason: 'Pythium root rot' },
    });
    expect(failed.status).toBe(200);
    expect(failed.body.data).toMatchObject({ state: 'failed', failureReason: 'Pythium root rot', phase: null });
    const again = await p.http('POST', `/api/vertical-farm/batch/${batch.id}/fail`, {
      role: 'ADMIN',
      sub: 'usr_admin',
      body: { reason: 'twice' },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('DUPLICATE');
  });

  it('answers 404 for an unknown batch', async () => {
    const res = await p.http('GET', '/api/vertical-farm/batch/bat_00000000000000000000000000', { role: 'USER' });
    expect(res.status).toBe(404);
  });

  it("refuses a farm's batches and analytics to other users while its profile and zones stay readable", async () => {
    const batch = (await start({ plantCount: 5 })).body.data;
    const others = [
      { role: 'USER' as const, sub: 'usr_buyer' },
      { role: 'FARM_MANAGER' as const, sub: OTHER_MANAGER },
    ];
    for (const who of others) {
      for (const url of [`/api/vertical-farm/batch/${batch.id}`, `/api/vertical-farm/${farmId}/analytics`]) {
        const res = await p.http('GET', url, who);
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'not-owner' } });
      }
      await expectStatus(p, 200, 'GET', `/api/vertical-farm/${farmId}`, who);
      await expectStatus(p, 200, 'GET', `/api/vertical-farm/${farmId}/zones`, who);
    }
    const admin = { role: 'ADMIN' as const, sub: 'usr_admin' };
    const read = await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${batch.id}`, admin);
    expect(read.body.data).toEqual(batch);
    await expectStatus(p, 200, 'GET', `/api/vertical-farm/${farmId}/analytics`, admin);
    const own = await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${batch.id}`, { sub: MANAGER });
    expect(own.body.data).toEqual(batch);
  });
});
