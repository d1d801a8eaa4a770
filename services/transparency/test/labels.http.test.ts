import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { service as chainMiner } from '@rootline/chain-miner';
import { plantEpc } from '@rootline/domain';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { plantInput } from '@rootline/testing';
import jsQRModule from 'jsqr';
import { PDFParse } from 'pdf-parse';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

const run = promisify(execFile);
// jsqr is CommonJS with an ES default export in its types: the function is on `default` under NodeNext.
const jsQR = (jsQRModule as unknown as { default: typeof jsQRModule.default }).default;
const DPI = 150;
const px = (pt: number) => Math.round((pt * DPI) / 72);
const MM = 72 / 25.4;

// The sheets as docs/transparency.md describes them, in points: first label's corner, label size, pitch, grid.
const GRIDS = {
  'a4-3x8': { columns: 3, rows: 8, left: 0, top: 0, w: 70 * MM, h: 37.125 * MM, px: 70 * MM, py: 37.125 * MM },
  'letter-3x10': { columns: 3, rows: 10, left: 13.5, top: 36, w: 189, h: 72, px: 198, py: 72 },
  'seed-packet': { columns: 2, rows: 4, left: 0, top: 0, w: 105 * MM, h: 74.25 * MM, px: 105 * MM, py: 74.25 * MM },
} as const;
type Layout = keyof typeof GRIDS;

/** Renders the PDF with pdftoppm and decodes the QR code of every label position: one array of texts per page. */
async function decodeSheet(pdf: Buffer, layout: Layout): Promise<(string | null)[][]> {
  const dir = await mkdtemp(join(tmpdir(), 'labels-'));
  try {
    await writeFile(join(dir, 'labels.pdf'), pdf);
    await run('pdftoppm', ['-r', String(DPI), '-png', join(dir, 'labels.pdf'), join(dir, 'page')]);
    const pages = (await readdir(dir)).filter((f) => f.endsWith('.png')).sort();
    const g = GRIDS[layout];
    const out: (string | null)[][] = [];
    for (const page of pages) {
      const codes: (string | null)[] = [];
      for (let cell = 0; cell < g.columns * g.rows; cell++) {
        const left = px(g.left + (cell % g.columns) * g.px);
        const top = px(g.top + Math.floor(cell / g.columns) * g.py);
        const { data, info } = await sharp(join(dir, page))
          .extract({ left, top, width: px(g.w) - 1, height: px(g.h) - 1 })
          .ensureAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true });
        const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
        codes.push(code?.data ?? null);
      }
      out.push(codes);
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('plant labels over HTTP (NATS + PostgreSQL)', () => {
  let p: TestPlatform;
  const ids: string[] = [];
  let hiddenId = '';
  const page = (id: string) => plantEpc(id, 'https://rootline.example', '9520000');
  const labels = (body: object, headers: Record<string, string> = {}) =>
    p.app.inject({ method: 'POST', url: '/api/transparency/labels', payload: body, headers });

  beforeAll(async () => {
    p = await startTestPlatform([chainMiner, plants, transparency], {
      CHAIN_DIFFICULTY: '8',
      PUBLIC_URL: 'https://rootline.example',
    });
    const grower = await p.token('USER', 'usr_grower', 'Ada Grower');
    for (let i = 0; i < 31; i++) {
      const res = await p.http('POST', '/api/plants/register', {
        token: grower,
        body: plantInput({
          commonName: `Tomato ${i + 1}`,
          owner: { id: 'usr_grower', name: 'Ada Grower' },
          ...(i === 0
            ? { privacyLevel: 'hidden', location: { latitude: 52.1, longitude: 5.1, city: 'Secretville' } }
            : {}),
        }),
      });
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
    hiddenId = ids[0] as string;
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('prints 24 labels an A4 page and continues on a second, each QR opening its plant’s page', async () => {
    const chosen = ids.slice(0, 25);
    const res = await labels({ plantIds: chosen, layout: 'a4-3x8' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('attachment');
    expect(res.headers['x-label-pages']).toBe('2');
    const pages = await decodeSheet(res.rawPayload, 'a4-3x8');
    expect(pages).toHaveLength(2);
    expect(pages[0]?.filter(Boolean)).toHaveLength(24);
    expect(pages[1]?.filter(Boolean)).toHaveLength(1);
    expect(pages.flat().filter(Boolean)).toEqual(chosen.map(page));
    // The text: name, date and short id; a hidden plant's location never.
    const text = (await new PDFParse({ data: new Uint8Array(res.rawPayload) }).getText()).text;
    expect(text).toContain('Tomato 1');
    expect(text).toContain(hiddenId.slice(-8).toUpperCase());
    expect(text).toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(text).not.toContain('Secretville');
    expect(text).not.toContain('Amsterdam');
  });

  it('prints 30 labels a US Letter page, and a second page for the 31st', async () => {
    const res = await labels({ plantIds: ids, layout: 'letter-3x10' });
    expect(res.statusCode).toBe(200);
    const pages = await decodeSheet(res.rawPayload, 'letter-3x10');
    expect(pages.map((codes) => codes.filter(Boolean).length)).toEqual([30, 1]);
    expect(pages.flat().filter(Boolean)).toEqual(ids.map(page));
  });

  it('starts at a chosen position on a used sheet', async () => {
    const chosen = ids.slice(0, 3);
    const res = await labels({ plantIds: chosen, layout: 'a4-3x8', startAt: 23 });
    expect(res.statusCode).toBe(200);
    const pages = await decodeSheet(res.rawPayload, 'a4-3x8');
    expect(pages[0]?.slice(0, 22).every((c) => c === null)).toBe(true);
    expect(pages[0]?.slice(22)).toEqual(chosen.slice(0, 2).map(page));
    expect(pages[1]?.[0]).toBe(page(chosen[2] as string));
  });

  it('prints seed-packet labels: crop, variety, the plant saved from, harvest date', async () => {
    const chosen = ids.slice(0, 9);
    const res = await labels({ plantIds: chosen, layout: 'seed-packet', harvestedOn: '2026-09' });
    expect(res.statusCode).toBe(200);
    const pages = await decodeSheet(res.rawPayload, 'seed-packet');
    expect(pages.map((codes) => codes.filter(Boolean).length)).toEqual([8, 1]);
    expect(pages.flat().filter(Boolean)).toEqual(chosen.map(page));
    const text = (await new PDFParse({ data: new Uint8Array(res.rawPayload) }).getText()).text;
    expect(text).toContain('Solanum lycopersicum');
    expect(text).toContain('Harvested: 2026-09');
    expect(text).toContain('Saved from: Tomato 1');
    expect(text).toContain(`Plant #${hiddenId.slice(-8).toUpperCase()}`);
    expect(text).not.toContain('Secretville');
  });

  it('prints names beyond Latin-1 as written: Polish, German, Spanish, Greek and Cyrillic', async () => {
    const grower = await p.token('USER', 'usr_grower', 'Ada Grower');
    const names = [
      { commonName: 'Żółta fasola', scientificName: 'Phaseolus vulgaris' },
      { commonName: 'Kürbis', scientificName: 'Cucurbita pepo' },
      { commonName: 'Ñora', scientificName: 'Capsicum annuum' },
      { commonName: 'Ντομάτα', scientificName: 'Solanum lycopersicum' },
      { commonName: 'Огурец', scientificName: 'Cucumis sativus' },
    ];
    const chosen: string[] = [];
    for (const name of names) {
      const res = await p.http('POST', '/api/plants/register', {
        token: grower,
        body: plantInput({ ...name, owner: { id: 'usr_grower', name: 'Ada Grower' } }),
      });
      expect(res.status).toBe(201);
      chosen.push(res.body.data.id);
    }
    for (const layout of ['a4-3x8', 'seed-packet'] as const) {
      const res = await labels({ plantIds: chosen, layout, harvestedOn: '2026-08' });
      expect(res.statusCode).toBe(200);
      expect((await decodeSheet(res.rawPayload, layout)).flat().filter(Boolean)).toEqual(chosen.map(page));
      // pdftotext reads the glyphs back through the embedded font's Unicode map: each letter printed as written.
      const dir = await mkdtemp(join(tmpdir(), 'labels-text-'));
      try {
        await writeFile(join(dir, 'labels.pdf'), res.rawPayload);
        const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', join(dir, 'labels.pdf'), '-']);
        for (const { commonName } of names) expect(stdout, layout).toContain(commonName);
        if (layout === 'seed-packet') expect(stdout).toContain('Saved from: Żółta fasola');
        // The fonts are embedded subsets of DejaVu, not the standard fonts that know only Latin-1.
        const fonts = (await run('pdffonts', [join(dir, 'labels.pdf')])).stdout;
        expect(fonts).toMatch(/DejaVuSans-Bold/);
        expect(fonts).not.toMatch(/Helvetica|Courier/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    // A seed packet's own words in the language asked for.
    const dutch = await labels({
      plantIds: chosen.slice(0, 1),
      layout: 'seed-packet',
      harvestedOn: '2026-08',
      language: 'nl',
    });
    expect(dutch.statusCode).toBe(200);
    const text = (await new PDFParse({ data: new Uint8Array(dutch.rawPayload) }).getText()).text;
    expect(text).toContain('Zaden');
    expect(text).toContain('Gewonnen van: Żółta fasola');
    expect(text).toContain('Geoogst: 2026-08');
    expect(text).not.toContain('Harvested');
    const unknown = await labels({ plantIds: chosen.slice(0, 1), layout: 'seed-packet', language: 'xx' });
    expect(unknown.statusCode).toBe(400);
    expect(JSON.parse(unknown.payload).error.code).toBe('VALIDATION_ERROR');
  });

  it('is open to visitors, a bad credential included', async () => {
    const res = await labels({ plantIds: [hiddenId], layout: 'a4-3x8' }, { authorization: 'Bearer not-a-token' });
    expect(res.statusCode).toBe(200);
    expect((await decodeSheet(res.rawPayload, 'a4-3x8'))[0]?.[0]).toBe(page(hiddenId));
  });

  it('refuses bad requests with clear 400s and unknown plants with 404, in the envelope', async () => {
    const cases: [object, string][] = [
      [{ plantIds: [], layout: 'a4-3x8' }, 'plantIds'],
      [{ plantIds: [hiddenId, hiddenId], layout: 'a4-3x8' }, 'plantIds'],
      [{ plantIds: [hiddenId], layout: 'a5' }, 'layout'],
      [{ plantIds: Array.from({ length: 241 }, () => hiddenId), layout: 'a4-3x8' }, 'plantIds'],
      [{ plantIds: [hiddenId], layout: 'a4-3x8', startAt: 25 }, 'startAt'],
      [{ plantIds: [hiddenId], layout: 'seed-packet', harvestedOn: 'last spring' }, 'harvestedOn'],
    ];
    for (const [body, field] of cases) {
      const res = await labels(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      const json = res.json();
      expect(json).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
      expect(JSON.stringify(json.error)).toContain(field);
    }
    const missing = await labels({ plantIds: ['plt_01HZX3K6Q2W8N4B7T5R9V0C1MZ'], layout: 'a4-3x8' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });
});
