import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, MANAGER, startFarmPlatform, type TestPlatform } from './support.js';

const range = (min: number, max: number) => ({ min, max });
const targets = {
  ppfd: range(250, 300),
  photoperiodHours: 16,
  dayTemperatureC: 22,
  nightTemperatureC: 17,
  humidityPct: range(55, 70),
  co2Ppm: range(800, 1200),
  ecMsCm: range(1.1, 1.4),
  ph: range(5.6, 6.0),
};

describe('growing recipes over HTTP', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startFarmPlatform();
  });
  afterAll(async () => p?.stop());

  it('ships lettuce, basil, kale, microgreens and strawberry recipes with sources and DLI', async () => {
    const res = await expectStatus(p, 200, 'GET', '/api/vertical-farm/recipes?limit=100', { role: 'USER' });
    const crops = res.body.data.map((r: { crop: string }) => r.crop);
    expect(crops).toEqual(expect.arrayContaining(['lettuce', 'basil', 'kale', 'microgreens', 'strawberry']));
    expect(res.body.pagination).toMatchObject({ page: 1, total: 5 });
    for (const recipe of res.body.data) {
      expect(recipe.sources.length).toBeGreaterThan(0);
      expect(recipe).toMatchObject({ version: 1, parentId: null, authorId: null });
    }
    const lettuce = res.body.data.find((r: { crop: string }) => r.crop === 'lettuce');
    const vegetative = lettuce.phases.find((ph: { phase: string }) => ph.phase === 'vegetative');
    // 295 µmol/m²/s for 16 h: the handbook's 17 mol/m²/d.
    expect(vegetative.dli).toBe(16.99);
    expect(lettuce.cycleDays).toBe(35);
    expect(lettuce.outcomes).toEqual({
      batches: 0,
      harvested: 0,
      failed: 0,
      successRate: null,
      yieldPerM2: null,
      cycleDays: null,
    });
  });

  it('filters by crop', async () => {
    const res = await expectStatus(p, 200, 'GET', '/api/vertical-farm/recipes?crop=basil', { role: 'USER' });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].crop).toBe('basil');
    const bad = await p.http('GET', '/api/vertical-farm/recipes?crop=tobacco', { role: 'USER' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('derives a new version from a parent, authored by the caller', async () => {
    const body = {
      parentId: 'rcp_lettuce0butterhead01',
      name: 'Lettuce, cooler nights',
      phases: [
        { phase: 'seedling', days: 10, targets },
        { phase: 'vegetative', days: 22, targets },
      ],
      sources: ['Own trials 2026'],
    };
    const res = await expectStatus(p, 201, 'POST', '/api/vertical-farm/recipes', { body });
    expect(res.body.data).toMatchObject({
      crop: 'lettuce',
      version: 2,
      parentId: 'rcp_lettuce0butterhead01',
      authorId: MANAGER,
      cycleDays: 32,
    });
    const grandchild = await expectStatus(p, 201, 'POST', '/api/vertical-farm/recipes', {
      body: { ...body, parentId: res.body.data.id, name: 'Lettuce, v3' },
    });
    expect(grandchild.body.data).toMatchObject({ version: 3, parentId: res.body.data.id });
    const list = await expectStatus(p, 200, 'GET', '/api/vertical-farm/recipes?crop=lettuce', { role: 'USER' });
    expect(list.body.data.map((r: { version: number }) => r.version)).toEqual([1, 2, 3]);
  });

  it('refuses a derived recipe to USER, for an unknown parent, and with min above max', async () => {
    const body = {
      parentId: 'rcp_lettuce0butterhead01',
      name: 'x',
      phases: [{ phase: 'vegetative', days: 20, targets }],
      sources: [],
    };
    const user = await p.http('POST', '/api/vertical-farm/recipes', { role: 'USER', body });
    expect(user.status).toBe(403);
    const unknown = await p.http('POST', '/api/vertical-farm/recipes', {
      role: 'FARM_MANAGER',
      sub: MANAGER,
      body: { ...body, parentId: 'rcp_00000000000000000000' },
    });
    expect(unknown.status).toBe(404);
    const inverted = await p.http('POST', '/api/vertical-farm/recipes', {
      role: 'FARM_MANAGER',
      sub: MANAGER,
      body: { ...body, phases: [{ phase: 'vegetative', days: 20, targets: { ...targets, ph: range(7, 5) } }] },
    });
    expect(inverted.status).toBe(400);
    expect(inverted.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'phases.0.targets.ph' } });
  });
});
