import { Readable } from 'node:stream';
import { claimScheduledJob, ensureScheduledJob, readScheduledJob } from '@rootline/db';
import { startTestS3, type TestS3 } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../src/db/schema.js';
import { carriesLocation, form, photo, png } from './fixtures.js';
import { type MediaPlatform, startMediaPlatform } from './support.js';

const DAY_MS = 86_400_000;

/** Presigned direct uploads, their expiry and the purge of deleted files, with two media replicas on S3. */
describe('presigned uploads, expiry and purge with S3 storage', () => {
  let s3: TestS3;
  let p: MediaPlatform;
  let owner: string;
  let other: string;

  beforeAll(async () => {
    s3 = await startTestS3();
    p = await startMediaPlatform({ ...s3.env, MEDIA_JOB_INTERVAL_SECONDS: '1' });
    owner = await p.token('USER', 'usr_owner');
    other = await p.token('USER', 'usr_other');
  });
  afterAll(async () => {
    await p?.stop();
    await s3?.stop();
  });

  const api = async (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) => {
    const res = await p.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const presign = (data: Buffer, contentType = 'image/jpeg', token = owner) =>
    api('POST', '/api/upload/presigned', token, {
      kind: 'image',
      filename: 'direct.jpg',
      contentType,
      bytes: data.length,
      category: 'plant-photo',
    });
  const putTo = (upload: { url: string; headers: Record<string, string> }, data: Buffer) =>
    fetch(upload.url, { method: 'PUT', headers: upload.headers, body: new Uint8Array(data) });

  it('uploads straight to the bucket, then completes: validated and processed like a multipart upload', async () => {
    const data = await photo();
    const signed = await presign(data);
    expect(signed.status).toBe(201);
    const { fileId, upload, expiresAt } = signed.body.data;
    expect(upload.method).toBe('PUT');
    expect(upload.url).toContain(s3.endpoint);
    expect(upload.headers).toEqual({ 'content-type': 'image/jpeg', 'content-length': String(data.length) });
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    expect((await api('GET', `/api/upload/${fileId}`, owner)).status).toBe(404);

    const notYet = await api('POST', `/api/upload/presigned/${fileId}/complete`, owner);
    expect(notYet.status).toBe(400);
    expect(notYet.body.error.details.reason).toBe('not-uploaded');

    expect((await putTo(upload, data)).status).toBe(200);
    // Another's pending upload is, to them, no file at all.
    expect((await api('POST', `/api/upload/presigned/${fileId}/complete`, other)).status).toBe(404);
    const done = await api('POST', `/api/upload/presigned/${fileId}/complete`, owner);
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({
      id: fileId,
      kind: 'image',
      mimeType: 'image/jpeg',
      width: 480,
      height: 640,
    });
    expect(Object.keys(done.body.data.urls.thumbnails)).toEqual(['150', '300', '600', '1200']);
    for (const url of [done.body.data.urls.original, ...Object.values<string>(done.body.data.urls.thumbnails)]) {
      expect(await carriesLocation(Buffer.from(await (await fetch(url)).arrayBuffer()))).toBe(false);
    }
    expect(await p.storage.list(`pending/${fileId}`)).toEqual([]);
    expect(await p.storage.list(`files/${fileId}/`)).toHaveLength(5);
    const again = await api('POST', `/api/upload/presigned/${fileId}/complete`, owner);
    expect(again.body.data.id).toBe(fileId);
  });

  it('refuses a presign of a type the kind does not take or over the size limit', async () => {
    const wrong = await presign(await png(), 'application/pdf');
    expect(wrong.status).toBe(400);
    const big = await api('POST', '/api/upload/presigned', owner, {
      kind: 'image',
      filename: 'big.jpg',
      contentType: 'image/jpeg',
      bytes: 16 * 1024 * 1024,
      category: 'other',
    });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('completing a hostile direct upload removes it and its row: nothing stays', async () => {
    const script = Buffer.from('<?php system($_GET["c"]); ?>');
    const signed = await presign(script);
    const before = await p.stored();
    expect((await putTo(signed.body.data.upload, script)).status).toBe(200);
    const res = await api('POST', `/api/upload/presigned/${signed.body.data.fileId}/complete`, owner);
    expect(res.status).toBe(400);
    expect(res.body.error.details.reason).toBe('type');
    expect(await p.stored()).toEqual({ keys: before.keys, rows: before.rows - 1 });
  });

  it('strips the EXIF and XMP that copies stored before kept (a photo of an exact plant), pixels untouched', async () => {
    const body = await form({ category: 'plant-photo' }, { data: await photo(), name: 'old.jpg', type: 'image/jpeg' });
    const res = await p.inject({
      method: 'POST',
      url: '/api/upload/image',
      headers: { ...body.headers, authorization: `Bearer ${owner}` },
      payload: body.payload,
    });
    const fileId = res.json().data.id as string;
    // As such a file was stored: its copies kept the photo's metadata, and its row says so.
    const kept = await sharp(await photo())
      .rotate()
      .keepMetadata()
      .webp({ quality: 82 })
      .toBuffer();
    const keys = await p.storage.list(`files/${fileId}/`);
    for (const key of keys) await p.storage.put(key, Readable.from([kept]), { contentType: 'image/webp' });
    const flag = async () =>
      (
        (await p.database.db.execute(
          sql`select gps_served as "kept" from media.files where id = ${fileId}`,
        )) as unknown as { kept: boolean }[]
      )[0]?.kept;
    await p.database.db.execute(sql`update media.files set gps_served = true where id = ${fileId}`);
    const served = async () => {
      const { urls } = (await api('GET', `/api/upload/${fileId}`, owner)).body.data;
      return Promise.all(
        [urls.original, ...Object.values<string>(urls.thumbnails)].map(async (u: string) =>
          Buffer.from(await (await fetch(u)).arrayBuffer()),
        ),
      );
    };
    expect(await carriesLocation((await served())[0] as Buffer)).toBe(true);

    await expect.poll(flag, { timeout: 20_000 }).toBe(false);
    for (const bytes of await served()) {
      expect(await carriesLocation(bytes)).toBe(false);
      const [before, after] = await Promise.all([sharp(kept).raw().toBuffer(), sharp(bytes).raw().toBuffer()]);
      expect(after.equals(before)).toBe(true);
    }
  });

  it('claims a job run on one replica only', async () => {
    await ensureScheduledJob(p.database.db, jobs, 'claim-test', new Date(Date.now() - 1000));
    const now = new Date();
    const stale = new Date(now.getTime() - 600_000);
    const claims = await Promise.all([
      claimScheduledJob(p.database.db, jobs, 'claim-test', now, stale),
      claimScheduledJob(p.database.db, jobs, 'claim-test', now, stale),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('expires uploads never completed and purges deleted files once their grace has passed', async () => {
    const data = await png();
    const abandoned = (await presign(data, 'image/png')).body.data;
    expect((await putTo(abandoned.upload, data)).status).toBe(200);
    const body = await form({ category: 'other' }, { data, name: 'gone.png', type: 'image/png' });
    const kept = await p.inject({
      method: 'POST',
      url: '/api/upload/image',
      headers: { ...body.headers, authorization: `Bearer ${owner}` },
      payload: body.payload,
    });
    const fileId = kept.json().data.id as string;
    expect((await api('DELETE', `/api/upload/${fileId}`, owner)).status).toBe(200);
    expect(await p.storage.list(`files/${fileId}/`)).toHaveLength(5);
    const purgeRuns = (await readScheduledJob(p.database.db, jobs, 'purge'))?.runs ?? 0;

    // Past the presign lifetime and the purge grace (7 days by default), on the media replicas' clock.
    p.clock.advance(8 * DAY_MS);
    await expect
      .poll(async () => (await p.storage.list(`pending/${abandoned.fileId}`)).length, { timeout: 20_000 })
      .toBe(0);
    await expect.poll(async () => (await p.storage.list(`files/${fileId}/`)).length, { timeout: 20_000 }).toBe(0);
    // The objects go first, then the row (a crash in between leaves the row for the next run).
    const rows = async () =>
      (await p.database.db.execute(
        sql`select id from media.files where id in (${abandoned.fileId}, ${fileId})`,
      )) as unknown as unknown[];
    await expect.poll(rows, { timeout: 20_000 }).toEqual([]);
    const expired = await api('POST', `/api/upload/presigned/${abandoned.fileId}/complete`, owner);
    expect(expired.status).toBe(404);
    expect((await readScheduledJob(p.database.db, jobs, 'purge'))?.runs).toBeGreaterThan(purgeRuns);
  });
});
