import type { DeliveredEvent } from '@rootline/bus';
import { environmentRecorded } from '@rootline/contracts';
import { plantInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEnvironmentPlatform, type TestPlatform } from './support.js';

const OWNER = 'usr_env_owner';

describe('environment records over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  let owner: string;
  let tomato: string;
  let basil: string;
  let bare: string;
  const events: DeliveredEvent[] = [];

  /** A plant registered by its owner over HTTP. */
  const registerPlant = async (sub: string, commonName: string, scientificName?: string) => {
    const res = await p.http('POST', '/api/plants/register', {
      role: 'GROWER',
      sub,
      body: plantInput({
        commonName,
        owner: { id: sub },
        ...(scientificName ? { scientificName } : { scientificName: undefined }),
      }),
    });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  const addRecord = (body: unknown, opts: { token?: string; role?: 'USER' | 'ADMIN'; sub?: string } = {}) =>
    p.http('POST', '/api/environment/records', { token: opts.role ? undefined : (opts.token ?? owner), ...opts, body });

  beforeAll(async () => {
    p = await startEnvironmentPlatform();
    owner = await p.token('GROWER', OWNER);
    tomato = await registerPlant(OWNER, 'Tomato', 'Solanum lycopersicum');
    basil = await registerPlant(OWNER, 'Basil', 'Ocimum basilicum');
    bare = await registerPlant(OWNER, 'Mystery fern', 'Pteridium obscurum');
    await p.bus.consume({
      durable: 'environment-http-recorded',
      subject: environmentRecorded.subject,
      handler: async (e) => {
        events.push(e);
      },
    });
  });
  afterAll(async () => p?.stop());

  describe('records', () => {
    it('adds a record in all nine categories (201), reads it back with history and emits record.added', async () => {
      const body = {
        plantId: tomato,
        recordedAt: '2026-11-20T08:30:00Z',
        soil: {
          type: 'loam',
          ph: 7.3,
          texture: 'sandy loam',
          drainage: 'good',
          organicMatterPercent: 5,
          amendments: ['compost', 'perlite'],
        },
        nutrients: {
          nitrogenPpm: 150,
          secondary: { calciumPpm: 120 },
          micronutrients: { ironPpm: 2.5 },
          ecMsCm: 2.2,
          tdsPpm: 1100,
          fertilizerApplications: [{ type: 'tomato feed', schedule: 'weekly', npk: { n: 4, p: 3, k: 8 } }],
        },
        lighting: { source: 'natural', hoursPerDay: 14, spectrum: 'sunlight', ppfd: 900, dli: 25 },
        climate: { temperatureC: 24, humidityPercent: 50, airflow: 'light', co2Ppm: 420, hardinessZone: '8b' },
        location: { setting: 'greenhouse', details: 'lean-to', greenhouse: { heated: false, ventilated: true } },
        container: { type: 'pot', material: 'terracotta', volumeLiters: 20, hasDrainage: true },
        watering: { method: 'drip', frequencyPerWeek: 5, source: 'rain', ph: 6.5, tdsPpm: 40, chlorinePpm: 0 },
        surroundings: { companionPlants: ['basil'], pests: ['aphids'], diseases: [], ecosystem: 'garden' },
        growth: {
          heightCm: 85,
          stemDiameterMm: 12,
          leafCount: 60,
          growthRateCmPerWeek: 6,
          healthScore: 80,
          vigor: 'good',
        },
      };
      const res = await addRecord(body);
      expect(res.status).toBe(201);
      const { id, ...rest } = res.body.data;
      expect(id).toMatch(/^env_/);
      expect(rest).toEqual({ ...body, recordedAt: '2026-11-20T08:30:00.000Z', recordedBy: OWNER });

      const later = await addRecord({
        plantId: tomato,
        recordedAt: '2026-11-21T08:30:00Z',
        soil: { ph: 7.3, type: 'loam' },
      });
      expect(later.status).toBe(201);
      const history = await p.http('GET', `/api/environment/records/${tomato}?limit=1`, { token: owner });
      expect(history.status).toBe(200);
      // `data` is the page of records; `pagination` and the plant's `meta` (its current environment) beside it.
      expect(history.body.data.map((r: { id: string }) => r.id)).toEqual([later.body.data.id]);
      expect(history.body.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 });
      expect(history.body.meta.plantId).toBe(tomato);
      expect(history.body.meta.current.soil).toEqual({ ph: 7.3, type: 'loam' });
      expect(history.body.meta.current.climate).toEqual(body.climate);
      await expect
        .poll(() => events.filter((e) => (e.payload as { plantId: string }).plantId === tomato).length)
        .toBe(2);
      expect(events[0]!.payload).toMatchObject({
        recordId: id,
        plantId: tomato,
        categories: expect.arrayContaining(['soil', 'growth']),
      });
    });

    it.each([
      ['a pH above 14', { soil: { ph: 15 } }, 'soil.ph'],
      ['a humidity above 100 %', { climate: { humidityPercent: 120 } }, 'climate.humidityPercent'],
      ['a temperature of 250 °C', { climate: { temperatureC: 250 } }, 'climate.temperatureC'],
      ['more than 24 light hours', { lighting: { hoursPerDay: 25 } }, 'lighting.hoursPerDay'],
      ['an unknown soil type', { soil: { type: 'moon dust' } }, 'soil.type'],
      ['an unknown field', { soil: { colour: 'brown' } }, 'soil'],
      ['a malformed hardiness zone', { climate: { hardinessZone: '14c' } }, 'climate.hardinessZone'],
    ])('refuses %s with 400 VALIDATION_ERROR in the envelope', async (_name, category, field) => {
      const res = await addRecord({ plantId: tomato, ...category });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
      expect(res.body.error.message).toContain(field.replaceAll('.', '/'));
    });

    it('refuses a record without any category and one measured in the future', async () => {
      const empty = await addRecord({ plantId: tomato });
      expect(empty.status).toBe(400);
      expect(empty.body.error.code).toBe('VALIDATION_ERROR');
      const future = await addRecord({ plantId: tomato, recordedAt: '2099-01-01T00:00:00Z', soil: { ph: 6 } });
      expect(future.status).toBe(400);
      expect(future.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'recordedAt' } });
    });

    it('lets only the owner or an ADMIN write: another user is 403, an ADMIN 201, no token 401', async () => {
      const other = await addRecord({ plantId: basil, soil: { ph: 6 } }, { role: 'USER', sub: 'usr_env_other' });
      expect(other.status).toBe(403);
      expect(other.body.error.code).toBe('FORBIDDEN');
      const admin = await addRecord({ plantId: basil, soil: { ph: 6.5 } }, { role: 'ADMIN', sub: 'usr_env_admin' });
      expect(admin.status).toBe(201);
      expect(admin.body.data.recordedBy).toBe('usr_env_admin');
      const anonymous = await p.http('POST', '/api/environment/records', { body: { plantId: basil, soil: { ph: 6 } } });
      expect(anonymous.status).toBe(401);
      const history = await p.http('GET', `/api/environment/records/${basil}`, { role: 'USER', sub: 'usr_env_other' });
      expect(history.body.data.map((r: { recordedBy: string }) => r.recordedBy)).toEqual(['usr_env_admin']);
    });

    it('records a retried write with the same Idempotency-Key once and answers it again', async () => {
      const body = { plantId: basil, recordedAt: '2026-11-01T00:00:00Z', watering: { frequencyPerWeek: 3 } };
      const send = () =>
        p.app.inject({
          method: 'POST',
          url: '/api/environment/records',
          headers: { authorization: `Bearer ${owner}`, 'idempotency-key': '6f1c2b9e-5d47-4d8a-9a43-0c1e2f3a4b5c' },
          payload: body,
        });
      const first = await send();
      const again = await send();
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.json().data.id).toBe(first.json().data.id);
      expect(again.headers['idempotent-replayed']).toBe('true');
      const history = await p.http('GET', `/api/environment/records/${basil}`, { token: owner });
      const ids = history.body.data.map((r: { id: string }) => r.id);
      expect(ids.filter((id: string) => id === first.json().data.id)).toHaveLength(1);
    });

    it('answers 404 NOT_FOUND for a plant the plants service does not know', async () => {
      const unknown = 'plt_0000000000UNKNOWN0000000';
      const post = await addRecord({ plantId: unknown, soil: { ph: 6 } });
      expect(post.status).toBe(404);
      expect(post.body.error.code).toBe('NOT_FOUND');
      for (const path of [`/records/${unknown}`, `/health/${unknown}`, `/recommendations?plantId=${unknown}`]) {
        const res = await p.http('GET', `/api/environment${path}`, { token: owner });
        expect(res.status).toBe(404);
      }
    });

    it('keeps a plant without records valid: empty history, no score, advice to measure', async () => {
      const history = await p.http('GET', `/api/environment/records/${bare}`, { token: owner });
      expect(history.status).toBe(200);
      expect(history.body).toMatchObject({ data: [], pagination: { total: 0 }, meta: { plantId: bare, current: {} } });
      const health = await p.http('GET', `/api/environment/health/${bare}`, { token: owner });
      expect(health.body.data).toMatchObject({ score: null, ranges: 'fallback', species: 'pteridium obscurum' });
      const advice = await p.http('GET', `/api/environment/recommendations?plantId=${bare}`, { token: owner });
      expect(advice.body.data.recommendations.every((r: { priority: string }) => r.priority === 'low')).toBe(true);
    });
  });

  describe('health score and recommendations', () => {
    it('scores the tomato from its current environment (worked out by hand)', async () => {
      // Current: soil pH 7.3 → 50; climate 24 °C → 100 and 50 % → 60, so 80; lighting DLI 25, 14 h → 100;
      // nutrients EC 2.2 in 2–5 → 100; water pH 6.5 in 5.5–7 → 100.
      // (0.2·50 + 0.3·80 + 0.25·100 + 0.1·100 + 0.15·100) / 1 = 84.
      const res = await p.http('GET', `/api/environment/health/${tomato}`, { role: 'USER', sub: 'usr_env_reader' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        plantId: tomato,
        species: 'solanum lycopersicum',
        ranges: 'species',
        score: 84,
      });
    });

    it('recommends by priority with the category, measured value, target and reason', async () => {
      const res = await p.http('GET', `/api/environment/recommendations?plantId=${tomato}`, { token: owner });
      expect(res.status).toBe(200);
      const [first, second] = res.body.data.recommendations;
      // Soil pH 7.3 scores 50, humidity 50 % scores 60: both medium, the worse first.
      expect(first).toMatchObject({
        priority: 'medium',
        category: 'soil',
        measured: 7.3,
        target: { min: 6.2, max: 6.8 },
      });
      expect(first.reason).toMatch(/above the optimal range 6\.2–6\.8 pH for tomato/);
      // The advice by its code and values, for an app to word in its reader's language.
      expect(first).toMatchObject({
        code: 'soil.ph.too-high',
        params: { parameter: 'soil.ph', kind: 'too-high', measured: 7.3, min: 6.2, max: 6.8, unit: 'pH' },
      });
      expect(second).toMatchObject({
        priority: 'medium',
        category: 'climate',
        parameter: 'climate.humidityPercent',
        measured: 50,
        target: { min: 60, max: 80, unit: '%' },
        code: 'climate.humidityPercent.too-low',
      });
      expect(res.body.data.health.score).toBe(84);
    });

    it('refuses a missing or malformed plantId with 400', async () => {
      expect((await p.http('GET', '/api/environment/recommendations', { token: owner })).status).toBe(400);
      expect((await p.http('GET', '/api/environment/health/not-a-plant', { token: owner })).status).toBe(400);
    });
  });
});
