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
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batches } from '../src/db/schema.js';
import { service as farm } from '../src/service.js';
import { farmInput, MANAGER, zoneInput } from './support.js';

/** The whole farm path in embedded mode: PGlite and the in-process bus, as `pnpm start` runs it. */
describe('vertical farming in embedded mode (PGlite, in-process bus)', () => {
  let dataDir: string;
  let database: Database;
  let app: Awaited<ReturnType<typeof buildGateway>>;
  let token: string;
  const running: RunningService[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rootline-farm-embedded-'));
    database = await openDatabase({ dataDir });
    const broker = createMemoryBroker();
    const log = createLogger('test', 'silent');
    const env = { CHAIN_DIFFICULTY: '8', HARVEST_READY_POLL_MS: '100', HARVEST_READY_INTERVAL_SECONDS: '1' };
    for (const mod of [chainMiner, plants, farm]) {
      running.push(await startService(mod as typeof farm, { bus: broker.connect(mod.name), database, log, env }));
    }
    const config = loadConfig(GatewayConfig, { JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent', BCRYPT_COST: '4' });
    app = await buildGateway({ bus: broker.connect('gateway'), log, config, database });
    await app.ready();
    token = (await seedSession(database, 'FARM_MANAGER', MANAGER)).token;
  });
  afterAll(async () => {
    await app?.close();
    for (const r of running.reverse()) await r.stop();
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function http(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
    const res = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: res.statusCode, body: res.json() };
  }

  it('follows a batch from its seed plant to its harvest on the ledger', async () => {
    const plant = await http('POST', '/api/plants/register', plantInput({ owner: { id: MANAGER } }));
    expect(plant.status).toBe(201);
    const f = await http('POST', '/api/vertical-farm/register', farmInput());
    const z = await http('POST', `/api/vertical-farm/${f.body.data.id}/zones`, zoneInput());
    const batch = await http('POST', '/api/vertical-farm/batch/start', {
      farmId: f.body.data.id,
      zoneId: z.body.data.id,
      recipeId: 'rcp_strawberry0albion001',
      crop: 'strawberry',
      variety: 'Albion',
      plantCount: 40,
      seedSource: { type: 'plant', plantId: plant.body.data.id },
    });
    expect(batch.status).toBe(201);
    expect(batch.body.data).toMatchObject({ state: 'growing', phase: 'vegetative' });
    const id = batch.body.data.id;
    const at = new Date(Date.now() - 60_000).toISOString();
    const readings = await http('PUT', `/api/vertical-farm/batch/${id}/environment`, {
      readings: [
        { at, temperatureC: 22, ppfd: 300, ph: 5.8 },
        { at, temperatureC: 30, ppfd: 300, ph: 5.8 },
      ],
    });
    expect(readings.body.data).toMatchObject({ accepted: 2, inTarget: 1 });
    await database.db.execute(
      sql`update farm.batches set expected_harvest_at = now() - interval '1 day' where id = ${id}`,
    );
    // The harvest-ready job announces it within a few of its runs (every second here).
    let announced = false;
    for (let i = 0; i < 100 && !announced; i++) {
      const [row] = await database.db.select().from(batches).where(eq(batches.id, id));
      announced = row?.readyNotifiedAt != null;
      if (!announced) await new Promise((r) => setTimeout(r, 100));
    }
    expect(announced).toBe(true);
    const harvest = await http('POST', `/api/vertical-farm/batch/${id}/harvest`, {
      yieldKg: 9,
      qualityGrade: 'premium',
    });
    expect(harvest.status).toBe(201);
    expect(harvest.body.data.harvest.block.hash).toMatch(/^[0-9a-f]{64}$/);
    const analytics = await http('GET', `/api/vertical-farm/${f.body.data.id}/analytics`);
    expect(analytics.body.data.totals).toMatchObject({ harvested: 1, yieldKg: 9, readings: 2, compliance: 0.5 });
  });
});
