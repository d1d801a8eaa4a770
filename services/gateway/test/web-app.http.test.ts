import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBus, type TestBus, testGateway } from './support.js';

const INDEX = '<!doctype html><html><head><title>Rootline</title></head><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;
const MANIFEST = JSON.stringify({ name: 'Rootline', start_url: '/', display: 'standalone' });

describe('the web app at /', () => {
  let bus: TestBus;
  let app: FastifyInstance;
  let noApp: FastifyInstance;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rootline-web-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), SCRIPT);
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    writeFileSync(join(dir, 'sw.js'), "self.addEventListener('push', () => {});");
    writeFileSync(join(dir, 'manifest.webmanifest'), MANIFEST);
    bus = await startTestBus();
    app = await testGateway(bus, {
      WEB_APP_DIR: dir,
      MAP_TILE_URL: 'https://tiles.example.org/{z}/{x}/{y}.png',
      MAP_TILE_ATTRIBUTION: '© Example "tiles"',
    });
    noApp = await testGateway(bus, { WEB_APP_DIR: join(dir, 'missing') });
  });
  afterAll(async () => {
    await app?.close();
    await noApp?.close();
    await bus?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers / with index.html, carrying the map settings as meta tags, never cached', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).toContain(
      '<meta name="rootline:map-tile-url" content="https://tiles.example.org/{z}/{x}/{y}.png">',
    );
    expect(res.body).toContain('content="© Example &quot;tiles&quot;"');
  });

  it('answers any other page outside /api with the app, so deep links work', async () => {
    for (const url of ['/plants/plt_01HZX3K6Q2W8N4B7T5R9V0C1MD', '/signin?next=%2Fplants%2Fmine', '/no/such/page']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root"></div>');
    }
  });

  it('keeps unknown /api paths as JSON 404s, and other methods outside /api too', async () => {
    const api = await app.inject({ url: '/api/no/such/route' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ success: false, data: null, error: { code: 'NOT_FOUND' } });
    const post = await app.inject({ method: 'POST', url: '/plants/new', payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    // A known API path with the wrong method stays a 405.
    const wrong = await app.inject({ method: 'PUT', url: '/api/plants/register' });
    expect(wrong.statusCode).toBe(405);
  });

  it('serves hashed assets for a year, gzipped when asked, and 404 JSON for a missing one', async () => {
    const plain = await app.inject({ url: '/assets/index-abc123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.body).toBe(SCRIPT);
    const gz = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.length).toBeLessThan(SCRIPT.length / 10);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const missing = await app.inject({ url: '/assets/index-gone.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const icon = await app.inject({ url: '/favicon.svg' });
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('reads each file when first asked for and keeps it: one a rebuild removed before that is a JSON 404', async () => {
    // Listed at start, read by the first request: a file served once stays served after it is gone from disk.
    writeFileSync(join(dir, 'assets', 'late-def456.js'), SCRIPT);
    const gone = await testGateway(bus, { WEB_APP_DIR: dir });
    try {
      const first = await gone.inject({ url: '/assets/index-abc123.js' });
      expect(first.statusCode).toBe(200);
      rmSync(join(dir, 'assets', 'index-abc123.js'));
      rmSync(join(dir, 'assets', 'late-def456.js'));
      const again = await gone.inject({ url: '/assets/index-abc123.js' });
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(SCRIPT);
      const removed = await gone.inject({ url: '/assets/late-def456.js' });
      expect(removed.statusCode).toBe(404);
      expect(removed.json().error.code).toBe('NOT_FOUND');
    } finally {
      await gone.close();
      writeFileSync(join(dir, 'assets', 'index-abc123.js'), SCRIPT);
    }
  });

  it('serves the service worker at the root as JavaScript, never cached, so a new version is seen', async () => {
    const res = await app.inject({ url: '/sw.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain("addEventListener('push'");
  });

  it('serves the service worker as it is on disk now, so a new build is offered to open pages at once', async () => {
    const before = await app.inject({ url: '/sw.js' });
    try {
      writeFileSync(join(dir, 'sw.js'), "self.addEventListener('push', () => {}); // build 2");
      const after = await app.inject({ url: '/sw.js' });
      expect(after.statusCode).toBe(200);
      expect(after.body).not.toBe(before.body);
      expect(after.body).toContain('// build 2');
      expect(after.headers['cache-control']).toBe('no-cache');
    } finally {
      writeFileSync(join(dir, 'sw.js'), "self.addEventListener('push', () => {});");
    }
  });

  it('serves the web app manifest as application/manifest+json, cached for an hour', async () => {
    const res = await app.inject({ url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.json()).toMatchObject({ name: 'Rootline', display: 'standalone' });
  });

  it('leaves page loads out of the API rate limits', async () => {
    const res = await app.inject({ url: '/assets/index-abc123.js' });
    expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('serves nothing at / when no build is there: / is a JSON 404', async () => {
    const res = await noApp.inject({ url: '/' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });
});
