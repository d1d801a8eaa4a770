import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryBroker } from '@rootline/bus';
import { service as chainMiner } from '@rootline/chain-miner';
import { type Database, openDatabase } from '@rootline/db';
import { buildGateway, GatewayConfig, seedSession } from '@rootline/gateway/testing';
import { createLogger, loadConfig, type RunningService, startService } from '@rootline/host';
import { service as plants } from '@rootline/plants';
import { plantInput, TEST_JWT_SECRET } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as environment } from '../src/service.js';

/**
 * The environment service in embedded mode: PGlite runs the same SQL (advisory locks, the transaction-id
 * watermark of the similarity index, corr/regr_count) as PostgreSQL.
 */
describe('environment in embedded mode (PGlite, in-process bus) over HTTP', () => {
  let dataDir: string;
  let database: Database;
  let app: Awaited<ReturnType<typeof buildGateway>>;
  const running: RunningService[] = [];
  let grower: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rootline-environment-embedded-'));
    database = await openDatabase({ dataDir });
    const broker = createMemoryBroker();
    const log = createLogger('test', 'silent');
    const env = { CHAIN_DIFFICULTY: '8' };
    running.push(await startService(chainMiner, { bus: broker.connect('chain-miner'), database, log, env }));
    running.push(await startService(plants, { bus: broker.connect('plants'), database, log, env }));
    running.push(await startService(environment, { bus: broker.connect('environment'), database, log, env }));
    const config = loadConfig(GatewayConfig, { JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent', BCRYPT_COST: '4' });
    app = await buildGateway({ bus: broker.connect('gateway'), log, config, database });
    await app.ready();
    grower = (await seedSession(database, 'GROWER', 'usr_test')).token;
  });
  afterAll(async () => {
    await app?.close();
    for (const r of running.reverse()) await r.stop();
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const http = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${grower}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: res.statusCode, body: res.json() };
  };

  it('records, scores, finds similar plants and analyses on PGlite', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const reg = await http('POST', '/api/plants/register', plantInput());
      expect(reg.status).toBe(201);
      ids.push(reg.body.data.id);
      const rec = await http('POST', '/api/environment/records', {
        plantId: reg.body.data.id,
        soil: { ph: 6 + i / 10 },
        climate: { temperatureC: 22 },
        growth: { healthScore: 60 + i },
      });
      expect(rec.status).toBe(201);
    }
    const health = await http('GET', `/api/environment/health/${ids[0]}`);
    // Tomato: soil pH 6.0 is 0.2 below 6.2 → 80; 22 °C → 100. (0.2·80 + 0.3·100) / 0.5 = 92.
    expect(health.body.data.score).toBe(92);
    const similar = await http('GET', `/api/environment/similar?plantId=${ids[0]}&limit=3`);
    expect(similar.status).toBe(200);
    expect(similar.body.data.map((x: { plantId: string }) => x.plantId)).toEqual(ids.slice(1));
    const analysis = await http('GET', '/api/environment/analysis?minSamples=4');
    expect(analysis.status).toBe(200);
    // pH and health rise together exactly: r = 1.
    expect(analysis.body.data.correlations).toContainEqual(
      expect.objectContaining({ condition: 'soil.ph', outcome: 'growth.healthScore', n: 4, r: expect.closeTo(1, 9) }),
    );
  });
});
