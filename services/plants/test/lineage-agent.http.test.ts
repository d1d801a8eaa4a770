import { cloneInput, plantInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlantsPlatform, type TestPlatform } from './support.js';

describe('lineage agent over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  let reader: string;
  let grower: string;
  let admin: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    p = await startPlantsPlatform({ LINEAGE_AGENT_POLL_MS: '100' });
    reader = await p.token('USER', 'usr_reader');
    grower = await p.token('GROWER', 'usr_test');
    admin = await p.token('ADMIN', 'usr_admin');
  });
  afterAll(async () => p?.stop());

  const status = () => p.http('GET', '/api/agents/lineage', { token: grower });
  const control = (action: unknown, token = admin) =>
    p.http('POST', '/api/agents/lineage', { token, body: { action } });
  const register = async (body: unknown) => {
    const res = await p.http('POST', '/api/plants/register', { token: grower, body });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  const clone = async (body: unknown) => {
    const res = await p.http('POST', '/api/plants/clone', { token: grower, body });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  /** A record the API would never write (imported or damaged data), straight into the table. */
  async function insertRaw(r: { id: string; parentId: string | null; generation: number; registeredAt: string }) {
    await p.database.db.execute(sql`
      insert into plants.plants (id, common_name, latitude, longitude, owner_id, owner_name, generation, parent_id,
        propagation_type, block_index, block_hash, tx_id, registered_at)
      values (${r.id}, 'Imported', 52, 5, 'usr_import', 'Importer', ${r.generation}, ${r.parentId},
        ${r.parentId ? 'seed' : null}, 0, ${'0'.repeat(64)}, ${`tx_${r.id}`}, ${r.registeredAt})`);
  }

  it('starts stopped, with lineage-wide statistics; reading needs agents:read', async () => {
    const res = await status();
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      agent: 'lineage',
      state: 'stopped',
      allowedActions: ['start'],
      runs: 0,
      lastRunAt: null,
      anomaliesFound: 0,
      intervalSeconds: 3600,
      network: { totalPlants: 0, rootPlants: 0, propagatedPlants: 0, maxGeneration: 0 },
    });
    expect((await p.http('GET', '/api/agents/lineage', { token: reader })).status).toBe(403);
    expect((await p.http('GET', '/api/agents/lineage')).status).toBe(401);
  });

  it('refuses an unknown action (400 naming body/action) and control without agents:control (403)', async () => {
    const unknown = await control('fly');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_ERROR');
    expect(unknown.body.error.details.map((d: { field: string }) => d.field)).toContain('body/action');
    const missing = await p.http('POST', '/api/agents/lineage', { token: admin, body: {} });
    expect(missing.status).toBe(400);
    expect((await control('start', grower)).status).toBe(403);
    expect((await status()).body.data.state).toBe('stopped');
  });

  it('refuses a move the state machine does not allow with 409 CONFLICT, as the transport tracker does', async () => {
    for (const action of ['pause', 'resume', 'stop']) {
      const res = await control(action);
      expect(res.status).toBe(409);
      expect(res.body.error).toEqual({
        code: 'CONFLICT',
        message: `Cannot ${action} the lineage agent while it is stopped; allowed: start`,
        details: { state: 'stopped', action, allowedActions: ['start'] },
      });
    }
  });

  it('scans when started and reports each anomaly with the plants involved and why', async () => {
    ids.root = await register(
      plantInput({ commonName: 'Olive', location: { latitude: 45.76, longitude: 4.83, country: 'FR' } }),
    );
    ids.near = await clone(cloneInput(ids.root, { propagationType: 'cutting' }));
    ids.far = await clone(
      cloneInput(ids.root, {
        propagationType: 'graft',
        newPlant: {
          location: { latitude: 59.33, longitude: 18.07, country: 'SE' },
          owner: { id: 'usr_test' },
        },
      }),
    );
    ids.grand = await clone(cloneInput(ids.near, { propagationType: 'seed' }));
    ids.orphan = 'plt_01ORPHAN0000000000000000000';
    ids.early = 'plt_01EARLY00000000000000000000';
    ids.jump = 'plt_01JUMP000000000000000000000';
    await insertRaw({
      id: ids.orphan,
      parentId: 'plt_01NOSUCHPLANT0000000000000',
      generation: 1,
      registeredAt: '2026-01-01T00:00:00Z',
    });
    await insertRaw({ id: ids.early, parentId: ids.root, generation: 1, registeredAt: '2000-01-01T00:00:00Z' });
    await insertRaw({ id: ids.jump, parentId: ids.near, generation: 5, registeredAt: '2099-01-01T00:00:00Z' });

    const started = await control('start');
    expect(started.status).toBe(200);
    expect(started.body.data).toMatchObject({ state: 'running', allowedActions: ['pause', 'stop'] });
    await expect.poll(async () => (await status()).body.data.runs, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const after = (await status()).body.data;
    expect(after.lastRunAt).not.toBeNull();
    expect(after.anomaliesFound).toBe(4);
    expect(after.network).toEqual({
      totalPlants: 7,
      rootPlants: 1,
      propagatedPlants: 6,
      maxGeneration: 5,
      propagationMix: { clone: 0, seed: 4, cutting: 1, graft: 1, division: 0, layering: 0, 'tissue-culture': 0 },
    });

    const res = await p.http('GET', '/api/agents/lineage/anomalies', { token: grower });
    expect(res.status).toBe(200);
    const byKind = Object.fromEntries(res.body.data.map((a: { kind: string }) => [a.kind, a]));
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 4, totalPages: 1 });
    expect(byKind['orphaned-parent']).toMatchObject({
      plantIds: [ids.orphan],
      reason: `Plant ${ids.orphan} names parent plt_01NOSUCHPLANT0000000000000, which does not exist`,
    });
    expect(byKind['child-before-parent']).toMatchObject({ plantIds: [ids.early, ids.root] });
    expect(byKind['child-before-parent'].reason).toContain('before its parent');
    expect(byKind['generation-jump']).toMatchObject({ plantIds: [ids.jump, ids.near] });
    expect(byKind['generation-jump'].reason).toContain('generation 5 but its parent');
    expect(byKind['distant-offspring']).toMatchObject({ plantIds: [ids.far, ids.root] });
    expect(byKind['distant-offspring'].reason).toMatch(/is \d+ km from its parent/);
    expect(new Date(byKind['distant-offspring'].detectedAt).toISOString()).toBe(after.lastRunAt);

    const onlyJumps = await p.http('GET', '/api/agents/lineage/anomalies?kind=generation-jump', { token: grower });
    expect(onlyJumps.body.data.map((a: { kind: string }) => a.kind)).toEqual(['generation-jump']);
    const page2 = await p.http('GET', '/api/agents/lineage/anomalies?limit=3&page=2', { token: grower });
    expect(page2.body.data).toHaveLength(1);
    expect(page2.body.pagination).toEqual({ page: 2, limit: 3, total: 4, totalPages: 2 });
    const badKind = await p.http('GET', '/api/agents/lineage/anomalies?kind=weird', { token: grower });
    expect(badKind.status).toBe(400);
    expect(badKind.body.error.details[0].field).toBe('querystring/kind');
  });

  it('moves through pause, resume, stop and start as documented', async () => {
    expect((await control('start')).body.error.details).toEqual({
      state: 'running',
      action: 'start',
      allowedActions: ['pause', 'stop'],
    });
    const paused = await control('pause');
    expect(paused.body.data).toMatchObject({ state: 'paused', allowedActions: ['resume', 'stop'] });
    expect(paused.body.data.runs).toBeGreaterThanOrEqual(1);
    expect((await control('pause')).status).toBe(409);
    expect((await control('resume')).body.data).toMatchObject({ state: 'running' });
    expect((await control('stop')).body.data).toMatchObject({ state: 'stopped', allowedActions: ['start'] });
    // Findings stay readable while stopped.
    expect((await p.http('GET', '/api/agents/lineage/anomalies', { token: grower })).body.pagination.total).toBe(4);
    // Starting again counts runs from zero and scans at once.
    const restarted = await control('start');
    expect(restarted.body.data).toMatchObject({ state: 'running', runs: 0 });
    await expect.poll(async () => (await status()).body.data.runs, { timeout: 10_000 }).toBe(1);
    await control('stop');
  });

  it('analyses one plant: counts, deepest generation, propagation mix and spread', async () => {
    const res = await p.http('GET', `/api/agents/lineage/${ids.root}`, { token: grower });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      plantId: ids.root,
      generation: 0,
      rootId: ids.root,
      ancestorCount: 0,
      // near, far, grand, and the two imported children (early, jump).
      descendantCount: 5,
      deepestGeneration: 5,
      propagationMix: { clone: 0, seed: 3, cutting: 1, graft: 1, division: 0, layering: 0, 'tissue-culture': 0 },
      truncated: false,
    });
    const spread = res.body.data.geographicSpread;
    expect(spread.locatedPlants).toBe(6);
    expect(spread.countries).toEqual(['FR', 'NL', 'SE']);
    // Lyon to Stockholm, about 1,760 km.
    expect(spread.maxDistanceKm).toBeGreaterThan(1700);
    expect(spread.maxDistanceKm).toBeLessThan(1800);
    expect(spread.boundingBox).toMatchObject({ minLatitude: 45.76, maxLatitude: 59.33, maxLongitude: 18.07 });

    const grand = (await p.http('GET', `/api/agents/lineage/${ids.grand}`, { token: grower })).body.data;
    expect(grand).toMatchObject({ ancestorCount: 2, descendantCount: 0, rootId: ids.root, generation: 2 });

    const missing = await p.http('GET', '/api/agents/lineage/plt_00000000000000000000000000', { token: grower });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    expect((await p.http('GET', `/api/agents/lineage/${ids.root}`, { token: reader })).status).toBe(403);
  });
  it('the same move sent twice at once: one 200, the other 409 naming the state, which is the one stored (20 rounds)', async () => {
    // From stopped, running, paused, running: each move leaves a state the same move cannot leave again.
    const moves = [
      ['start', 'running'],
      ['pause', 'paused'],
      ['resume', 'running'],
      ['stop', 'stopped'],
    ] as const;
    if ((await status()).body.data.state !== 'stopped') expect((await control('stop')).status).toBe(200);
    for (let round = 0; round < 20; round++) {
      for (const [action, to] of moves) {
        const answers = await Promise.all([control(action), control(action)]);
        const label = `round ${round} ${action}: ${answers.map((a) => a.status)}`;
        expect(answers.map((a) => a.status).sort(), label).toEqual([200, 409]);
        expect(answers.find((a) => a.status === 200)!.body.data.state).toBe(to);
        const lost = answers.find((a) => a.status === 409)!;
        expect(lost.body.error).toMatchObject({ code: 'CONFLICT', details: { state: to, action } });
        expect((await status()).body.data.state).toBe(to);
      }
    }
  });
});
