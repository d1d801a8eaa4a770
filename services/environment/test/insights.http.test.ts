import { type Bus, createNatsBus } from '@rootline/bus';
import { createLogger, type RunningService, startService } from '@rootline/host';
import { plantInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureVector, similarity } from '../src/domain/features.js';
import { service as environment } from '../src/service.js';
import { startEnvironmentPlatform, type TestPlatform } from './support.js';

const OWNER = 'usr_env_insights';

interface Correlation {
  r: number;
  pValue: number;
  qValue: number;
  significant: boolean;
  ci95: { low: number; high: number };
}

// Conditions and outcomes of twelve tomato plants; the expected figures come from scipy 1.17.1
// (scipy.stats.pearsonr with .confidence_interval(0.95), scipy.stats.false_discovery_control).
const HOURS = [8, 9, 10, 11, 12, 12, 13, 14, 14, 15, 16, 16];
const PH = [5.5, 7.5, 6.0, 7.0, 6.5, 6.2, 6.8, 5.8, 7.2, 6.4, 6.6, 6.1];
const HEALTH = [55, 60, 58, 66, 70, 64, 72, 75, 69, 80, 78, 85];
const HEIGHT = [40, 42, 39, 50, 48, 47, 55, 53, 60, 58, 62, 61];
const SCIPY = [
  // condition, outcome, r, p, ci low, ci high, BH q
  [
    'lighting.hoursPerDay',
    'growth.healthScore',
    0.946803766085156,
    3.0672947053473504e-6,
    0.816643575267021,
    0.9853134395767621,
    8.426418009147213e-6,
  ],
  [
    'lighting.hoursPerDay',
    'growth.heightCm',
    0.9432484071649461,
    4.213209004573606e-6,
    0.8052591807604391,
    0.9843111248617031,
    8.426418009147213e-6,
  ],
  [
    'soil.ph',
    'growth.heightCm',
    0.21202790572056812,
    0.5082504911491188,
    -0.4120081660324869,
    0.7006698078377501,
    0.6776673215321584,
  ],
  [
    'soil.ph',
    'growth.healthScore',
    0.012262040102727453,
    0.9698299344780483,
    -0.5656199603193793,
    0.5820675287979202,
    0.9698299344780483,
  ],
] as const;

// Similarity worked out by hand: soil |7 − 5.6| / 14 = 0.1 → 0.9; climate (|20 − 31| / 55 + |50 − 80| / 100) / 2
// = 0.25 → 0.75; location indoor = indoor → 1. 100 · (0.15·0.9 + 0.2·0.75 + 0.1·1) / 0.45 = 85.56.
const A = { soil: { ph: 7 }, climate: { temperatureC: 20, humidityPercent: 50 }, location: { setting: 'indoor' } };
const B = {
  soil: { ph: 5.6 },
  climate: { temperatureC: 31, humidityPercent: 80 },
  location: { setting: 'indoor' },
  lighting: { hoursPerDay: 12 },
};

describe('environment similarity, comparison and analysis over HTTP', () => {
  let p: TestPlatform;
  let owner: string;
  const ids: Record<string, string> = {};
  let replica: RunningService;
  let replicaBus: Bus;

  const register = async (name: string, scientificName: string) => {
    const res = await p.http('POST', '/api/plants/register', {
      token: owner,
      body: plantInput({ commonName: name, scientificName, owner: { id: OWNER } }),
    });
    expect(res.status).toBe(201);
    ids[name] = res.body.data.id;
    return res.body.data.id as string;
  };
  // Each plant's recorded conditions (one record each, so its current environment), for a brute-force ranking.
  const recorded = new Map<string, object>();
  const record = async (plantId: string, data: object) => {
    recorded.set(plantId, data);
    const res = await p.http('POST', '/api/environment/records', { token: owner, body: { plantId, ...data } });
    expect(res.status).toBe(201);
  };
  const get = (path: string) => p.http('GET', `/api/environment${path}`, { role: 'USER', sub: 'usr_env_reader' });

  beforeAll(async () => {
    p = await startEnvironmentPlatform();
    owner = await p.token('GROWER', OWNER);
    // A second replica of the service: queries alternate between the two, and each must see every write.
    replicaBus = await createNatsBus({ url: p.infra.nats.url, name: 'environment' });
    replica = await startService(environment, {
      bus: replicaBus,
      database: p.database,
      log: createLogger('test', 'silent'),
      env: {},
    });
    for (const name of ['simA', 'simB', 'simA2', 'simLight']) await register(name, 'Ocimum basilicum');
    await record(ids.simA!, A);
    await record(ids.simB!, B);
    await record(ids.simA2!, A);
    await record(ids.simLight!, { lighting: { hoursPerDay: 3 } });
    for (let i = 0; i < HOURS.length; i++) {
      const id = await register(`tomato${i}`, 'Solanum lycopersicum');
      await record(id, {
        lighting: { hoursPerDay: HOURS[i] },
        soil: { ph: PH[i] },
        growth: { healthScore: HEALTH[i], heightCm: HEIGHT[i] },
      });
    }
  });
  afterAll(async () => {
    await replica?.stop();
    await replicaBus?.close();
    await p?.stop();
  });

  describe('similar', () => {
    it('ranks plants by the weighted per-category score and leaves out plants sharing nothing', async () => {
      const res = await get(`/similar?plantId=${ids.simA}&limit=100`);
      expect(res.status).toBe(200);
      // `data` is the list, most similar first; `meta` says how many plants it was compared with.
      const { data: items, meta } = res.body;
      const { compared } = meta;
      expect(meta.plantId).toBe(ids.simA);
      // Every other plant shares a category except simLight (lighting only): 3 basil + 12 tomatoes − 1.
      expect(compared).toBe(14);
      const byId = new Map(items.map((i: { plantId: string }) => [i.plantId, i]));
      expect(byId.get(ids.simA2)).toMatchObject({ similarity: 100, species: 'ocimum basilicum' });
      expect(byId.get(ids.simB)).toMatchObject({
        similarity: 85.56,
        sharedCategories: ['climate', 'soil', 'location'],
      });
      expect(byId.has(ids.simLight)).toBe(false);
      expect(byId.has(ids.simA)).toBe(false);
      const scores = items.map((i: { similarity: number }) => i.similarity);
      expect(scores).toEqual([...scores].sort((x, y) => y - x));
    });

    it('ranks exactly as a brute-force scan of every recorded environment', async () => {
      const vectors = new Map([...recorded].map(([id, data]) => [id, featureVector(data)]));
      for (const [plantId, vector] of vectors) {
        const expected = [...vectors]
          .filter(([other]) => other !== plantId)
          .map(([other, v]) => ({ plantId: other, score: similarity(vector, v).similarity }))
          .filter((x): x is { plantId: string; score: number } => x.score !== null)
          .sort((a, b) => b.score - a.score || (a.plantId < b.plantId ? -1 : 1));
        const res = await get(`/similar?plantId=${plantId}&limit=100`);
        expect(res.body.data.map((x: { plantId: string }) => x.plantId)).toEqual(expected.map((x) => x.plantId));
        expect(res.body.meta.compared).toBe(expected.length);
      }
    });

    it('does not answer from a kept answer once a write has changed the index', async () => {
      const before = await get(`/similar?plantId=${ids.simB}&limit=100`);
      const id = await register('simBTwin', 'Ocimum basilicum');
      await record(id, B);
      const after = await get(`/similar?plantId=${ids.simB}&limit=100`);
      expect(before.body.data.map((x: { plantId: string }) => x.plantId)).not.toContain(id);
      expect(after.body.data.map((x: { plantId: string }) => x.plantId)).toContain(id);
      expect(after.body.meta.compared).toBe(before.body.meta.compared + 1);
    });

    it('sees a new write on every replica at once', async () => {
      const id = await register('simLate', 'Ocimum basilicum');
      await record(id, A);
      for (let i = 0; i < 4; i++) {
        const res = await get(`/similar?plantId=${ids.simA}&limit=100`);
        expect(res.body.data.map((x: { plantId: string }) => x.plantId)).toContain(id);
      }
    });

    it('honours limit, answers an empty list for a plant without records and 404 for an unknown plant', async () => {
      const limited = await get(`/similar?plantId=${ids.simA}&limit=1`);
      expect(limited.body.data).toHaveLength(1);
      expect(limited.body.data[0].similarity).toBe(100);
      const bare = await register('simBare', 'Ocimum basilicum');
      expect((await get(`/similar?plantId=${bare}`)).body).toMatchObject({ data: [], meta: { compared: 0 } });
      expect((await get('/similar?plantId=plt_0000000000UNKNOWN0000000')).status).toBe(404);
      expect((await get(`/similar?plantId=${ids.simA}&limit=101`)).status).toBe(400);
    });
  });

  describe('compare', () => {
    it('gives per-category similarities and differences, and the same overall score as similar', async () => {
      const res = await get(`/compare?plantA=${ids.simA}&plantB=${ids.simB}`);
      expect(res.status).toBe(200);
      expect(res.body.data.similarity).toBe(85.56);
      const by = Object.fromEntries(res.body.data.categories.map((c: { category: string }) => [c.category, c]));
      expect(by.soil).toMatchObject({ weight: 0.15, similarity: 90 });
      expect(by.soil.differences).toContainEqual({ parameter: 'soil.ph', a: 7, b: 5.6, difference: -1.4 });
      expect(by.climate).toMatchObject({ weight: 0.2, similarity: 75 });
      expect(by.climate.differences).toContainEqual({
        parameter: 'climate.temperatureC',
        a: 20,
        b: 31,
        difference: 11,
      });
      expect(by.location.differences).toContainEqual({
        parameter: 'location.setting',
        a: 'indoor',
        b: 'indoor',
        difference: null,
      });
      expect(by.lighting).toMatchObject({ similarity: null });
      expect(by.lighting.differences).toContainEqual({
        parameter: 'lighting.hoursPerDay',
        a: null,
        b: 12,
        difference: null,
      });
    });

    it('answers 404 when either plant is unknown and 400 without both', async () => {
      expect((await get(`/compare?plantA=${ids.simA}&plantB=plt_0000000000UNKNOWN0000000`)).status).toBe(404);
      expect((await get(`/compare?plantA=${ids.simA}`)).status).toBe(400);
    });
  });

  describe('analysis', () => {
    it('reports r, n, the 95 % interval, p and the Benjamini–Hochberg q as scipy computes them', async () => {
      const res = await get('/analysis?species=Solanum%20lycopersicum');
      expect(res.status).toBe(200);
      const data = res.body.data;
      // 8 conditions × 3 outcomes; only 2 conditions × 2 outcomes have values.
      expect(data).toMatchObject({
        plants: 12,
        minSamples: 10,
        correction: 'benjamini-hochberg',
        tests: 4,
        skipped: 20,
      });
      expect(data.correlations).toHaveLength(4);
      data.correlations.forEach((c: Correlation, i: number) => {
        const [condition, outcome, r, pValue, low, high, q] = SCIPY[i]!;
        expect(c).toMatchObject({ species: 'solanum lycopersicum', condition, outcome, n: 12 });
        expect(c.r).toBeCloseTo(r, 9);
        expect(c.pValue).toBeCloseTo(pValue, pValue < 1e-3 ? 12 : 9);
        expect(c.ci95.low).toBeCloseTo(low, 9);
        expect(c.ci95.high).toBeCloseTo(high, 9);
        expect(c.qValue).toBeCloseTo(q, q < 1e-3 ? 12 : 9);
        expect(c.significant).toBe(q < 0.05);
      });
    });

    it('reports nothing from fewer plants than minSamples', async () => {
      const res = await get('/analysis?minSamples=13');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ tests: 0, correlations: [] });
      expect(res.body.data.skipped).toBeGreaterThanOrEqual(24);
      expect((await get('/analysis?minSamples=2')).status).toBe(400);
    });
  });
});
