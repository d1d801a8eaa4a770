import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, signInOverHttp, TEST_ADMIN, TEST_ADMIN_ENV, TEST_JWT_SECRET } from '@rootline/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedHandle, startEmbedded } from '../src/embedded-host.js';

/** Embedded mode: uploads on local storage under DATA_DIR, served at signed URLs, on PGlite and the in-process bus. */
describe('embedded mode: uploads on local storage', () => {
  let dataDir: string;
  let rootline: EmbeddedHandle;
  let token: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rootline-embedded-media-'));
    rootline = await startEmbedded({
      env: {
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        JWT_SECRET: TEST_JWT_SECRET,
        LOG_LEVEL: 'warn',
        ...TEST_ADMIN_ENV,
      },
    });
    token = await signInOverHttp(rootline.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(async () => {
    await rootline?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('uploads an image, keeps a generated signing key in DATA_DIR and serves its thumbnails at signed URLs', async () => {
    const image = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#4a8' } })
      .jpeg()
      .toBuffer();
    const fd = new FormData();
    fd.append('category', 'plant-photo');
    fd.append('file', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'leaf.jpg');
    const res = await fetch(`${rootline.url}/api/upload/image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: fd,
    });
    expect(res.status).toBe(201);
    const file = ((await res.json()) as { data: { id: string; urls: { thumbnails: Record<string, string> } } }).data;
    expect(existsSync(join(dataDir, 'media', 'files', file.id, 'thumb-300.webp'))).toBe(true);
    expect(readFileSync(join(dataDir, 'storage-signing-secret'), 'utf8').length).toBeGreaterThanOrEqual(32);

    // Signed URLs start with the address the request came to (no PUBLIC_URL here).
    expect(file.urls.thumbnails['300']).toMatch(new RegExp(`^${rootline.url}/api/upload/local/`));
    const thumb = await fetch(file.urls.thumbnails['300'] as string);
    expect(thumb.status).toBe(200);
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 300, height: 300 });

    const info = await api(rootline.url, `/api/upload/${file.id}`, { token });
    expect(info.body.data.id).toBe(file.id);
    const deleted = await api(rootline.url, `/api/upload/${file.id}`, { method: 'DELETE', token });
    expect(deleted.status).toBe(200);
    expect((await api(rootline.url, `/api/upload/${file.id}`, { token })).status).toBe(404);
  });
});
