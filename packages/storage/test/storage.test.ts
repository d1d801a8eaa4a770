import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { startTestS3, type TestS3 } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage, createS3Storage, type Storage, verifyGrant } from '../src/index.js';

const SECRET = 'a-test-signing-secret-of-32-chars!!';
const NOW = Date.parse('2026-11-23T04:00:00Z');

/** The same behaviour from both drivers. */
function storageContract(name: string, make: () => Storage) {
  describe(name, () => {
    let s: Storage;
    beforeAll(() => {
      s = make();
    });

    it('streams an object in and out, sizes it, lists and deletes it', async () => {
      const put = await s.put('a/b/one.txt', Readable.from(['hello ', 'world']), { contentType: 'text/plain' });
      expect(put.bytes).toBe(11);
      expect(await text(await s.get('a/b/one.txt'))).toBe('hello world');
      expect(await s.head('a/b/one.txt')).toEqual({ bytes: 11 });
      expect(await s.list('a/')).toEqual(['a/b/one.txt']);
      await s.delete(['a/b/one.txt', 'a/b/missing.txt']);
      expect(await s.head('a/b/one.txt')).toBeNull();
      expect(await s.list('a/')).toEqual([]);
    });

    it('refuses a stream over its limit with PAYLOAD_TOO_LARGE and keeps nothing', async () => {
      const body = Readable.from([Buffer.alloc(4000), Buffer.alloc(4000)]);
      await expect(
        s.put('big/x.bin', body, { contentType: 'application/octet-stream', maxBytes: 5000 }),
      ).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      expect(await s.list('big/')).toEqual([]);
    });

    it('answers NOT_FOUND for a missing object and refuses keys that leave the root', async () => {
      await expect(s.get('nope/x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(s.head('../etc/passwd')).rejects.toThrow(/invalid storage key/);
    });
  });
}

describe('storage drivers', () => {
  let s3: TestS3;
  let dir: string;
  beforeAll(async () => {
    s3 = await startTestS3();
    dir = await mkdtemp(join(tmpdir(), 'rootline-local-'));
  });
  afterAll(async () => {
    await s3?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  storageContract('local files', () => createLocalStorage({ dir, secret: SECRET, publicUrl: '', now: () => NOW }));
  storageContract('S3 (s3rver)', () =>
    createS3Storage({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    }),
  );

  it('S3 presigned URLs read and write through plain HTTP', async () => {
    const s = createS3Storage({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
    const up = await s.uploadUrl('direct/x.txt', { expiresInSeconds: 60, contentType: 'text/plain', bytes: 5 });
    const put = await fetch(up.url, { method: 'PUT', headers: up.headers, body: 'hello' });
    expect(put.status).toBe(200);
    const url = await s.downloadUrl('direct/x.txt', { expiresInSeconds: 60, contentType: 'text/plain' });
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('hello');
  });

  it("local URLs start with STORAGE_PUBLIC_URL, else the request's public address, else a path", async () => {
    const opts = { expiresInSeconds: 60, contentType: 'image/webp' };
    const request = { ...opts, publicUrl: 'http://127.0.0.1:4321/' };
    const fixed = createLocalStorage({ dir, secret: SECRET, publicUrl: 'https://api.example', now: () => NOW });
    expect(await fixed.downloadUrl('k/x.webp', request)).toMatch(/^https:\/\/api\.example\/api\/upload\/local\//);
    const open = createLocalStorage({ dir, secret: SECRET, publicUrl: '', now: () => NOW });
    expect(await open.downloadUrl('k/x.webp', request)).toMatch(/^http:\/\/127\.0\.0\.1:4321\/api\/upload\/local\//);
    expect((await open.uploadUrl('k/x.webp', { ...request, bytes: 3 })).url).toMatch(/^http:\/\/127\.0\.0\.1:4321\//);
    expect(await open.downloadUrl('k/x.webp', opts)).toMatch(/^\/api\/upload\/local\/k\/x\.webp\?/);
  });

  it('local URLs carry an HMAC over method, key, expiry, type and size, checked against the clock', async () => {
    const s = createLocalStorage({ dir, secret: SECRET, publicUrl: 'https://api.example', now: () => NOW });
    const url = new URL(await s.downloadUrl('k/x.webp', { expiresInSeconds: 60, contentType: 'image/webp' }));
    expect(url.origin + url.pathname).toBe('https://api.example/api/upload/local/k/x.webp');
    const q = url.searchParams;
    const grant = {
      method: 'GET' as const,
      key: 'k/x.webp',
      expires: Number(q.get('expires')),
      contentType: 'image/webp',
    };
    const sig = q.get('sig') ?? '';
    expect(grant.expires).toBe(NOW / 1000 + 60);
    expect(verifyGrant(SECRET, grant, sig, NOW / 1000)).toBe(true);
    expect(verifyGrant(SECRET, grant, sig, NOW / 1000 + 61)).toBe(false);
    expect(verifyGrant(SECRET, { ...grant, key: 'k/y.webp' }, sig, NOW / 1000)).toBe(false);
    expect(verifyGrant(SECRET, { ...grant, method: 'PUT' }, sig, NOW / 1000)).toBe(false);
    expect(verifyGrant('another-secret-of-at-least-32-chars', grant, sig, NOW / 1000)).toBe(false);
  });
});
