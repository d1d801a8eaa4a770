import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, farmWithZone, MANAGER, startFarmPlatform, type TestPlatform } from './support.js';

const range = (min: number, max: number) => ({ min, max });
const targets = {
  ppfd: range(200, 400),
  photoperiodHours: 15,
  dayTemperatureC: 21,
  nightTemperatureC: 17,
  humidityPct: range(60, 70),
  co2Ppm: range(800, 1200),
  ecMsCm: range(1.0, 1.4),
  ph: range(6.4, 7.2),
};

describe('farm analytics over HTTP', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startFarmPlatform();
  });
  afterAll(async () => p?.stop());

  it('reports yield, success, utilisation and compliance by crop and recipe', async () => {
    const { farmId, zoneId } = await farmWithZone(p, undefined, { areaM2: 20, capacity: 400 });
    const recipe = await expectStatus(p, 201, 'POST', '/api/vertical-farm/recipes', {
      body: {
        parentId: 'rcp_basil0genovese00001',
        name: 'Basil from rooted cuttings',
        phases: [{ phase: 'vegetative', days: 21, targets }],
        sources: ['In-house'],
      },
    });
    const start = async (plantCount: number) =>
      (
        await expectStatus(p, 201, 'POST', '/api/vertical-farm/batch/start', {
          body: {
            farmId,
            zoneId,
            recipeId: recipe.body.data.id,
            crop: 'basil',
            variety: 'Genovese',
            plantCount,
            seedSource: { type: 'seed-lot', seedLot: 'B-7' },
          },
        })
      ).body.data.id as string;
    const harvested = await start(200);
    const failed = await start(100);
    const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const reading = { temperatureC: 20, humidityPct: 65, co2Ppm: 900, ppfd: 300, ecMsCm: 1.2, ph: 6.8 };
    // Four readings at distinct instants (an identical reading at the same instant is stored once).
    await expectStatus(p, 200, 'PUT', `/api/vertical-farm/batch/${harvested}/environment`, {
      body: {
        readings: [
          { ...reading, at: at(4) },
          { ...reading, at: at(3) },
          { ...reading, at: at(2) },
          { ...reading, at: at(1), ph: 5 },
        ],
      },
    });
    await expectStatus(p, 201, 'POST', `/api/vertical-farm/batch/${harvested}/harvest`, {
      body: { yieldKg: 8, qualityGrade: 'premium' },
    });
    await expectStatus(p, 200, 'POST', `/api/vertical-farm/batch/${failed}/fail`, { body: { reason: 'Downy mildew' } });

    const res = await expectStatus(p, 200, 'GET', `/api/vertical-farm/${farmId}/analytics`, { role: 'USER' });
    const a = res.body.data;
    expect(a.farmId).toBe(farmId);
    expect(Date.parse(a.to) - Date.parse(a.from)).toBe(365 * 86_400_000);
    expect(a.totals).toMatchObject({
      batchesStarted: 2,
      harvested: 1,
      failed: 1,
      successRate: 0.5,
      yieldKg: 8,
      readings: 4,
      compliance: 0.75,
    });
    expect(a.totals.yieldPerM2PerYear).toBeGreaterThan(0);
    expect(a.byCrop).toHaveLength(1);
    expect(a.byCrop[0]).toMatchObject({ crop: 'basil', harvested: 1, failed: 1, compliance: 0.75 });
    expect(a.byRecipe[0]).toMatchObject({ recipeId: recipe.body.data.id, name: 'Basil from rooted cuttings (v2)' });
    expect(a.zones).toEqual([{ zoneId, name: 'Level 1 NFT', utilisation: expect.any(Number) }]);
  });

  it('takes a period, refuses an inverted one and an unknown farm', async () => {
    const { farmId } = await farmWithZone(p);
    const empty = await expectStatus(
      p,
      200,
      'GET',
      `/api/vertical-farm/${farmId}/analytics?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z`,
      { role: 'USER' },
    );
    expect(empty.body.data.totals).toMatchObject({ batchesStarted: 0, readings: 0, compliance: null });
    const inverted = await p.http(
      'GET',
      `/api/vertical-farm/${farmId}/analytics?from=2021-01-01T00:00:00Z&to=2020-01-01T00:00:00Z`,
      { role: 'FARM_MANAGER', sub: MANAGER },
    );
    expect(inverted.status).toBe(400);
    expect(inverted.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'from' } });
    const bad = await p.http('GET', `/api/vertical-farm/${farmId}/analytics?from=yesterday`, {
      role: 'FARM_MANAGER',
      sub: MANAGER,
    });
    expect(bad.status).toBe(400);
    const unknown = await p.http('GET', '/api/vertical-farm/frm_00000000000000000000000000/analytics', {
      role: 'USER',
    });
    expect(unknown.status).toBe(404);
  });
});
