// A private Rootline for the web app's Lighthouse benchmarks: NATS and a fresh PostgreSQL database, every service in
// one process (as the browser tests start it), serving a build of the app, with a plant, its offspring and a listing.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestPlatform } from '@rootline/gateway/testing';
import { SERVICES } from '@rootline/scripts/services';
import { freePort, signInOverHttp, TEST_ADMIN, TEST_ADMIN_ENV } from '@rootline/testing';

export interface BenchRootline {
  /** Where it listens, e.g. http://127.0.0.1:41234. */
  base: string;
  /** The pages scored, by name: landing, Discover, a plant, a listing. */
  pages: [string, string][];
  stop(): Promise<void>;
}

/** Starts Rootline serving the app built in `webAppDir` (unset: apps/web/dist) and adds the pages' records. */
export async function startBenchRootline(webAppDir?: string): Promise<BenchRootline> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'rootline-lighthouse-'));
  const platform = await startTestPlatform(SERVICES, {
    ...TEST_ADMIN_ENV,
    CHAIN_DIFFICULTY: '8',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    PUBLIC_URL: base,
    STORAGE_DIR: join(dataDir, 'media'),
    STORAGE_SIGNING_SECRET: randomBytes(32).toString('hex'),
    STORAGE_PUBLIC_URL: base,
    ...(webAppDir ? { WEB_APP_DIR: webAppDir } : {}),
  });
  await platform.app.listen({ port, host: '127.0.0.1' });

  async function post(token: string, path: string, body: unknown): Promise<{ id: string }> {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { data: { id: string } };
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  }

  const token = await signInOverHttp(base, TEST_ADMIN.email, TEST_ADMIN.password);
  const session = (await (
    await fetch(`${base}/api/auth/session`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as {
    data: { user: { id: string; name: string } };
  };
  const owner = { id: session.data.user.id, name: session.data.user.name };
  const place = { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' };
  const plant = await post(token, '/api/plants/register', { commonName: 'Bench pear', location: place, owner });
  await post(token, '/api/plants/clone', {
    parentPlantId: plant.id,
    propagationType: 'seed',
    newPlant: { location: place, owner },
  });
  const listing = await post(token, '/api/marketplace/listings', {
    title: 'Pear seedlings',
    description: 'Grafted last spring.',
    category: 'seedlings',
    price: 450,
    currency: 'EUR',
    quantity: 4,
    location: place,
    privacyLevel: 'city',
    plantId: plant.id,
  });

  return {
    base,
    pages: [
      ['landing', '/'],
      ['Discover', '/discover'],
      ['a plant', `/plants/${plant.id}`],
      ['a listing', `/market/listings/${listing.id}`],
    ],
    async stop() {
      await platform.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
