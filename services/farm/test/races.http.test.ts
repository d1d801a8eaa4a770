import { randomUUID } from 'node:crypto';
import { ledgerTransactions } from '@rootline/gateway/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, farmWithZone, MANAGER, startFarmPlatform, type TestPlatform } from './support.js';

const range = (min: number, max: number) => ({ min, max });
/** A one-phase recipe without germination, so a new batch is growing and may be harvested at once. */
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

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers
  body: any;
  headers: Record<string, unknown>;
}

describe('farm writes under races, over HTTP', () => {
  let p: TestPlatform;
  let token: string;
  let farmId: string;
  let zoneId: string;
  let recipeId: string;

  const startBatch = async () => {
    const res = await expectStatus(p, 201, 'POST', '/api/vertical-farm/batch/start', {
      body: {
        farmId,
        zoneId,
        recipeId,
        crop: 'lettuce',
        variety: 'Rex',
        plantCount: 10,
        seedSource: { type: 'seed-lot', seedLot: 'RZ-1', supplier: 'Rijk Zwaan' },
      },
    });
    return res.body.data.id as string;
  };
  /** One request as the manager, with an Idempotency-Key when given. */
  const send = async (method: 'POST' | 'PUT', url: string, payload: unknown, key?: string): Promise<Answer> => {
    const res = await p.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) },
      payload: payload as object,
    });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };

  beforeAll(async () => {
    p = await startFarmPlatform();
    token = await p.token('FARM_MANAGER', MANAGER);
    ({ farmId, zoneId } = await farmWithZone(p, MANAGER, { capacity: 100_000 }));
    const recipe = await expectStatus(p, 201, 'POST', '/api/vertical-farm/recipes', {
      body: {
        parentId: 'rcp_lettuce0butterhead01',
        name: 'Lettuce from transplants',
        phases: [{ phase: 'vegetative', days: 24, targets }],
        sources: ['Transplants bought in at day 11 of the Cornell schedule'],
      },
    });
    recipeId = recipe.body.data.id;
  });
  afterAll(async () => p?.stop());

  it('concurrent harvests with different yields: one 201, nineteen 409 DUPLICATE, the stored yield is the 201’s', async () => {
    const batchId = await startBatch();
    const before = await ledgerTransactions(p);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send('POST', `/api/vertical-farm/batch/${batchId}/harvest`, { yieldKg: 10 + i, qualityGrade: 'grade-a' }),
      ),
    );
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 409);
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.body.error.code).toBe('DUPLICATE');
    const yieldKg = created[0]!.body.data.harvest.yieldKg;
    const batch = await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${batchId}`);
    expect(batch.body.data.harvest).toMatchObject({ yieldKg, id: created[0]!.body.data.harvest.id });
    // One harvest, one ledger transaction: the refused and replayed requests wrote none.
    expect(await ledgerTransactions(p)).toBe(before + 1);
  });

  it('concurrent harvests with one Idempotency-Key and body: all answered the one harvest, none refused as a duplicate', async () => {
    const batchId = await startBatch();
    const key = randomUUID();
    const body = { yieldKg: 7.5, qualityGrade: 'grade-b' };
    const url = `/api/vertical-farm/batch/${batchId}/harvest`;
    const before = await ledgerTransactions(p);
    const answers = await Promise.all(Array.from({ length: 20 }, () => send('POST', url, body, key)));
    // The plugin's rule: one request holds the key; a copy arriving while it is in flight is told to retry (409
    // in-flight with Retry-After), and once the answer is stored, every copy gets it (Idempotent-Replayed).
    for (const a of answers) {
      if (a.status === 409) {
        expect(a.body.error.details).toMatchObject({ reason: 'in-flight' });
        expect(a.headers['retry-after']).toBe('1');
      } else expect(a.status).toBe(201);
    }
    const settled = await Promise.all(
      answers.map(async (a) => {
        let answer = a;
        for (let i = 0; answer.status === 409 && i < 50; i++) {
          await new Promise((r) => setTimeout(r, 100));
          answer = await send('POST', url, body, key);
        }
        return answer;
      }),
    );
    const ids = new Set(settled.map((a) => a.body.data?.harvest?.id));
    expect(settled.map((a) => a.status)).toEqual(settled.map(() => 201));
    expect(ids.size).toBe(1);
    for (const a of settled) expect(a.body.data.harvest.yieldKg).toBe(7.5);
    expect(settled.filter((a) => a.headers['idempotent-replayed'] !== 'true').length).toBe(1);
    // One harvest, one ledger transaction: the refused and replayed requests wrote none.
    expect(await ledgerTransactions(p)).toBe(before + 1);
  });

  it('harvest with a new Idempotency-Key after a recorded harvest is answered 409, not the stored harvest', async () => {
    const batchId = await startBatch();
    const url = `/api/vertical-farm/batch/${batchId}/harvest`;
    const first = await send('POST', url, { yieldKg: 4, qualityGrade: 'grade-a' }, randomUUID());
    expect(first.status).toBe(201);
    const second = await send('POST', url, { yieldKg: 5, qualityGrade: 'grade-a' }, randomUUID());
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('DUPLICATE');
  });

  it('a batch failure answered 200 while a harvest is recorded is not overwritten by it (harvest and fail at once)', async () => {
    const events = async (batchId: string) =>
      (await p.database.db.execute(
        sql`select subject from farm.outbox where payload->>'batchId' = ${batchId} and subject <> 'evt.farm.batch.started'`,
      )) as unknown as { subject: string }[];
    for (let round = 0; round < 20; round++) {
      const batchId = await startBatch();
      const before = await ledgerTransactions(p);
      const harvest = send('POST', `/api/vertical-farm/batch/${batchId}/harvest`, {
        yieldKg: 12,
        qualityGrade: 'grade-a',
      });
      // The fail goes at the same moment as the harvest, or 5, 20 or 50 ms after it (while the ledger records it).
      await new Promise((r) => setTimeout(r, [0, 5, 20, 50][round % 4]));
      const fail = send('POST', `/api/vertical-farm/batch/${batchId}/fail`, { reason: 'root rot' });
      const [h, f] = await Promise.all([harvest, fail]);
      const won = [h, f].filter((a) => a.status < 300);
      expect(won, `round ${round}: ${h.status} ${f.status}`).toHaveLength(1);
      const stored = (await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${batchId}`)).body.data;
      const subjects = (await events(batchId)).map((e) => e.subject);
      if (h.status === 201) {
        expect(f.status).toBe(409);
        expect(f.body.error).toMatchObject({ code: 'CONFLICT' });
        expect(['harvesting', 'harvested']).toContain(f.body.error.details.state);
        expect(f.body.error.message).toMatch(/harvest/);
        expect(stored).toMatchObject({ state: 'harvested', failureReason: null, harvest: { yieldKg: 12 } });
        expect(subjects).toEqual(['evt.farm.batch.harvested']);
        expect(await ledgerTransactions(p)).toBe(before + 1);
      } else {
        expect(f.status).toBe(200);
        expect(f.body.data).toMatchObject({ state: 'failed', failureReason: 'root rot' });
        expect(h.status).toBe(409);
        expect(h.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'batch-failed', state: 'failed' } });
        expect(stored).toMatchObject({ state: 'failed', failureReason: 'root rot', harvest: null });
        expect(subjects).toEqual(['evt.farm.batch.failed']);
        // The losing harvest left nothing on the ledger claiming it.
        expect(await ledgerTransactions(p)).toBe(before);
      }
    }
  });

  describe('environment readings', () => {
    const reading = (at: string, over: Record<string, number> = {}) => ({
      at,
      temperatureC: 22,
      humidityPct: 60,
      co2Ppm: 1000,
      ppfd: 300,
      ecMsCm: 1.2,
      ph: 5.8,
      ...over,
    });
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
    const url = (batchId: string) => `/api/vertical-farm/batch/${batchId}/environment`;
    const stored = async (batchId: string) =>
      p.database.db.execute(sql`select count(*)::int as n from farm.readings where batch_id = ${batchId}`);
    const deviationRows = async (batchId: string) =>
      p.database.db.execute(sql`select count(*)::int as n from farm.deviations where batch_id = ${batchId}`);

    it('the same Idempotency-Key and body twice: stored once, the first answer replayed', async () => {
      const batchId = await startBatch();
      const key = randomUUID();
      const body = { readings: [reading(minutesAgo(3)), reading(minutesAgo(2), { ph: 6.6 })] };
      const first = await send('PUT', url(batchId), body, key);
      const again = await send('PUT', url(batchId), body, key);
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ accepted: 2, duplicates: 0, inTarget: 1 });
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await stored(batchId)).toEqual([{ n: 2 }]);
      expect(await deviationRows(batchId)).toEqual([{ n: 1 }]);
    });

    it('twenty concurrent identical PUTs with one Idempotency-Key: stored once, every answer the first or 409 in flight', async () => {
      const batchId = await startBatch();
      const key = randomUUID();
      const body = { readings: [reading(minutesAgo(5)), reading(minutesAgo(4)), reading(minutesAgo(3))] };
      const answers = await Promise.all(Array.from({ length: 20 }, () => send('PUT', url(batchId), body, key)));
      const ok = answers.filter((a) => a.status === 200);
      const busy = answers.filter((a) => a.status === 409);
      expect(ok.length + busy.length).toBe(20);
      for (const b of busy) expect(b.body.error).toMatchObject({ code: 'DUPLICATE', details: { reason: 'in-flight' } });
      for (const a of ok) expect(a.body.data).toEqual({ accepted: 3, duplicates: 0, inTarget: 3, deviations: [] });
      expect(ok.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
      expect(await stored(batchId)).toEqual([{ n: 3 }]);
      const replay = await send('PUT', url(batchId), body, key);
      expect(replay.status).toBe(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    });

    it('another body under the same Idempotency-Key is 422 IDEMPOTENCY_KEY_REUSED and stores nothing', async () => {
      const batchId = await startBatch();
      const key = randomUUID();
      const first = await send('PUT', url(batchId), { readings: [reading(minutesAgo(3))] }, key);
      expect(first.status).toBe(200);
      const other = await send('PUT', url(batchId), { readings: [reading(minutesAgo(2))] }, key);
      expect(other.status).toBe(422);
      expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await stored(batchId)).toEqual([{ n: 1 }]);
    });

    it('identical readings without a key are stored once, so counts, compliance and means are not skewed', async () => {
      const batchId = await startBatch();
      const at1 = minutesAgo(3);
      const at2 = minutesAgo(2);
      const body = { readings: [reading(at1, { temperatureC: 20 }), reading(at2, { ph: 6.6 })] };
      const first = await send('PUT', url(batchId), body);
      expect(first.body.data).toMatchObject({ accepted: 2, duplicates: 0, inTarget: 1 });
      // Resent, concurrently, and with one reading repeated inside a request and one new reading.
      const again = await Promise.all(Array.from({ length: 10 }, () => send('PUT', url(batchId), body)));
      for (const a of again) expect(a.body.data).toEqual({ accepted: 0, duplicates: 2, inTarget: 0, deviations: [] });
      const mixed = await send('PUT', url(batchId), {
        readings: [
          reading(at1, { temperatureC: 20 }),
          reading(at1, { temperatureC: 24 }),
          reading(at1, { temperatureC: 24 }),
        ],
      });
      expect(mixed.body.data).toMatchObject({ accepted: 1, duplicates: 2, inTarget: 1 });
      expect(await stored(batchId)).toEqual([{ n: 3 }]);
      expect(await deviationRows(batchId)).toEqual([{ n: 1 }]);
      const batch = await expectStatus(p, 200, 'GET', `/api/vertical-farm/batch/${batchId}`);
      expect(batch.body.data.readings).toMatchObject({ count: 3, inTarget: 2, mean: { temperatureC: 22 } });
      expect(batch.body.data.readings.compliance).toBeCloseTo(2 / 3);
    });
  });

  it('zone added again after its answer was lost (same Idempotency-Key, key freed by a 5xx) is answered the zone, not 500', async () => {
    const key = randomUUID();
    const body = { name: 'Level 2 DWC', level: 2, areaM2: 50, growingMethod: 'nft', capacity: 400 };
    const first = await send('POST', `/api/vertical-farm/${farmId}/zones`, body, key);
    expect(first.status).toBe(201);
    // A 5xx answer is not kept: the gateway frees the key and the retry reaches the service again.
    await p.database.db.execute(sql`delete from identity.idempotency_keys`);
    const retry = await send('POST', `/api/vertical-farm/${farmId}/zones`, body, key);
    expect(retry.status).toBe(201);
    expect(retry.body.data.id).toBe(first.body.data.id);
    const zones = await p.database.db.execute(
      sql`select count(*)::int as n from farm.zones where farm_id = ${farmId} and name = 'Level 2 DWC'`,
    );
    expect(zones).toEqual([{ n: 1 }]);
  });

  it('one Idempotency-Key with the same readings sent to another batch is 422 IDEMPOTENCY_KEY_REUSED, not the first batch’s answer', async () => {
    const [first, second] = [await startBatch(), await startBatch()];
    const key = randomUUID();
    const body = { readings: [{ at: new Date(Date.now() - 60_000).toISOString(), temperatureC: 22 }] };
    const a = await send('PUT', `/api/vertical-farm/batch/${first}/environment`, body, key);
    expect(a.status).toBe(200);
    const b = await send('PUT', `/api/vertical-farm/batch/${second}/environment`, body, key);
    expect(b.status).toBe(422);
    expect(b.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const stored = await p.database.db.execute(
      sql`select count(*)::int as n from farm.readings where batch_id = ${second}`,
    );
    expect((stored as unknown as { n: number }[])[0]?.n).toBe(0);
  });
});
