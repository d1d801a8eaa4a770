import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, farmInput, startFarmPlatform, type TestPlatform, zoneInput } from './support.js';

// A farm's paths are under `/api/vertical-farm/farms/{farmId}`: `/api/vertical-farm/{farmId}/zones` was ambiguous
// beside `/api/vertical-farm/batch/{batchId}` (`/api/vertical-farm/batch/zones` matches both). The former paths
// still answer, as the same operations, and are listed in docs/farm.md and docs/permissions.md.
describe('farm paths and their former forms', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startFarmPlatform();
  });
  afterAll(async () => p?.stop());

  it('answers the same under /farms/{farmId} and under the former /{farmId} paths', async () => {
    const farm = (await expectStatus(p, 201, 'POST', '/api/vertical-farm/register', { body: farmInput('Alias') })).body
      .data;
    const now = `/api/vertical-farm/farms/${farm.id}`;
    const before = `/api/vertical-farm/${farm.id}`;

    await expectStatus(p, 201, 'POST', `${now}/zones`, { body: zoneInput({ name: 'Level 1 A', level: 1 }) });
    await expectStatus(p, 201, 'POST', `${before}/zones`, { body: zoneInput({ name: 'Level 2 A', level: 2 }) });

    for (const tail of ['', '/zones', '/batches', '/analytics?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z']) {
      const a = await expectStatus(p, 200, 'GET', `${now}${tail}`);
      const b = await expectStatus(p, 200, 'GET', `${before}${tail}`);
      expect(b.body, tail).toEqual(a.body);
    }
    const zones = (await expectStatus(p, 200, 'GET', `${now}/zones`)).body.data as { name: string }[];
    expect(zones.map((z) => z.name).sort()).toEqual(['Level 1 A', 'Level 2 A']);

    // Both forms refuse alike: an unknown farm, and a bad body.
    const missing = 'frm_0000000000000000000000';
    for (const path of [`/api/vertical-farm/farms/${missing}`, `/api/vertical-farm/${missing}`]) {
      const res = await p.http('GET', path, { role: 'FARM_MANAGER', sub: 'usr_farm_manager' });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    for (const path of [`${now}/zones`, `${before}/zones`]) {
      const res = await p.http('POST', path, { role: 'FARM_MANAGER', sub: 'usr_farm_manager', body: { name: '' } });
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });
});
