import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createRootline } from '@rootline/sdk';
import { TEST_ADMIN, TEST_ADMIN_ENV, TEST_JWT_SECRET } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/data-dir.js';
import { type EmbeddedHandle, startEmbedded } from '../src/embedded-host.js';

const run = promisify(execFile);
const PASSWORD = 'demo passphrase 2026';

/** Runs `pnpm demo`'s program against `url` and answers what it printed. */
async function demo(url: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { stdout } = await run(process.execPath, ['--conditions=development', '--import', 'tsx', 'src/demo-cli.ts'], {
    cwd: join(REPO_ROOT, 'scripts'),
    env: { PATH: process.env.PATH, ROOTLINE_URL: url, DEMO_PASSWORD: PASSWORD, ...env },
    timeout: 170_000,
  });
  return stdout;
}

const grab = (text: string, re: RegExp) => {
  const m = re.exec(text);
  if (!m) throw new Error(`${re} not in:\n${text}`);
  return m[1] as string;
};

// A running instance (embedded; sign-in limit raised so two runs fit in a minute) filled by the demo command over HTTP, then read back.
describe('pnpm demo', () => {
  let dataDir: string;
  let rootline: EmbeddedHandle;
  let output: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rootline-demo-'));
    rootline = await startEmbedded({
      env: {
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        JWT_SECRET: TEST_JWT_SECRET,
        LOG_LEVEL: 'warn',
        AUTH_RATE_LIMIT_PER_MINUTE: '100',
        ...TEST_ADMIN_ENV,
      },
      logDestination: { write: () => {} },
    });
    output = await demo(rootline.url, { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password });
  }, 180_000);
  afterAll(async () => {
    await rootline?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('prints its progress, part by part, and the accounts to sign in with', () => {
    expect(output).toContain(`Filling ${rootline.url} with demo data`);
    for (const part of [
      'Accounts',
      'Plants and their lineage',
      'A journey',
      'Plant photos',
      'Demand',
      'A vertical farm',
      'Marketplace',
    ]) {
      expect(output).toContain(part);
    }
    expect(output).toMatch(
      /Done in [\d.]+ s: 5 accounts, 8 plants, 3 photos, 4 journey events, 12 households in 2 regions, 1 farm, 3 listings, 5 offers\./,
    );
    expect(output).toMatch(/femke\+[0-9a-f]{6}@demo\.rootline\.example {2}Femke Jansen \(FARM_MANAGER\)/);
  });

  it('made plants with lineage and photos, a journey, and an offer in each state', async () => {
    const email = grab(output, /(ada\+[0-9a-f]{6}@demo\.rootline\.example)/);
    const ada = createRootline({ baseUrl: rootline.url });
    await ada.signIn(email, PASSWORD);

    const grandchild = grab(output, /seedling (plt_\w+)\)/);
    const tomato = grab(output, /(plt_\w+) \(tomato\)/);
    const lineage = await ada.GET('/api/plants/lineage/{plantId}', { params: { path: { plantId: grandchild } } });
    expect(lineage.data?.data.ancestors.map((a) => a.id)).toContain(tomato);

    const journey = await ada.GET('/api/transport/journey/{plantId}', { params: { path: { plantId: tomato } } });
    expect(journey.data?.data.map((e) => e.kind)).toEqual(['seed-acquisition', 'planting', 'harvest', 'distribution']);

    // The tomato's photo, a JPEG with its thumbnails, on the plant's files.
    const photos = await ada.GET('/api/upload/plants/{plantId}', { params: { path: { plantId: tomato } } });
    expect(photos.data?.data.length).toBe(1);
    expect(photos.data?.data[0]?.mimeType).toBe('image/jpeg');

    // Every state an offer can be in, as its buyers see them.
    const states: string[] = [];
    for (const who of ['ada', 'ben', 'coop']) {
      const buyer = createRootline({ baseUrl: rootline.url });
      const signed = await buyer.signIn(
        grab(output, new RegExp(`(${who}\\+[0-9a-f]{6}@demo\\.rootline\\.example)`)),
        PASSWORD,
      );
      const offers = await buyer.GET('/api/marketplace/offers', { params: { query: { buyerId: signed.user.id } } });
      states.push(...(offers.data?.data.map((o) => o.status) ?? []));
    }
    expect(states.sort()).toEqual(['accepted', 'countered', 'pending', 'rejected', 'withdrawn']);
  });

  it('gave each demand region settled households, weeks of history and an accepted signal', async () => {
    const email = grab(output, /(ada\+[0-9a-f]{6}@demo\.rootline\.example)/);
    const ada = createRootline({ baseUrl: rootline.url });
    await ada.signIn(email, PASSWORD);
    for (const city of ['Amsterdam', 'Utrecht']) {
      // The signal was accepted (not refused for too few households).
      const consumers = Number(grab(output, new RegExp(`signal sig_\\w+ for ${city}: (\\d+) households`)));
      expect(consumers).toBeGreaterThanOrEqual(5);
      const forecast = await ada.GET('/api/demand/forecast', {
        params: { query: { crop: 'lettuce', region: `NL/${city.toLowerCase()}`, weeks: 4 } },
      });
      expect(forecast.data?.data.method).toBe('holt');
      expect(forecast.data?.data.basedOnWeeks).toBeGreaterThanOrEqual(10);
    }
    // Recommendations near Amsterdam start with a crop that can be sown now.
    const advice = await ada.GET('/api/demand/recommendations', {
      params: { query: { lat: 52.37, lon: 4.9, method: 'open-field' } },
    });
    expect(advice.data?.data[0]?.suitable).toBe(true);
  });

  it('made a farm with a harvested batch and a growing one with days of readings, and sane analytics', async () => {
    const batchId = grab(output, /batch (\w+) \(recipe/);
    const femke = createRootline({ baseUrl: rootline.url });
    await femke.signIn(grab(output, /(femke\+[0-9a-f]{6}@demo\.rootline\.example)/), PASSWORD);
    const batch = await femke.GET('/api/vertical-farm/batch/{batchId}', { params: { path: { batchId } } });
    expect(batch.data?.data).toMatchObject({ crop: 'lettuce', plantCount: 720, state: 'growing' });
    expect(batch.data?.data.readings.count).toBe(7 * 24);
    const readings = await femke.GET('/api/vertical-farm/batch/{batchId}/readings', {
      params: { path: { batchId }, query: { limit: 1000 } },
    });
    const times = readings.data?.data.readings.map((r) => Date.parse(r.at)) ?? [];
    expect((Math.max(...times) - Math.min(...times)) / 86_400_000).toBeGreaterThan(6.9);

    const farmId = batch.data?.data.farmId ?? '';
    const analytics = await femke.GET('/api/vertical-farm/farms/{farmId}/analytics', {
      params: { path: { farmId } },
    });
    const totals = analytics.data?.data.totals;
    expect(totals).toMatchObject({ harvested: 1, yieldKg: 182.4 });
    // 182.4 kg over the farm's 96 m² in the year; the crop over the 38.4 m² its 960 of 2,400 sites took for 38 days.
    expect(totals?.yieldPerM2PerYear).toBe(1.9);
    const lettuce = analytics.data?.data.byCrop.find((c) => c.crop === 'lettuce');
    expect(lettuce?.yieldPerM2PerYear).toBeCloseTo((182.4 * 365) / (38.4 * 38), 0);
    expect(totals?.readings).toBeGreaterThan(7 * 24);
  });

  it('runs again on the same instance with new accounts, and leaves the farm out without an ADMIN', async () => {
    const again = await demo(rootline.url);
    expect(again).toContain('Vertical farm left out');
    expect(again).toContain('Demand history left out');
    expect(again).toMatch(
      /Done in [\d.]+ s: 4 accounts, 8 plants, 3 photos, 4 journey events, 12 households in 2 regions, 3 listings, 5 offers\./,
    );
  }, 180_000);
});
