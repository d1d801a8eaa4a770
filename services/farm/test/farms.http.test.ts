import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectStatus,
  farmInput,
  farmWithZone,
  MANAGER,
  OTHER_MANAGER,
  startFarmPlatform,
  type TestPlatform,
  zoneInput,
} from './support.js';

describe('farms and zones over HTTP', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startFarmPlatform();
  });
  afterAll(async () => p?.stop());

  it('registers a farm owned by the caller and reads it back', async () => {
    const res = await expectStatus(p, 201, 'POST', '/api/vertical-farm/register', { body: farmInput('North') });
    expect(res.body).toMatchObject({ success: true, error: null });
    const farm = res.body.data;
    expect(farm).toMatchObject({ name: 'North', ownerId: MANAGER, levels: 8, zoneCount: 0, growingAreaM2: 0 });
    expect(farm.id).toMatch(/^frm_/);
    const read = await expectStatus(p, 200, 'GET', `/api/vertical-farm/${farm.id}`, {
      role: 'USER',
      sub: 'usr_reader',
    });
    expect(read.body.data).toEqual(farm);
  });

  it('refuses farm registration to USER and GROWER (farm:write)', async () => {
    for (const role of ['USER', 'GROWER'] as const) {
      const res = await p.http('POST', '/api/vertical-farm/register', { role, body: farmInput() });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'FORBIDDEN' } });
    }
    const anonymous = await p.http('POST', '/api/vertical-farm/register', { body: farmInput() });
    expect(anonymous.status).toBe(401);
  });

  it('answers 400 VALIDATION_ERROR naming the field for a bad farm', async () => {
    const res = await p.http('POST', '/api/vertical-farm/register', {
      role: 'FARM_MANAGER',
      sub: MANAGER,
      body: { ...farmInput(), floorAreaM2: -5, lightingSystem: 'candles' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toMatch(/floorAreaM2|lightingSystem/);
  });

  it('answers 404 NOT_FOUND for an unknown farm', async () => {
    const res = await p.http('GET', '/api/vertical-farm/frm_00000000000000000000000000', { role: 'USER' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('adds zones for the owner and lists them with their capacity', async () => {
    const { farmId, zoneId } = await farmWithZone(p, MANAGER, { setpoints: { temperatureC: 22, ppfd: 290 } });
    await expectStatus(p, 201, 'POST', `/api/vertical-farm/${farmId}/zones`, {
      body: zoneInput({ name: 'Level 2 DWC', level: 2, areaM2: 50, growingMethod: 'deep-water-culture' }),
    });
    const list = await expectStatus(p, 200, 'GET', `/api/vertical-farm/${farmId}/zones`, { role: 'USER' });
    expect(list.body.data).toHaveLength(2);
    // Answered whole, as one page holding every zone (ADR 188).
    expect(list.body.pagination).toEqual({ page: 1, limit: 2, total: 2, totalPages: 1 });
    expect(list.body.data[0]).toMatchObject({
      id: zoneId,
      farmId,
      level: 1,
      growingMethod: 'nft',
      capacity: 1000,
      plantsGrowing: 0,
      setpoints: { temperatureC: 22, ppfd: 290 },
    });
    const farm = await expectStatus(p, 200, 'GET', `/api/vertical-farm/${farmId}`, { role: 'USER' });
    expect(farm.body.data).toMatchObject({ zoneCount: 2, growingAreaM2: 150 });
  });

  // Regression: `GET …/zones` answered `data: []` with no `pagination`, unlike every other list.
  it('answers a farm without zones `data: []` with its pagination beside it', async () => {
    const res = await expectStatus(p, 201, 'POST', '/api/vertical-farm/register', { body: farmInput('Empty') });
    const list = await expectStatus(p, 200, 'GET', `/api/vertical-farm/${res.body.data.id}/zones`, { role: 'USER' });
    expect(list.body).toEqual({
      success: true,
      data: [],
      error: null,
      pagination: { page: 1, limit: 1, total: 0, totalPages: 0 },
    });
  });

  it('lets only the owner or an ADMIN add a zone', async () => {
    const { farmId } = await farmWithZone(p);
    const other = await p.http('POST', `/api/vertical-farm/${farmId}/zones`, {
      role: 'FARM_MANAGER',
      sub: OTHER_MANAGER,
      body: zoneInput(),
    });
    expect(other.status).toBe(403);
    expect(other.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'not-owner' } });
    await expectStatus(p, 201, 'POST', `/api/vertical-farm/${farmId}/zones`, {
      role: 'ADMIN',
      sub: 'usr_admin',
      body: zoneInput({ name: 'Admin zone' }),
    });
  });

  it('refuses an unknown growing method and a zone of an unknown farm', async () => {
    const { farmId } = await farmWithZone(p);
    const bad = await p.http('POST', `/api/vertical-farm/${farmId}/zones`, {
      role: 'FARM_MANAGER',
      sub: MANAGER,
      body: zoneInput({ growingMethod: 'soil' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const missing = await p.http('POST', '/api/vertical-farm/frm_00000000000000000000000000/zones', {
      role: 'FARM_MANAGER',
      sub: MANAGER,
      body: zoneInput(),
    });
    expect(missing.status).toBe(404);
  });

  it('answers a retry with the same Idempotency-Key with the first farm, and creates it once', async () => {
    const token = await p.token('FARM_MANAGER', MANAGER);
    const key = randomUUID();
    const send = async () => {
      const res = await p.app.inject({
        method: 'POST',
        url: '/api/vertical-farm/register',
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
        payload: farmInput('Retried farm'),
      });
      return { status: res.statusCode, body: res.json() };
    };
    const first = await send();
    const again = await send();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    const rows = await p.database.db.execute(
      sql`select count(*)::int as n from farm.farms where name = 'Retried farm'`,
    );
    expect(rows).toEqual([{ n: 1 }]);
  });
});
