import { randomUUID } from 'node:crypto';
import { batchHarvested, farmAlerted } from '@rootline/contracts';
import { collectEvents, ledgerTransactions } from '@rootline/gateway/testing';
import { plantInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, farmWithZone, MANAGER, OTHER_MANAGER, startFarmPlatform, type TestPlatform } from './support.js';

const range = (min: number, max: number) => ({ min, max });
/** The targets of the one-phase recipe these tests grow (no germination, so a new batch is growing). */
const targets = {
  ppfd: range(270, 320),
  photoperiodHours: 16,
  dayTemperatureC: 24,
  nightTemperatureC: 19,
  humidityPct: range(50, 70),
  co2Ppm: range(800, 1200),
  ecMsCm: range(1.1, 1.3),
  ph: range(5.6, 6.0),
};
const good = (at: string) => ({
  at,
  temperatureC: 22,
  humidityPct: 60,
  co2Ppm: 1000,
  ppfd: 300,
  ecMsCm: 1.2,
  ph: 5.8,
  waterTemperatureC: 21,
  dissolvedOxygenMgL: 7.5,
});

describe('environment readings and harvests over HTTP', () => {
  let p: TestPlatform;
  let farmId: string;
  let zoneId: string;
  let recipeId: string;
  let plantId: string;
  let plantBlockHash: string;

  const startBatch = async (seedSource: unknown = { type: 'plant', plantId }) => {
    const res = await expectStatus(p, 201, 'POST', '/api/vertical-farm/batch/start', {
      body: { farmId, zoneId, recipeId, crop: 'lettuce', variety: 'Rex', plantCount: 50, seedSource },
    });
    return res.body.data.id as string;
  };
  const put = (batchId: string, readings: unknown[], sub = MANAGER) =>
    p.http('PUT', `/api/vertical-farm/batch/${batchId}/environment`, {
      role: 'FARM_MANAGER',
      sub,
      body: { readings },
    });

  beforeAll(async () => {
    p = await startFarmPlatform();
    ({ farmId, zoneId } = await farmWithZone(p, MANAGER, { capacity: 10_000 }));
    const recipe = await expectStatus(p, 201, 'POST', '/api/vertical-farm/recipes', {
      body: {
        parentId: 'rcp_lettuce0butterhead01',
        name: 'Lettuce from transplants',
        phases: [{ phase: 'vegetative', days: 24, targets }],
        sources: ['Transplants bought in at day 11 of the Cornell schedule'],
      },
    });
    recipeId = recipe.body.data.id;
    const plant = await expectStatus(p, 201, 'POST', '/api/plants/register', {
      body: plantInput({ commonName: 'Lettuce mother', owner: { id: MANAGER } }),
    });
    plantId = plant.body.data.id;
    plantBlockHash = plant.body.data.blockHash;
  });
  afterAll(async () => p?.stop());

  it('stores readings within target and summarises them on the batch', async () => {
    const batchId = await startBatch();
    const now = Date.now();
    const readings = [0, 1, 2].map((i) => good(new Date(now - (3 - i) * 60_000).toISOString()));
    const res = await put(batchId, readings);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ accepted: 3, duplicates: 0, inTarget: 3, deviations: [] });
    const batch = await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${batchId}`, { role: 'USER' });
    expect(batch.body.data.state).toBe('growing');
    expect(batch.body.data.readings).toMatchObject({
      count: 3,
      inTarget: 3,
      compliance: 1,
      lastAt: readings[2]!.at,
      mean: { temperatureC: 22, ph: 5.8, ppfd: 300 },
    });
  });

  // Regression: the documented readings example (at 2026-11-23T08:00:00Z) was refused "before the batch started"
  // by a batch the batch-start example had just started. A reading without `at` is taken as it is received.
  it('takes a reading without its time as taken when received, by a batch started just now', async () => {
    const batchId = await startBatch();
    const before = Date.now();
    const { at: _, ...untimed } = good('');
    const res = await put(batchId, [{ ...untimed, ph: 6.6 }]);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ accepted: 1, duplicates: 0, inTarget: 0 });
    const [deviation] = res.body.data.deviations;
    expect(deviation).toMatchObject({ metric: 'ph', value: 6.6 });
    expect(Date.parse(deviation.at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(deviation.at)).toBeLessThanOrEqual(Date.now() + 1000);
    const batch = await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${batchId}`, { role: 'USER' });
    expect(batch.body.data.readings).toMatchObject({ count: 1, lastAt: deviation.at });
  });

  it('records deviations from the phase’s targets and emits one farm-alert event', async () => {
    const alerts = await collectEvents(p.bus, farmAlerted);
    const batchId = await startBatch();
    const at = new Date(Date.now() - 60_000).toISOString();
    const res = await put(batchId, [good(at), { ...good(at), ph: 6.6, ecMsCm: 2.1 }, { at, ppfd: 0 }]);
    expect(res.status).toBe(200);
    expect(res.body.data.accepted).toBe(3);
    expect(res.body.data.inTarget).toBe(2);
    expect(res.body.data.deviations).toEqual([
      { at, metric: 'ecMsCm', value: 2.1, min: 1.1, max: 1.3 },
      { at, metric: 'ph', value: 6.6, min: 5.6, max: 6 },
    ]);
    const alert = await alerts.next((a) => a.batchId === batchId);
    expect(alert).toMatchObject({ farmId, deviationCount: 2 });
    expect(alert.deviations).toHaveLength(2);
    await alerts.stop();
    const batch = await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${batchId}`, { role: 'USER' });
    expect(batch.body.data.readings).toMatchObject({ count: 3, inTarget: 2 });
  });

  it('refuses the whole request when one reading is outside its physical range', async () => {
    const batchId = await startBatch();
    const at = new Date().toISOString();
    const res = await put(batchId, [good(at), { ...good(at), humidityPct: 130 }]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
    expect(res.body.error.message).toContain('humidityPct');
    const ph = await put(batchId, [{ ...good(at), ph: -1 }]);
    expect(ph.status).toBe(400);
    const future = await put(batchId, [good(new Date(Date.now() + 3_600_000).toISOString())]);
    expect(future.status).toBe(400);
    expect(future.body.error.details).toMatchObject({ field: 'readings.0.at' });
    const early = await put(batchId, [good(new Date(Date.now() - 86_400_000).toISOString())]);
    expect(early.status).toBe(400);
    expect(early.body.error.details).toMatchObject({ field: 'readings.0.at', reason: 'before-start' });
    // A time that is no date-time (30 February, no offset) is refused by the contract's format.
    for (const bad of ['2026-02-30T10:00:00Z', '2026-11-23T10:00:00', 'yesterday']) {
      const refused = await put(batchId, [good(bad)]);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(refused.body.error.message).toContain('at');
    }
    const batch = await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${batchId}`, { role: 'USER' });
    expect(batch.body.data.readings.count).toBe(0);
  });

  it('takes readings only from the farm’s owner or an ADMIN', async () => {
    const batchId = await startBatch();
    const at = new Date().toISOString();
    const o = await put(batchId, [good(at)], OTHER_MANAGER);
    console.log(JSON.stringify(o.body));
    expect(o.status).toBe(403);
    const admin = await p.http('PUT', `/api/vertical-farm/batch/${batchId}/environment`, {
      role: 'ADMIN',
      sub: 'usr_admin',
      body: { readings: [good(at)] },
    });
    expect(admin.status).toBe(200);
  });

  it('harvests on the ledger: the block names the batch, its recipe and the seed plant with its block', async () => {
    const harvested = await collectEvents(p.bus, batchHarvested);
    const batchId = await startBatch();
    const res = await p.http('POST', `/api/vertical-farm/batch/${batchId}/harvest`, {
      role: 'FARM_MANAGER',
      sub: MANAGER,
      body: { yieldKg: 12.5, qualityGrade: 'grade-a', notes: 'Even heads' },
    });
    expect(res.status).toBe(201);
    const batch = res.body.data;
    expect(batch).toMatchObject({ state: 'harvested', phase: null, closedAt: batch.harvest.harvestedAt });
    // Started today on a 24-day recipe: harvested before its expected date, so early.
    expect(batch.harvest).toMatchObject({ yieldKg: 12.5, qualityGrade: 'grade-a', notes: 'Even heads', early: true });
    const block = await expectStatus(p, 200, 'GET', `/api/chain/blocks/${batch.harvest.block.hash}`, { role: 'USER' });
    const tx = block.body.data.transactions.find((t: { id: string }) => t.id === batch.harvest.block.txId);
    expect(tx.type).toBe('farm.harvest');
    const payload = JSON.parse(tx.payload);
    expect(payload).toMatchObject({
      batchId,
      harvestId: batch.harvest.id,
      farmId,
      yieldKg: 12.5,
      recipe: { id: recipeId, version: 2, parentId: 'rcp_lettuce0butterhead01' },
      seedSource: { type: 'plant', plantId, plantBlockHash },
      early: true,
      expectedHarvestAt: batch.expectedHarvestAt,
    });
    // …and the seed plant's own block on the ledger is the one the harvest names.
    const plantBlock = await expectStatus(p, 200, 'GET', `/api/chain/blocks/${plantBlockHash}`, { role: 'USER' });
    expect(plantBlock.body.data.transactions.map((t: { type: string }) => t.type)).toContain('plant.register');
    const event = await harvested.next((e) => e.batchId === batchId);
    expect(event).toMatchObject({
      harvestId: batch.harvest.id,
      plantId,
      yieldKg: 12.5,
      qualityGrade: 'grade-a',
      early: true,
    });
    await harvested.stop();

    const twice = await p.http('POST', `/api/vertical-farm/batch/${batchId}/harvest`, {
      role: 'FARM_MANAGER',
      sub: MANAGER,
      body: { yieldKg: 1, qualityGrade: 'grade-b' },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('DUPLICATE');
    const closed = await put(batchId, [good(new Date().toISOString())]);
    expect(closed.status).toBe(400);
    expect(closed.body.error.details).toMatchObject({ reason: 'batch-closed' });
    const recipes = await expectStatus(p, 200, 'GET', '/api/vertical-farm/recipes?crop=lettuce', { role: 'USER' });
    const mine = recipes.body.data.find((r: { id: string }) => r.id === recipeId);
    expect(mine.outcomes).toMatchObject({ harvested: 1, successRate: 1 });
    expect(mine.outcomes.yieldPerM2).toBeGreaterThan(0);
  });

  it('harvests a germinating batch early; refuses a failed batch, another owner’s batch, and a bad grade', async () => {
    const germinating = await expectStatus(p, 201, 'POST', '/api/vertical-farm/batch/start', {
      body: {
        farmId,
        zoneId,
        recipeId: 'rcp_lettuce0butterhead01',
        crop: 'lettuce',
        variety: 'Rex',
        plantCount: 5,
        seedSource: { type: 'seed-lot', seedLot: 'L1' },
      },
    });
    expect(germinating.body.data.state).toBe('germinating');
    const id = germinating.body.data.id;
    const early = await p.http('POST', `/api/vertical-farm/batch/${id}/harvest`, {
      role: 'FARM_MANAGER',
      sub: MANAGER,
      body: { yieldKg: 1, qualityGrade: 'grade-a' },
    });
    expect(early.status).toBe(201);
    expect(early.body.data).toMatchObject({ state: 'harvested', harvest: { yieldKg: 1, early: true } });

    const failedId = await startBatch();
    await expectStatus(p, 200, 'POST', `/api/vertical-farm/batch/${failedId}/fail`, { body: { reason: 'Root rot' } });
    const failed = await p.http('POST', `/api/vertical-farm/batch/${failedId}/harvest`, {
      role: 'FARM_MANAGER',
      sub: MANAGER,
      body: { yieldKg: 1, qualityGrade: 'grade-a' },
    });
    expect(failed.status).toBe(409);
    expect(failed.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'batch-failed' } });
    const stillFailed = await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${failedId}`, { role: 'USER' });
    expect(stillFailed.body.data).toMatchObject({ state: 'failed', harvest: null });

    const batchId = await startBatch();
    const other = await p.http('POST', `/api/vertical-farm/batch/${batchId}/harvest`, {
      role: 'FARM_MANAGER',
      sub: OTHER_MANAGER,
      body: { yieldKg: 1, qualityGrade: 'grade-a' },
    });
    expect(other.status).toBe(403);
    const grade = await p.http('POST', `/api/vertical-farm/batch/${batchId}/harvest`, {
      role: 'FARM_MANAGER',
      sub: MANAGER,
      body: { yieldKg: 1, qualityGrade: 'excellent' },
    });
    expect(grade.status).toBe(400);
  });

  it('harvests a batch started before its cycle on or after its expected date: not early', async () => {
    const startedAt = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const start = await expectStatus(p, 201, 'POST', '/api/vertical-farm/batch/start', {
      body: {
        farmId,
        zoneId,
        recipeId,
        crop: 'lettuce',
        variety: 'Rex',
        plantCount: 5,
        seedSource: { type: 'seed-lot', seedLot: 'L2' },
        startedAt,
      },
    });
    expect(start.body.data.state).toBe('ready');
    const res = await expectStatus(p, 201, 'POST', `/api/vertical-farm/batch/${start.body.data.id}/harvest`, {
      body: { yieldKg: 4, qualityGrade: 'grade-a' },
    });
    expect(res.body.data).toMatchObject({ state: 'harvested', startedAt, harvest: { early: false } });
    const block = await expectStatus(p, 200, 'GET', `/api/chain/blocks/${res.body.data.harvest.block.hash}`, {
      role: 'USER',
    });
    const tx = block.body.data.transactions.find((t: { id: string }) => t.id === res.body.data.harvest.block.txId);
    expect(JSON.parse(tx.payload)).toMatchObject({ early: false, startedAt });
  });

  it('answers a retried harvest (same Idempotency-Key) with the harvested batch, recorded once', async () => {
    const batchId = await startBatch();
    const token = await p.token('FARM_MANAGER', MANAGER);
    const key = randomUUID();
    const send = async () => {
      const res = await p.app.inject({
        method: 'POST',
        url: `/api/vertical-farm/batch/${batchId}/harvest`,
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
        payload: { yieldKg: 3, qualityGrade: 'grade-b' },
      });
      return { status: res.statusCode, body: res.json() };
    };
    const before = await ledgerTransactions(p);
    const first = await send();
    const again = await send();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ state: 'harvested', harvest: { id: first.body.data.harvest.id } });
    // Recorded once: the retry added no ledger transaction.
    expect(await ledgerTransactions(p)).toBe(before + 1);
  });
});
