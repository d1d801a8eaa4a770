import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryBroker } from '@rootline/bus';
import { service as chainMiner } from '@rootline/chain-miner';
import { NEARBY_EXACT_TOTAL_MAX } from '@rootline/contracts';
import { type Database, executeRows, openDatabase } from '@rootline/db';
import { buildGateway, GatewayConfig, ledgerTransaction, seedSession } from '@rootline/gateway/testing';
import { createLogger, loadConfig, type RunningService, startService } from '@rootline/host';
import { anonymousPlantInput, cloneInput, plantInput, TEST_JWT_SECRET } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as plants } from '../src/service.js';

/**
 * The plant registry in embedded mode: PGlite (the same migrations as PostgreSQL, the same nearby index) and the
 * in-process bus, behind the real gateway.
 */
describe('plants in embedded mode (PGlite, in-process bus) over HTTP', () => {
  let dataDir: string;
  let database: Database;
  let app: Awaited<ReturnType<typeof buildGateway>>;
  const running: RunningService[] = [];
  let grower: string;
  let admin: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rootline-plants-embedded-'));
    database = await openDatabase({ dataDir });
    const broker = createMemoryBroker();
    const log = createLogger('test', 'silent');
    const env = { CHAIN_DIFFICULTY: '8', LINEAGE_AGENT_POLL_MS: '100' };
    running.push(await startService(chainMiner, { bus: broker.connect('chain-miner'), database, log, env }));
    running.push(await startService(plants, { bus: broker.connect('plants'), database, log, env }));
    const config = loadConfig(GatewayConfig, {
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
      RATE_LIMIT_SESSION_PER_MINUTE: '100000',
      BCRYPT_COST: '4',
    });
    app = await buildGateway({ bus: broker.connect('gateway'), log, config, database });
    await app.ready();
    grower = (await seedSession(database, 'GROWER', 'usr_test')).token;
    admin = (await seedSession(database, 'ADMIN', 'usr_admin')).token;
  });
  afterAll(async () => {
    await app?.close();
    for (const r of running.reverse()) await r.stop();
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function http(method: 'GET' | 'POST', url: string, body?: unknown, token: string | null = grower) {
    const res = await app.inject({
      method,
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: res.statusCode, body: res.json() };
  }
  const register = async (body: unknown) => {
    const res = await http('POST', '/api/plants/register', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };

  it('registers with a privacy level, keeps only the obfuscated point, and finds plants nearby through the index', async () => {
    const exact = await register(
      plantInput({ commonName: 'Tomato', location: { latitude: 52.0907, longitude: 5.1214 } }),
    );
    const city = await register(
      plantInput({
        commonName: 'Pepper',
        location: { latitude: 52.1, longitude: 5.2, city: 'Zeist' },
        privacyLevel: 'city',
      }),
    );
    const hidden = await register(
      plantInput({ location: { latitude: 52.09, longitude: 5.12 }, privacyLevel: 'hidden' }),
    );
    const far = await register(plantInput({ location: { latitude: 48.85, longitude: 2.35 } }));

    const pepper = (await http('GET', `/api/plants/${city}`)).body.data;
    expect(pepper.location.latitude).not.toBe(52.1);
    expect(pepper.location.city).toBe('Zeist');
    const tx = await ledgerTransaction({ http }, pepper.block.txId);
    expect(JSON.parse(tx.payload).location).toEqual(pepper.location);
    expect((await http('GET', `/api/plants/${hidden}`)).body.data.location).toBeNull();

    const near = await http('GET', '/api/plants/nearby?lat=52.0907&lon=5.1214&radius=30');
    expect(near.status).toBe(200);
    expect(near.body.data.map((x: { id: string }) => x.id)).toEqual([exact, city]);
    expect(near.body.data[0].distanceKm).toBe(0);
    expect(near.body.data[1].distanceKm).toBeGreaterThan(0);
    expect(near.body.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1, totalIsEstimate: false });
    const wide = await http('GET', '/api/plants/nearby?lat=52.0907&lon=5.1214&radius=500');
    expect(wide.body.data.map((x: { id: string }) => x.id)).toEqual([exact, city, far]);
  });

  it('searches ignoring case and accents', async () => {
    const id = await register(
      plantInput({
        commonName: 'Piment d’Espelette',
        location: { latitude: 43.34, longitude: -1.42, city: 'Espelette', country: 'FR' },
      }),
    );
    const res = await http('GET', '/api/plants/search?q=PIMENT%20D%20ESPELETTE');
    expect(res.body.data.map((x: { id: string }) => x.id)).toEqual([id]);
    expect(res.body.data[0].match).toEqual({ field: 'species', kind: 'prefix' });
  });

  it('propagates, walks the lineage and registers anonymously', async () => {
    const root = await register(plantInput({ commonName: 'Vine' }));
    const childRes = await http('POST', '/api/plants/clone', cloneInput(root, { propagationType: 'layering' }));
    expect(childRes.status).toBe(201);
    const lineage = (await http('GET', `/api/plants/lineage/${childRes.body.data.id}`)).body.data;
    expect(lineage.plant).toMatchObject({ generation: 1, propagationType: 'layering', commonName: 'Vine' });
    expect(lineage.ancestors.map((a: { id: string }) => a.id)).toEqual([root]);

    const anon = await http('POST', '/api/plants/register-anonymous', anonymousPlantInput({ pseudonym: 'p' }), null);
    expect(anon.status).toBe(201);
    expect(anon.body.data.walletAddress).toMatch(/^rlw_[0-9a-f]{40}$/);
    expect((await http('GET', `/api/plants/${anon.body.data.id}`)).body.data.owner).toEqual({
      id: anon.body.data.anonymousId,
      name: 'p',
    });
  });

  it('serves network statistics and runs the lineage agent', async () => {
    const network = (await http('GET', '/api/plants/network')).body.data;
    expect(network).toMatchObject({ totalPlants: 8, difficulty: 8 });
    const parent = await register(plantInput({ location: { latitude: 38.72, longitude: -9.14 } }));
    await http(
      'POST',
      '/api/plants/clone',
      cloneInput(parent, {
        newPlant: { location: { latitude: 60.17, longitude: 24.94 }, owner: { id: 'usr_test' } },
      }),
    );
    expect((await http('POST', '/api/agents/lineage', { action: 'start' }, admin)).body.data.state).toBe('running');
    await expect
      .poll(async () => (await http('GET', '/api/agents/lineage')).body.data.runs, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(1);
    const anomalies = await http('GET', '/api/agents/lineage/anomalies');
    expect(anomalies.body.data.map((a: { kind: string }) => a.kind)).toEqual(['distant-offspring']);
    expect(anomalies.body.data[0].plantIds[1]).toBe(parent);
    const analysis = (await http('GET', `/api/agents/lineage/${parent}`)).body.data;
    expect(analysis).toMatchObject({ descendantCount: 1, deepestGeneration: 1, propagationMix: { cutting: 1 } });
    expect((await http('POST', '/api/agents/lineage', { action: 'stop' }, admin)).body.data.state).toBe('stopped');
  });

  it('answers nearby over thousands of plants exactly as a brute-force haversine scan', async () => {
    // Plants around Stockholm, straight into the table (the ledger is not what this checks).
    await database.db.execute(sql`
      insert into plants.plants (id, common_name, latitude, longitude, owner_id, owner_name, block_index, block_hash, tx_id, registered_at)
      select 'plt_' || lpad(g::text, 26, '0'), 'Plant ' || g, 58.5 + 2 * random(), 16 + 4 * random(), 'usr_x', 'X',
             0, repeat('0', 64), 'tx_x' || g, now()
      from generate_series(1, 4000) g`);
    const all = await executeRows<{ id: string; latitude: number; longitude: number }>(
      database.db,
      sql`select id, latitude, longitude from plants.plants where latitude > 58`,
    );
    const rad = Math.PI / 180;
    const km = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) => {
      const s1 = Math.sin((b.latitude * rad - a.latitude * rad) / 2);
      const s2 = Math.sin((b.longitude * rad - a.longitude * rad) / 2);
      const h = s1 * s1 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * s2 * s2;
      return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
    };
    for (const [center, radius] of [
      [{ latitude: 59.33, longitude: 18.07 }, 50],
      [{ latitude: 59.5, longitude: 17 }, 20],
      [{ latitude: 60.4, longitude: 19.9 }, 120],
    ] as const) {
      const expected = all
        .map((p) => ({ id: p.id, d: km(center, p) }))
        .filter((p) => p.d <= radius)
        .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1));
      const res = await http(
        'GET',
        `/api/plants/nearby?lat=${center.latitude}&lon=${center.longitude}&radius=${radius}&limit=100`,
      );
      // Exact up to the cap; past it, flagged as an estimate above the cap. The page is exact either way.
      if (expected.length <= NEARBY_EXACT_TOTAL_MAX) {
        expect(res.body.pagination).toMatchObject({ total: expected.length, totalIsEstimate: false });
      } else {
        expect(res.body.pagination.totalIsEstimate).toBe(true);
        expect(res.body.pagination.total).toBeGreaterThan(NEARBY_EXACT_TOTAL_MAX);
      }
      expect(res.body.data.map((x: { id: string }) => x.id)).toEqual(expected.slice(0, 100).map((p) => p.id));
      expect(res.body.data.map((x: { distanceKm: number }) => x.distanceKm)).toEqual(
        expected.slice(0, 100).map((p) => expect.closeTo(p.d, 9)),
      );
    }
  });
});
