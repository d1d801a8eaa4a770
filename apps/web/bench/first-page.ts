// Figures of the web app against a running Rootline: JavaScript sent for the first page (gzipped, as the gateway
// serves it) and the time from navigation to a usable plant page. Usage:
//   pnpm --filter @rootline/web bench [base URL, default http://localhost:3000]
import { chromium, type Response } from 'playwright-core';

const base = (process.argv[2] ?? 'http://localhost:3000').replace(/\/$/, '');
const RUNS = 5;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-sync'],
});

async function transferred(responses: Response[]): Promise<{ files: number; bytes: number }> {
  let bytes = 0;
  for (const r of responses) bytes += (await r.request().sizes()).responseBodySize;
  return { files: responses.length, bytes };
}

// 1. The first page: every script the start page loads, at their compressed size on the wire.
{
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts: Response[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') scripts.push(r);
  });
  await page.goto(`${base}/`, { waitUntil: 'networkidle' });
  const { files, bytes } = await transferred(scripts);
  console.log(`first page (/): ${files} JavaScript files, ${(bytes / 1024).toFixed(1)} KB gzipped`);
  await context.close();
}

// 2. A plant page: from navigation until its facts are on screen and each of its tabs has been opened once.
const email = `bench-${Date.now()}@example.org`;
const password = 'benchmark passphrase 1';
const json = { 'content-type': 'application/json' };
const user = await fetch(`${base}/api/auth/register`, {
  method: 'POST',
  headers: json,
  body: JSON.stringify({ email, password, name: 'Bench Grower' }),
}).then((r) => r.json() as Promise<{ data: { id: string } }>);
const token = await fetch(`${base}/api/auth/signin`, {
  method: 'POST',
  headers: json,
  body: JSON.stringify({ email, password }),
}).then((r) => r.json() as Promise<{ data: { token: string } }>);
const plant = await fetch(`${base}/api/plants/register`, {
  method: 'POST',
  headers: { ...json, authorization: `Bearer ${token.data.token}`, 'idempotency-key': crypto.randomUUID() },
  body: JSON.stringify({
    commonName: 'Bench tomato',
    location: { latitude: 52.37, longitude: 4.9, city: 'Amsterdam', country: 'NL' },
    owner: { id: user.data.id, name: 'Bench Grower' },
  }),
}).then((r) => r.json() as Promise<{ data: { id: string } }>);

const times: number[] = [];
for (let run = 0; run < RUNS; run++) {
  // A fresh context each run: no cached files, a cold page load after signing in.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/signin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'My plants' }).waitFor();
  await context.clearCookies({ name: 'never-set' });
  const page2 = await context.newPage();
  const started = performance.now();
  await page2.goto(`${base}/plants/${plant.data.id}`);
  await page2.getByRole('heading', { level: 1, name: 'Bench tomato' }).waitFor();
  // The page opens on its facts; each other section is one tab away.
  await page2.getByRole('heading', { name: 'Facts', exact: true }).waitFor();
  await page2.getByRole('tab', { name: 'Lineage' }).click();
  await page2.getByRole('region', { name: 'Lineage graph' }).locator('.react-flow__node').first().waitFor();
  await page2.getByRole('tab', { name: 'Journey' }).click();
  await page2.getByRole('heading', { name: 'Journey', exact: true }).waitFor();
  await page2.getByRole('tab', { name: 'Certificate' }).click();
  await page2.getByRole('button', { name: 'Verify in this browser' }).waitFor();
  times.push(performance.now() - started);
  await context.close();
}
times.sort((a, b) => a - b);
console.log(
  `plant page usable after navigation: median ${times[Math.floor(RUNS / 2)]!.toFixed(0)} ms ` +
    `(min ${times[0]!.toFixed(0)}, max ${times[RUNS - 1]!.toFixed(0)}, ${RUNS} cold loads, signed in)`,
);
await browser.close();
