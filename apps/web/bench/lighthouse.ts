// Lighthouse's performance and accessibility scores of four pages of the web app (landing, Discover, a plant, a
// listing), at phone and laptop settings, against a private Rootline (NATS, PostgreSQL) started here, with the
// local Chromium; nothing is fetched from outside. Writes its section of docs/benchmarks.md. Usage:
//   pnpm --filter @rootline/web bench:lighthouse
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestPlatform } from '@rootline/gateway/testing';
import { SERVICES } from '@rootline/scripts/services';
import { freePort, signInOverHttp, TEST_ADMIN, TEST_ADMIN_ENV } from '@rootline/testing';
import lighthouse, { type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const BENCHMARKS = join(ROOT, 'docs', 'benchmarks.md');
const START = '<!-- bench:web-lighthouse:start -->';
const END = '<!-- bench:web-lighthouse:end -->';
/** Each page is scored this many times (`LIGHTHOUSE_RUNS`, default 3); the median is kept, as Lighthouse advises. */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);

execFileSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@rootline/web', '--output-logs=errors-only'], {
  cwd: ROOT,
  stdio: 'inherit',
});

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
});
await platform.app.listen({ port, host: '127.0.0.1' });

async function post(token: string, path: string, body: unknown): Promise<{ id: string; user?: unknown }> {
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

const PAGES: [string, string][] = [
  ['landing', '/'],
  ['Discover', '/discover'],
  ['a plant', `/plants/${plant.id}`],
  ['a listing', `/market/listings/${listing.id}`],
];
const debugPort = await freePort();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', `--remote-debugging-port=${debugPort}`],
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: string[] = [];
try {
  for (const [setting, config] of [
    ['phone', undefined],
    ['laptop', desktopConfig],
  ] as const) {
    for (const [name, path] of PAGES) {
      const perf: number[] = [];
      const a11y: number[] = [];
      let lcp = 0;
      for (let run = 0; run < RUNS; run++) {
        const flags: Flags = {
          port: debugPort,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
        };
        const result = await lighthouse(`${base}${path}`, flags, config);
        const lhr = result!.lhr;
        perf.push(Math.round((lhr.categories.performance?.score ?? 0) * 100));
        a11y.push(Math.round((lhr.categories.accessibility?.score ?? 0) * 100));
        lcp += (lhr.audits['largest-contentful-paint']?.numericValue ?? 0) / RUNS;
      }
      const row = `| ${setting} | ${name} | ${median(perf)} | ${median(a11y)} | ${(lcp / 1000).toFixed(2)} s |`;
      console.log(row);
      rows.push(row);
    }
  }
} finally {
  await browser.close();
  await platform.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const section = [
  START,
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model.trim()}, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, Chromium headless, Lighthouse 12 ` +
    `(phone: its default mobile emulation and simulated slow 4G; laptop: its desktop preset), median of ${RUNS} runs.`,
  '',
  '| setting | page | performance | accessibility | largest contentful paint (mean) |',
  '| ------- | ---- | ----------- | ------------- | ------------------------------- |',
  ...rows,
  '',
  END,
].join('\n');
const doc = readFileSync(BENCHMARKS, 'utf8');
const at = doc.indexOf(START);
writeFileSync(
  BENCHMARKS,
  at >= 0 ? doc.slice(0, at) + section + doc.slice(doc.indexOf(END) + END.length) : `${doc.trimEnd()}\n\n${section}\n`,
);
