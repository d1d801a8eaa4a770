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
    for (const part of ['Accounts', 'Plants and their lineage', 'A journey', 'A vertical farm', 'Marketplace']) {
      expect(output).toContain(part);
    }
    expect(output).toMatch(/Done in [\d.]+ s: 5 accounts, 8 plants, 4 journey events, 1 farm, 3 listings, 3 offers\./);
    expect(output).toMatch(/femke\+[0-9a-f]{6}@demo\.rootline\.example {2}Femke Jansen \(FARM_MANAGER\)/);
  });

  it('made plants with lineage, a journey, a farm batch with readings, and an accepted offer', async () => {
    const email = grab(output, /(ada\+[0-9a-f]{6}@demo\.rootline\.example)/);
    const ada = createRootline({ baseUrl: rootline.url });
    await ada.signIn(email, PASSWORD);

    const grandchild = grab(output, /seedling (plt_\w+)\)/);
    const tomato = grab(output, /(plt_\w+) \(tomato\)/);
    const lineage = await ada.GET('/api/plants/lineage/{plantId}', { params: { path: { plantId: grandchild } } });
    expect(lineage.data?.data.ancestors.map((a) => a.id)).toContain(tomato);

    const journey = await ada.GET('/api/transport/journey/{plantId}', { params: { path: { plantId: tomato } } });
    expect(journey.data?.data.map((e) => e.kind)).toEqual(['seed-acquisition', 'planting', 'harvest', 'distribution']);

    const batchId = grab(output, /batch (\w+) \(recipe/);
    const femke = createRootline({ baseUrl: rootline.url });
    await femke.signIn(grab(output, /(femke\+[0-9a-f]{6}@demo\.rootline\.example)/), PASSWORD);
    const batch = await femke.GET('/api/vertical-farm/batch/{batchId}', { params: { path: { batchId } } });
    expect(batch.data?.data).toMatchObject({ crop: 'lettuce', plantCount: 720 });
    expect(batch.data?.data.readings).toMatchObject({ count: 24 });

    // The buyer sees their own offer on the listing, accepted by the seller.
    const accepted = grab(output, /(ofr_\w+) accepted/);
    const listingId = grab(output, /3 listings \((\w+) and others\)/);
    const offers = await ada.GET('/api/marketplace/listings/{listingId}/offers', { params: { path: { listingId } } });
    expect(offers.data?.data.map((o) => [o.id, o.status])).toEqual([[accepted, 'accepted']]);
  });

  it('runs again on the same instance with new accounts, and leaves the farm out without an ADMIN', async () => {
    const again = await demo(rootline.url);
    expect(again).toContain('Vertical farm left out');
    expect(again).toMatch(/Done in [\d.]+ s: 4 accounts, 8 plants, 4 journey events, 3 listings, 3 offers\./);
  }, 180_000);
});
