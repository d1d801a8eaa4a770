import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signGrant } from '@rootline/storage';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carriesLocation, form, pdf, photo, png } from './fixtures.js';
import { HOSTILE_FILES } from './hostile.js';
import { type MediaPlatform, startMediaPlatform } from './support.js';

const SECRET = 'local-signing-secret-for-the-tests-0123456789';

/** Local storage under DATA_DIR (embedded mode): signed, expiring URLs served and verified by the gateway. */
describe('uploads with local storage and signed URLs', () => {
  let dataDir: string;
  let p: MediaPlatform;
  let owner: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rootline-data-'));
    p = await startMediaPlatform({
      STORAGE_DRIVER: 'local',
      DATA_DIR: dataDir,
      STORAGE_SIGNING_SECRET: SECRET,
      TRUSTED_PROXIES: '127.0.0.1',
    });
    owner = await p.token('USER', 'usr_owner');
  });
  afterAll(async () => {
    await p?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const upload = async (data: Buffer, name: string, type: string, kind = 'image') => {
    const body = await form({ category: 'plant-photo' }, { data, name, type });
    const res = await p.inject({
      method: 'POST',
      url: `/api/upload/${kind}`,
      headers: { ...body.headers, authorization: `Bearer ${owner}` },
      payload: body.payload,
    });
    return { status: res.statusCode, body: res.json() };
  };

  it('stores under DATA_DIR/media and serves each copy at a signed URL', async () => {
    const res = await upload(await photo(), 'p.jpg', 'image/jpeg');
    expect(res.status).toBe(201);
    const f = res.body.data;
    expect(existsSync(join(dataDir, 'media', 'files', f.id, 'thumb-150.webp'))).toBe(true);
    const url = new URL(f.urls.thumbnails['150'], 'http://api.test');
    expect(url.pathname).toBe(`/api/upload/local/files/${f.id}/thumb-150.webp`);
    expect(url.searchParams.get('sig')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const got = await p.inject({ method: 'GET', url: f.urls.thumbnails['150'] });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/webp');
    expect(await sharp(got.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 150, height: 150 });
    // The photo's GPS and XMP location leave with no copy served by the local signed URLs.
    for (const u of [f.urls.original, ...Object.values<string>(f.urls.thumbnails)]) {
      expect(await carriesLocation((await p.inject({ method: 'GET', url: u })).rawPayload)).toBe(false);
    }
  });

  it('serves a PNG’s original with the type of its stored bytes, as sharp reads them', async () => {
    const res = await upload(await png(), 'leaf.png', 'image/png');
    expect(res.status).toBe(201);
    const f = res.body.data;
    expect(f.mimeType).toBe('image/png');
    for (const url of [f.urls.original, f.urls.thumbnails['150']]) {
      const got = await p.inject({ method: 'GET', url });
      expect(got.statusCode).toBe(200);
      const { format } = await sharp(got.rawPayload).metadata();
      expect(format).toBe('webp');
      expect(got.headers['content-type']).toBe(`image/${format}`);
    }
  });

  it('refuses a tampered, re-aimed or expired signature with 404, as for a missing object', async () => {
    const f = (await upload(await photo(), 'q.jpg', 'image/jpeg')).body.data;
    const url = new URL(f.urls.original, 'http://api.test');
    const tampered = `${url.pathname}?${url.search.slice(1).replace(/sig=[^&]+/, `sig=${'A'.repeat(43)}`)}`;
    expect((await p.inject({ method: 'GET', url: tampered })).statusCode).toBe(404);
    const reaimed = `${url.pathname.replace('original', 'thumb-1200')}${url.search}`;
    expect((await p.inject({ method: 'GET', url: reaimed })).statusCode).toBe(404);
    const key = `files/${f.id}/original.webp`;
    const past = Math.floor(Date.now() / 1000) - 1;
    const grant = { method: 'GET' as const, key, expires: past, contentType: 'image/webp' };
    const expired = `/api/upload/local/${key}?expires=${past}&type=image%2Fwebp&sig=${signGrant(SECRET, grant)}`;
    const res = await p.inject({ method: 'GET', url: expired });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toMatch(/invalid or has expired/);
    const future = Math.floor(Date.now() / 1000) + 60;
    const valid = `/api/upload/local/${key}?expires=${future}&type=image%2Fwebp&sig=${signGrant(SECRET, { ...grant, expires: future })}`;
    expect((await p.inject({ method: 'GET', url: valid })).statusCode).toBe(200);
  });

  it('takes a presigned upload by a signed PUT of the signed size and type, then completes it', async () => {
    const data = pdf();
    const signed = await p.inject({
      method: 'POST',
      url: '/api/upload/presigned',
      headers: { authorization: `Bearer ${owner}` },
      payload: {
        kind: 'document',
        filename: 'c.pdf',
        contentType: 'application/pdf',
        bytes: data.length,
        category: 'certificate',
      },
    });
    expect(signed.statusCode).toBe(201);
    const { fileId, upload } = signed.json().data;
    // Local URLs start with the address the request came to (inject's Host is localhost:80).
    expect(upload.url).toMatch(/^http:\/\/localhost:80\/api\/upload\/local\/pending\/fil_/);

    const wrongType = await p.inject({
      method: 'PUT',
      url: upload.url,
      headers: { 'content-type': 'text/plain' },
      payload: data,
    });
    expect(wrongType.statusCode).toBe(400);
    const wrongSize = await p.inject({
      method: 'PUT',
      url: upload.url,
      headers: upload.headers,
      payload: Buffer.concat([data, data]),
    });
    expect(wrongSize.statusCode).toBe(413);
    expect(await p.storage.list('pending/')).toEqual([]);

    const put = await p.inject({ method: 'PUT', url: upload.url, headers: upload.headers, payload: data });
    expect(put.statusCode).toBe(200);
    const done = await p.inject({
      method: 'POST',
      url: `/api/upload/presigned/${fileId}/complete`,
      headers: { authorization: `Bearer ${owner}` },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({ id: fileId, kind: 'document', mimeType: 'application/pdf' });
    const back = await p.inject({ method: 'GET', url: done.json().data.urls.original });
    expect(back.rawPayload.equals(data)).toBe(true);
  });

  it('signs URLs for the address the request came to, or the one a trusted proxy forwards', async () => {
    const base = await p.app.listen({ port: 0, host: '127.0.0.1' });
    expect(base).not.toContain(':3000');
    const data = pdf();
    const presign = async (headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}/api/upload/presigned`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          kind: 'document',
          filename: 'c.pdf',
          contentType: 'application/pdf',
          bytes: data.length,
          category: 'certificate',
        }),
      });
      expect(res.status).toBe(201);
      return (
        (await res.json()) as { data: { fileId: string; upload: { url: string; headers: Record<string, string> } } }
      ).data;
    };
    const forwarded = await presign({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'media.example' });
    expect(forwarded.upload.url).toMatch(/^https:\/\/media\.example\/api\/upload\/local\/pending\/fil_/);

    const { fileId, upload } = await presign();
    expect(upload.url.startsWith(`${base}/api/upload/local/pending/fil_`)).toBe(true);
    const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: new Uint8Array(data) });
    expect(put.status).toBe(200);
    const done = await fetch(`${base}/api/upload/presigned/${fileId}/complete`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}` },
    });
    expect(done.status).toBe(200);
    const original = ((await done.json()) as { data: { urls: { original: string } } }).data.urls.original;
    expect(original.startsWith(`${base}/api/upload/local/files/${fileId}/`)).toBe(true);
    const back = await fetch(original);
    expect(back.status).toBe(200);
    expect(Buffer.from(await back.arrayBuffer()).equals(data)).toBe(true);
  });

  it('refuses a body that is not multipart with a validation error', async () => {
    const res = await p.inject({
      method: 'POST',
      url: '/api/upload/image',
      headers: { authorization: `Bearer ${owner}` },
      payload: { category: 'plant-photo' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'VALIDATION_ERROR', message: 'the request is not multipart' });
  });

  for (const c of HOSTILE_FILES) {
    it(`refuses ${c.name} and leaves nothing on disk or in the database`, async () => {
      const before = await p.stored();
      const file = await c.file();
      const res = await upload(file.data, file.name, file.type, c.kind);
      expect(res.status).toBe(c.status);
      if (c.reason) expect(res.body.error.details.reason).toBe(c.reason);
      expect(await p.stored()).toEqual(before);
    });
  }
});
