import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plantInput } from '@rootline/testing';
import exifr from 'exifr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, photo } from './fixtures.js';
import { type MediaPlatform, startMediaPlatform } from './support.js';

// A local server answering as the Pl@ntNet identification API documents it (POST /v2/identify/{project}?api-key=…
// with multipart `images` and `organs`; 200 with ranked `results`, 404 "Species not found"). What it received is
// kept, so the tests check the request itself: path, key, fields, and that the photos carry no metadata.
interface Received {
  url: URL;
  headers: IncomingHttpHeaders;
  organs: string[];
  images: Buffer[];
}

const RESULTS = {
  query: { project: 'all' },
  language: 'en',
  preferedReferential: 'k-world-flora',
  bestMatch: 'Solanum lycopersicum L.',
  results: [
    {
      score: 0.12,
      species: {
        scientificNameWithoutAuthor: 'Solanum pimpinellifolium',
        scientificNameAuthorship: 'L.',
        genus: { scientificNameWithoutAuthor: 'Solanum' },
        family: { scientificNameWithoutAuthor: 'Solanaceae' },
        commonNames: ['Currant tomato'],
        scientificName: 'Solanum pimpinellifolium L.',
      },
      gbif: { id: '2930134' },
      powo: { id: '817025-1' },
    },
    {
      score: 0.83,
      species: {
        scientificNameWithoutAuthor: 'Solanum lycopersicum',
        scientificNameAuthorship: 'L.',
        genus: { scientificNameWithoutAuthor: 'Solanum' },
        family: { scientificNameWithoutAuthor: 'Solanaceae' },
        commonNames: ['Tomato', 'Garden tomato'],
        scientificName: 'Solanum lycopersicum L.',
      },
      gbif: { id: '2930137' },
      powo: { id: '316947-2' },
    },
  ],
  version: '2025-01-17 (7.3)',
  remainingIdentificationRequests: 498,
};

describe('plant identification over HTTP against a Pl@ntNet-speaking server', () => {
  let dataDir: string;
  let p: MediaPlatform;
  let server: Server;
  let answer: 'ok' | 'not-found' | 'fail' = 'ok';
  const received: Received[] = [];
  let owner: string;
  let other: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks);
        const parsed = await new Response(body, {
          headers: { 'content-type': req.headers['content-type'] ?? '' },
        }).formData();
        received.push({
          url: new URL(req.url ?? '/', 'http://plantnet.test'),
          headers: req.headers,
          organs: parsed.getAll('organs').map(String),
          images: await Promise.all(
            parsed.getAll('images').map(async (f) => Buffer.from(await (f as Blob).arrayBuffer())),
          ),
        });
        if (answer === 'fail') return void res.writeHead(500).end('{"message":"Internal error"}');
        if (answer === 'not-found') {
          return void res
            .writeHead(404, { 'content-type': 'application/json' })
            .end('{"statusCode":404,"error":"Not Found","message":"Species not found"}');
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(RESULTS));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    dataDir = await mkdtemp(join(tmpdir(), 'rootline-identify-'));
    p = await startMediaPlatform({
      STORAGE_DRIVER: 'local',
      DATA_DIR: dataDir,
      STORAGE_SIGNING_SECRET: 'identify-test-signing-secret-0123456789',
      PLANT_ID_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      PLANT_ID_API_KEY: 'test-key-2b10',
    });
    owner = await p.token('USER', 'usr_owner');
    other = await p.token('USER', 'usr_other');
  });
  afterAll(async () => {
    await p?.stop();
    await new Promise<void>((r) => server?.close(() => r()));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const post = async (url: string, token: string, payload: unknown) => {
    const res = await p.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}` },
      payload: payload as object,
    });
    return { status: res.statusCode, body: res.json() };
  };

  const uploadPhoto = async () => {
    const body = await form({ category: 'plant-photo' }, { data: await photo(), name: 'p.jpg', type: 'image/jpeg' });
    const res = await p.inject({
      method: 'POST',
      url: '/api/upload/image',
      headers: { ...body.headers, authorization: `Bearer ${owner}` },
      payload: body.payload,
    });
    return res.json().data.id as string;
  };

  const multipart = async (photos: Buffer[], organs: string[]) => {
    const fd = new FormData();
    for (const ph of photos) fd.append('images', new Blob([new Uint8Array(ph)], { type: 'image/jpeg' }), 'leaf.jpg');
    for (const o of organs) fd.append('organs', o);
    const r = new Response(fd);
    const res = await p.inject({
      method: 'POST',
      url: '/api/plants/identify/photos',
      headers: { 'content-type': r.headers.get('content-type') ?? '', authorization: `Bearer ${owner}` },
      payload: Buffer.from(await r.arrayBuffer()),
    });
    return { status: res.statusCode, body: res.json() };
  };

  let identificationId: string;

  it('identifies uploaded photos: ranked candidates, the request as the API documents it, no metadata sent', async () => {
    expect(await exifr.gps(await photo())).toMatchObject({ latitude: expect.any(Number) });
    const fileId = await uploadPhoto();
    const before = received.length;
    const res = await post('/api/plants/identify', owner, { photos: [{ fileId, organ: 'leaf' }] });
    expect(res.status).toBe(201);
    expect(res.body.data.candidates.map((c: { scientificName: string }) => c.scientificName)).toEqual([
      'Solanum lycopersicum',
      'Solanum pimpinellifolium',
    ]);
    expect(res.body.data.candidates[0]).toEqual({
      scientificName: 'Solanum lycopersicum',
      author: 'L.',
      genus: 'Solanum',
      family: 'Solanaceae',
      commonNames: ['Tomato', 'Garden tomato'],
      score: 0.83,
      gbifId: '2930137',
      powoId: '316947-2',
    });
    expect(res.body.data.id).toMatch(/^pid_/);
    identificationId = res.body.data.id;

    const sent = received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url.pathname).toBe('/v2/identify/all');
    expect(sent[0]!.url.searchParams.get('api-key')).toBe('test-key-2b10');
    expect(sent[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent[0]!.organs).toEqual(['leaf']);
    expect(sent[0]!.images).toHaveLength(1);
    expect(sent[0]!.images[0]!.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(await exifr.parse(sent[0]!.images[0]!)).toBeUndefined();
  });

  it('identifies photos sent in the request, strips their EXIF and GPS, and keeps none of them', async () => {
    const before = received.length;
    const res = await multipart([await photo(), await photo(320, 240)], ['flower', 'habit']);
    expect(res.status).toBe(201);
    expect(res.body.data.organs).toEqual(['flower', 'habit']);
    const sent = received[before]!;
    expect(sent.organs).toEqual(['flower', 'habit']);
    expect(sent.images).toHaveLength(2);
    for (const img of sent.images) {
      expect(await exifr.parse(img)).toBeUndefined();
      expect(await exifr.gps(img)).toBeUndefined();
    }
    expect((await p.storage.list('pending/')).length).toBe(0);
  });

  it('refuses photos without one organ each, and more than five', async () => {
    const one = await photo(64, 64);
    expect((await multipart([one, one], ['leaf'])).status).toBe(400);
    expect((await multipart([one], ['root'])).status).toBe(400);
    const six = Array.from({ length: 6 }, () => ({ fileId: 'fil_01HZX3K6Q2W8N4B7T5R9V0C1MD', organ: 'leaf' }));
    expect((await post('/api/plants/identify', owner, { photos: six })).status).toBe(400);
  });

  it('answers no candidate when the provider finds no species, and 503 when it fails', async () => {
    const fileId = await uploadPhoto();
    answer = 'not-found';
    try {
      const none = await post('/api/plants/identify', owner, { photos: [{ fileId, organ: 'fruit' }] });
      expect(none.status).toBe(201);
      expect(none.body.data.candidates).toEqual([]);
      answer = 'fail';
      const failed = await post('/api/plants/identify', owner, { photos: [{ fileId, organ: 'fruit' }] });
      expect(failed.status).toBe(503);
      expect(failed.body).toMatchObject({ success: false, data: null, error: { code: 'UNAVAILABLE' } });
    } finally {
      answer = 'ok';
    }
  });

  it("refuses another user's photo as a file that does not exist to them", async () => {
    const fileId = await uploadPhoto();
    const res = await post('/api/plants/identify', other, { photos: [{ fileId, organ: 'leaf' }] });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(received.at(-1)?.organs).not.toEqual(['bark']);
  });

  it('accepts a candidate onto the plant with its source; refuses a non-candidate and another’s identification', async () => {
    const created = await post(
      '/api/plants/register',
      owner,
      plantInput({ commonName: 'Tomato', owner: { id: 'usr_owner' } }),
    );
    expect(created.status).toBe(201);
    const plantId = created.body.data.id;
    const accepted = await post(`/api/plants/species/${plantId}`, owner, {
      identificationId,
      scientificName: 'Solanum lycopersicum',
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({
      scientificName: 'Solanum lycopersicum',
      scientificNameSource: {
        source: 'identification',
        identificationId,
        score: 0.83,
        author: 'L.',
        family: 'Solanaceae',
        provider: expect.stringMatching(/^127\.0\.0\.1:/),
      },
    });
    const bad = await post(`/api/plants/species/${plantId}`, owner, {
      identificationId,
      scientificName: 'Quercus robur',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.candidates).toContain('Solanum lycopersicum');
    // The former path (`/api/plants/{plantId}/species`, ambiguous beside `/api/plants/lineage/{plantId}`) still
    // answers as the operation does.
    const former = await post(`/api/plants/${plantId}/species`, owner, {
      identificationId,
      scientificName: 'Solanum lycopersicum',
    });
    expect(former.status).toBe(200);
    expect(former.body.data.scientificNameSource).toMatchObject({ identificationId });
    const formerBad = await post(`/api/plants/${plantId}/species`, owner, {
      identificationId,
      scientificName: 'Quercus robur',
    });
    expect(formerBad.status).toBe(400);

    const theirs = await post(
      '/api/plants/register',
      other,
      plantInput({ commonName: 'Tomato', owner: { id: 'usr_other' } }),
    );
    const notTheirs = await post(`/api/plants/species/${theirs.body.data.id}`, other, {
      identificationId,
      scientificName: 'Solanum lycopersicum',
    });
    expect(notTheirs.status).toBe(404);
  });
});

describe('plant identification without a provider', () => {
  let dataDir: string;
  let p: MediaPlatform;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rootline-identify-none-'));
    p = await startMediaPlatform({
      STORAGE_DRIVER: 'local',
      DATA_DIR: dataDir,
      STORAGE_SIGNING_SECRET: 'identify-test-signing-secret-0123456789',
    });
  });
  afterAll(async () => {
    await p?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 UNAVAILABLE with reason not-configured, never a 500', async () => {
    const token = await p.token('USER', 'usr_owner');
    const res = await p.inject({
      method: 'POST',
      url: '/api/plants/identify',
      headers: { authorization: `Bearer ${token}` },
      payload: { photos: [{ fileId: 'fil_01HZX3K6Q2W8N4B7T5R9V0C1MD', organ: 'leaf' }] },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      success: false,
      error: { code: 'UNAVAILABLE', details: { reason: 'not-configured' } },
    });
  });
});
