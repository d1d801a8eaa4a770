import { realtimePublished } from '@rootline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectStatus,
  farmInput,
  farmWithZone,
  MANAGER,
  OTHER_MANAGER,
  startFarmPlatform,
  type TestPlatform,
} from './support.js';

// What the web app's farm pages read: the caller's farms, a farm's batches, a batch's readings against their bands.

const LETTUCE = 'rcp_lettuce0butterhead01';
const HOUR = 3_600_000;

describe('farm lists over HTTP', () => {
  let p: TestPlatform;
  let farmId: string;
  let zoneId: string;
  const live: { room: string; event: string; data: unknown }[] = [];

  const start = async (startedAt: string) => {
    const res = await expectStatus(p, 201, 'POST', '/api/vertical-farm/batch/start', {
      body: {
        farmId,
        zoneId,
        recipeId: LETTUCE,
        crop: 'lettuce',
        variety: 'Rex',
        plantCount: 100,
        seedSource: { type: 'seed-lot', seedLot: 'RZ-1' },
        startedAt,
      },
    });
    return res.body.data.id as string;
  };

  beforeAll(async () => {
    p = await startFarmPlatform();
    ({ farmId, zoneId } = await farmWithZone(p, MANAGER, { capacity: 10_000 }));
    await p.bus.listen(realtimePublished.subject, (m) => live.push(m as (typeof live)[number]));
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('lists the caller’s own farms, newest first, and nobody else’s', async () => {
    const second = await expectStatus(p, 201, 'POST', '/api/vertical-farm/register', { body: farmInput('Second') });
    await expectStatus(p, 201, 'POST', '/api/vertical-farm/register', {
      sub: OTHER_MANAGER,
      body: farmInput('Not mine'),
    });
    const mine = await expectStatus(p, 200, 'GET', '/api/vertical-farm/farms');
    expect(mine.body.data.map((f: { id: string }) => f.id)).toEqual([second.body.data.id, farmId]);
    expect(mine.body.data[1]).toMatchObject({ zoneCount: 1, growingAreaM2: 100 });
    const user = await expectStatus(p, 200, 'GET', '/api/vertical-farm/farms', { role: 'USER', sub: 'usr_nobody' });
    expect(user.body.data).toEqual([]);
  });

  it('lists a farm’s batches newest first with their state, to its owner only', async () => {
    const now = Date.now();
    const older = await start(new Date(now - 20 * 24 * HOUR).toISOString());
    const newer = await start(new Date(now - HOUR).toISOString());
    const res = await expectStatus(p, 200, 'GET', `/api/vertical-farm/${farmId}/batches?limit=1`);
    expect(res.body.data.map((b: { id: string }) => b.id)).toEqual([newer]);
    expect(res.body.data[0]).toMatchObject({ state: 'germinating', phase: 'germination' });
    expect(res.body.pagination).toMatchObject({ total: 2, limit: 1 });
    const page2 = await expectStatus(p, 200, 'GET', `/api/vertical-farm/${farmId}/batches?limit=1&page=2`);
    expect(page2.body.data[0]).toMatchObject({ id: older, state: 'growing', phase: 'vegetative' });
    const other = await p.http('GET', `/api/vertical-farm/${farmId}/batches`, {
      role: 'FARM_MANAGER',
      sub: OTHER_MANAGER,
    });
    expect(other.status).toBe(403);
    expect(other.body.error.details.reason).toBe('not-owner');
  });

  it('answers a batch’s readings with the bands of their phase and its deviations, and tells the farm room', async () => {
    const startedAt = Date.now() - 5 * 24 * HOUR;
    const batchId = await start(new Date(startedAt).toISOString());
    // Day 1 is germination (80–95 % humidity), day 4 the seedling phase (50–70 %).
    const reading = (at: number, humidityPct: number) => ({
      at: new Date(at).toISOString(),
      humidityPct,
      temperatureC: 21,
      dissolvedOxygenMgL: 7,
    });
    const put = await expectStatus(p, 200, 'PUT', `/api/vertical-farm/batch/${batchId}/environment`, {
      body: { readings: [reading(startedAt + 24 * HOUR, 90), reading(startedAt + 4 * 24 * HOUR, 82)] },
    });
    expect(put.body.data).toMatchObject({ accepted: 2, inTarget: 1 });
    await expect
      .poll(() => live.find((m) => m.room === `farm:${farmId}` && m.event === 'farm.readings'))
      .toMatchObject({ data: { farmId, batchId, accepted: 2 } });

    const res = await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${batchId}/readings`);
    const { readings: items, total, alerts } = res.body.data;
    expect(total).toBe(2);
    expect(items.map((r: { phase: string }) => r.phase)).toEqual(['germination', 'seedling']);
    expect(items[0]).toMatchObject({ humidityPct: 90, inTarget: true, co2Ppm: null });
    expect(items[0].targets.humidityPct).toEqual({ min: 80, max: 95 });
    expect(items[1].targets.humidityPct).toEqual({ min: 50, max: 70 });
    // Dissolved oxygen has no upper bound: null, not the largest number.
    expect(items[1].targets.dissolvedOxygenMgL).toEqual({ min: 6, max: null });
    expect(alerts).toEqual([
      { at: new Date(startedAt + 4 * 24 * HOUR).toISOString(), metric: 'humidityPct', value: 82, min: 50, max: 70 },
    ]);

    const latest = await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${batchId}/readings?limit=1`);
    expect(latest.body.data.readings.map((r: { humidityPct: number }) => r.humidityPct)).toEqual([82]);
    const other = await p.http('GET', `/api/vertical-farm/batch/${batchId}/readings`, {
      role: 'FARM_MANAGER',
      sub: OTHER_MANAGER,
    });
    expect(other.status).toBe(403);
    const missing = await p.http('GET', '/api/vertical-farm/batch/bat_01HZX3K6Q2W8N4B7T5R9V0C1MZ/readings', {
      role: 'FARM_MANAGER',
      sub: MANAGER,
    });
    expect(missing.status).toBe(404);
  });
});
