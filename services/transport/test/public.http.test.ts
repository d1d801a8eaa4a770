import { createServer } from 'node:net';
import { plantEpc } from '@rootline/domain';
import { plantInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTransportPlatform, type TestPlatform } from './support.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };
const LEIDEN = { latitude: 52.1601, longitude: 4.497, city: 'Leiden', country: 'NL' };
const HANDLER = { id: 'usr_grower', name: 'Ada Grower' };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

describe('QR codes and the public verification page, in headless Chromium', () => {
  let p: TestPlatform;
  let browser: Browser;
  let base: string;
  let grower: string;
  let plantId: string;
  let distributionId: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    p = await startTransportPlatform({ PUBLIC_URL: base });
    await p.app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    grower = await p.token('USER', HANDLER.id, HANDLER.name);
    const plant = await p.http('POST', '/api/plants/register', {
      token: grower,
      body: plantInput({
        commonName: 'Cherry tomato',
        owner: { id: 'usr_grower', name: 'Ada Grower' },
        location: { latitude: 52.37123, longitude: 4.90456, city: 'Amsterdam', country: 'NL' },
        privacyLevel: 'city',
      }),
    });
    plantId = plant.body.data.id;
    const post = (kind: string, body: object) => p.http('POST', `/api/transport/${kind}`, { token: grower, body });
    expect(
      (await post('planting', { plantId, eventTime: '2026-05-01T09:00:00+02:00', handler: HANDLER, to: AMSTERDAM }))
        .status,
    ).toBe(201);
    const d = await post('distribution', {
      plantId,
      eventTime: '2026-08-01T09:00:00+02:00',
      handler: HANDLER,
      from: AMSTERDAM,
      to: LEIDEN,
      transportMode: 'electric-van',
      massKg: 20,
      privacyLevel: 'city',
    });
    expect(d.status).toBe(201);
    distributionId = d.body.data.id;
  });
  afterAll(async () => {
    await browser?.close();
    await p?.stop();
  });

  it('answers the verification URL and its payload, and the code as PNG or SVG', async () => {
    const json = await p.http('GET', `/api/transport/qr/${plantId}`, { token: grower });
    expect(json.status).toBe(200);
    expect(json.body.data).toMatchObject({
      id: plantId,
      subject: 'plant',
      url: `${base}/api/transport/trace/${plantId}`,
      payload: plantEpc(plantId, base, '9520000'),
      format: 'json',
    });
    expect(json.body.data.payload).toMatch(new RegExp(`^${base}/8004/9520000[A-Za-z0-9_-]{22}$`));
    const png = await fetch(`${base}/api/transport/qr/${plantId}?format=png`, {
      headers: { authorization: `Bearer ${grower}` },
    });
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const svg = await p.http('GET', `/api/transport/qr/${plantId}?format=svg`, { token: grower });
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(String(svg.body)).toContain('<svg');
    expect((await p.http('GET', '/api/transport/qr/plt_0000000000000000', { token: grower })).status).toBe(404);
    expect((await p.http('GET', '/api/transport/qr/lot_unknown-lot', { token: grower })).status).toBe(404);
    expect((await p.http('GET', `/api/transport/qr/${plantId}?format=gif`, { token: grower })).status).toBe(400);
    expect((await p.http('GET', `/api/transport/qr/${plantId}`)).status).toBe(401);
  });

  it('renders the page a scan opens: plant, lineage, journey with distances and CO2e, and verdicts', async () => {
    const { url } = (await p.http('GET', `/api/transport/qr/${plantId}`, { token: grower })).body.data;
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    expect(await page.textContent('h1')).toBe('Cherry tomato');
    expect(await page.getAttribute('#overall', 'data-verdict')).toBe('valid');
    expect(await page.locator('li.event').count()).toBe(2);
    const journey = (await page.textContent('#journey')) ?? '';
    expect(journey).toContain('electric-van');
    expect(journey).toContain('kg CO2e');
    expect(await page.locator('#lineage').count()).toBe(1);
    expect(await page.locator('[data-verdict="valid"].verdict').count()).toBe(3);
    // Privacy: the plant and the events are at city level, so no exact point reaches the page.
    const body = (await page.textContent('body')) ?? '';
    expect(body).not.toContain('52.3712');
    expect(body).not.toContain('Ada Grower');
    await page.close();
  });

  it('shows a tampered block as invalid', async () => {
    const events = (await p.http('GET', `/api/transport/journey/${plantId}`, { token: grower })).body.data;
    const event = events.find((e: { id: string }) => e.id === distributionId);
    const check = (await p.http('GET', `/api/transport/verify/${event.blockHash}`, { token: grower })).body.data;
    const tx = check.transactions.find(
      (t: { transportEventId: string | null }) => t.transportEventId === distributionId,
    );
    await p.database.db.execute(
      sql`update chain.transactions set payload = replace(payload, 'electric-van', 'cargo-bike') where id = ${tx.id}`,
    );
    const page = await browser.newPage();
    await page.goto(`${base}/api/transport/trace/${plantId}`);
    expect(await page.getAttribute('#overall', 'data-verdict')).toBe('invalid');
    const item = page.locator(`li[data-event="${distributionId}"] .verdict`);
    expect(await item.getAttribute('data-verdict')).toBe('invalid');
    expect(await item.textContent()).toContain('payload-hash-mismatch');
    await page.close();
  });

  it('serves a seed lot’s page, and 404 for an unknown id', async () => {
    const saved = await p.http('POST', '/api/transport/seed-saving', {
      token: grower,
      body: {
        plantId,
        seedLotId: 'lot_cherry-1',
        eventTime: '2026-09-01T09:00:00+02:00',
        handler: HANDLER,
        to: AMSTERDAM,
      },
    });
    expect(saved.status).toBe(201);
    const lot = await fetch(`${base}/api/transport/trace/lot_cherry-1`);
    expect(lot.status).toBe(200);
    expect(lot.headers.get('content-type')).toContain('text/html');
    expect(await lot.text()).toContain('Seed lot lot_cherry-1');
    const res = await fetch(`${base}/api/transport/trace/lot_unknown-lot`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
  });
});
