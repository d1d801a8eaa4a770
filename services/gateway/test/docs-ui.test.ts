import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBus, type TestBus, testGateway } from './support.js';

let bus: TestBus;
let app: FastifyInstance;

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
});
afterAll(async () => {
  await app?.close();
  await bus?.close();
});

/** The address of every asset an HTML page links (`href` and `src`), resolved against the page's address. */
function linkedAssets(html: string, page: string): string[] {
  const base = new URL(page, 'http://gateway.test');
  return [...html.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => new URL(m[1] as string, base).pathname);
}

const CONTENT_TYPE: Record<string, RegExp> = {
  '.css': /^text\/css/,
  '.js': /^(application|text)\/javascript/,
  '.png': /^image\/png/,
  '.html': /^text\/html/,
};

async function expectServed(path: string) {
  const res = await app.inject({ url: path });
  expect(res.statusCode, path).toBe(200);
  const ext = path.slice(path.lastIndexOf('.'));
  const type = CONTENT_TYPE[ext];
  if (type) expect(res.headers['content-type'], path).toMatch(type);
  return res;
}

describe('Swagger UI at /api/docs (was a blank page: assets linked under /docs/static)', () => {
  // The address the README gives has no trailing slash: its assets used to resolve to /docs/static/… and 404.
  it.each(['/api/docs', '/api/docs/'])('at %s loads every asset the page references', async (page) => {
    const res = await app.inject({ url: page });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const assets = linkedAssets(res.body, page);
    expect(assets.length).toBeGreaterThanOrEqual(6);
    for (const asset of assets) expect(asset.startsWith('/api/docs/static/'), asset).toBe(true);
    for (const asset of assets) await expectServed(asset);
  });

  it('loads the document and the OAuth redirect page the initializer script points to', async () => {
    const script = (await expectServed('/api/docs/static/swagger-initializer.js')).body;
    // The script resolves these against the page address with a trailing slash added.
    const relative = [...script.matchAll(/resolveUrl\('(\.\/[^']+)'\)/g)].map((m) => m[1] as string);
    expect(relative).toEqual(['./json', './static/oauth2-redirect.html']);
    for (const rel of relative) {
      const res = await expectServed(new URL(rel, 'http://gateway.test/api/docs/').pathname);
      if (rel === './json') expect(res.json().openapi).toMatch(/^3\./);
    }
  });

  it('is titled with Rootline’s name, and its header shows Rootline’s logo instead of Swagger’s', async () => {
    const page = await app.inject({ url: '/api/docs' });
    expect(page.body).toMatch(/<title>Rootline API<\/title>/);
    expect(page.body).not.toMatch(/<title>Swagger UI<\/title>/);
    const script = (await expectServed('/api/docs/static/swagger-initializer.js')).body;
    const logo = /img\.src = 'data:image\/svg\+xml;base64,([^']+)'/.exec(script)?.[1];
    expect(logo).toBeDefined();
    expect(Buffer.from(logo as string, 'base64').toString('utf8')).toContain('Rootline');
  });
});
