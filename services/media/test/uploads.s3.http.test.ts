import type { DeliveredEvent } from '@rootline/bus';
import { mediaFileDeleted, mediaFileStored } from '@rootline/contracts';
import { plantInput, startTestS3, type TestS3 } from '@rootline/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doc, docx, form, pdf, photo, png } from './fixtures.js';
import { HOSTILE_FILES } from './hostile.js';
import { type MediaPlatform, startMediaPlatform } from './support.js';

/** Multipart uploads, file information, deletion and the hostile files, on an S3-protocol server. */
describe('uploads over HTTP with S3 storage', () => {
  let s3: TestS3;
  let p: MediaPlatform;
  let owner: string;
  let other: string;
  let admin: string;
  const events: DeliveredEvent[] = [];

  beforeAll(async () => {
    s3 = await startTestS3();
    p = await startMediaPlatform(s3.env);
    owner = await p.token('USER', 'usr_owner');
    other = await p.token('USER', 'usr_other');
    admin = await p.token('ADMIN', 'usr_admin');
    for (const def of [mediaFileStored, mediaFileDeleted]) {
      await p.bus.consume({
        durable: `media-test-${def.subject.split('.').pop()}`,
        subject: def.subject,
        handler: async (e) => {
          events.push(e);
        },
      });
    }
  });
  afterAll(async () => {
    await p?.stop();
    await s3?.stop();
  });

  async function upload(
    kind: 'image' | 'document',
    fields: Record<string, string>,
    file?: { data: Buffer; name: string; type: string },
    token = owner,
    headers: Record<string, string> = {},
  ) {
    const body = await form(fields, file);
    const res = await p.inject({
      method: 'POST',
      url: `/api/upload/${kind}`,
      headers: { ...body.headers, ...headers, authorization: `Bearer ${token}` },
      payload: body.payload,
    });
    return { status: res.statusCode, body: res.json(), replayed: res.headers['idempotent-replayed'] };
  }
  const get = async (id: string, token = owner) => {
    const res = await p.inject({
      method: 'GET',
      url: `/api/upload/${id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: res.statusCode, body: res.json() };
  };
  const registerPlant = async (privacyLevel: string) => {
    const res = await p.inject({
      method: 'POST',
      url: '/api/plants/register',
      headers: { authorization: `Bearer ${owner}` },
      payload: plantInput({ owner: { id: 'usr_owner' }, privacyLevel: privacyLevel as 'exact' }),
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id as string;
  };

  describe('hostile files are refused with a clear envelope and nothing is stored', () => {
    for (const c of HOSTILE_FILES) {
      it(`refuses ${c.name}`, async () => {
        const before = await p.stored();
        const res = await upload(c.kind, { category: c.category }, await c.file());
        expect(res.status).toBe(c.status);
        expect(res.body.success).toBe(false);
        expect(res.body.data).toBeNull();
        if (c.status === 413) expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
        else {
          expect(res.body.error.code).toBe('VALIDATION_ERROR');
          expect(res.body.error.details.reason).toBe(c.reason);
          if (c.detected) expect(res.body.error.message).toContain(c.detected);
        }
        expect(await p.stored()).toEqual(before);
      });
    }
  });

  it('refuses a form without a file, with bad fields, or without a session', async () => {
    expect((await upload('image', { category: 'plant-photo' })).body.error.code).toBe('VALIDATION_ERROR');
    const bad = await upload('image', { category: 'selfie' }, { data: await png(), name: 'a.png', type: 'image/png' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('category');
    const anon = await p.inject({ method: 'POST', url: '/api/upload/image', ...(await form({ category: 'other' })) });
    expect(anon.statusCode).toBe(401);
    expect((await p.stored()).rows).toBe(0);
  });

  it('serves a PNG’s original from S3 with the type of its stored bytes, as sharp reads them', async () => {
    const res = await upload(
      'image',
      { category: 'plant-photo' },
      { data: await png(), name: 'a.png', type: 'image/png' },
    );
    expect(res.status).toBe(201);
    expect(res.body.data.mimeType).toBe('image/png');
    const original = await fetch(res.body.data.urls.original);
    expect(original.status).toBe(200);
    const { format } = await sharp(Buffer.from(await original.arrayBuffer())).metadata();
    expect(format).toBe('webp');
    expect(original.headers.get('content-type')).toBe(`image/${format}`);
  });

  it('processes a photo: orientation applied, EXIF stored, WebP original and square thumbnails, metadata stripped', async () => {
    const res = await upload(
      'image',
      { category: 'plant-photo' },
      { data: await photo(), name: 'leaf.jpg', type: 'image/jpeg' },
    );
    expect(res.status).toBe(201);
    const f = res.body.data;
    expect(f).toMatchObject({ kind: 'image', mimeType: 'image/jpeg', width: 480, height: 640, ownerId: 'usr_owner' });
    expect(f.id).toMatch(/^fil_/);
    // The GPS read from the original is its owner's to read; the copies carry none.
    expect(f.exif).toMatchObject({ make: 'Rootline', model: 'Test Camera', orientation: 6 });
    expect(f.exif.gps.latitude).toBeCloseTo(52.3667, 3);
    expect(Object.keys(f.urls.thumbnails)).toEqual(['150', '300', '600', '1200']);

    const original = await fetch(f.urls.original);
    expect(original.status).toBe(200);
    const meta = await sharp(Buffer.from(await original.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 480, height: 640 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    for (const size of [150, 300, 600, 1200]) {
      const t = await sharp(Buffer.from(await (await fetch(f.urls.thumbnails[size])).arrayBuffer())).metadata();
      expect(t).toMatchObject({ format: 'webp', width: size, height: size });
      expect(t.exif).toBeUndefined();
    }
    const keys = (await p.storage.list(`files/${f.id}/`)).map((k) => k.split('/').pop());
    expect(keys).toEqual(['original.webp', 'thumb-1200.webp', 'thumb-150.webp', 'thumb-300.webp', 'thumb-600.webp']);
    expect(await p.storage.list('pending/')).toEqual([]);
    expect((await get(f.id)).body.data.id).toBe(f.id);
    // An unlinked file is its owner's (and ADMINs') only: to anyone else it does not exist.
    expect((await get(f.id, other)).status).toBe(404);
    await expect.poll(() => events.find((e) => (e.payload as { fileId: string }).fileId === f.id)).toBeTruthy();
    expect(events.find((e) => (e.payload as { fileId: string }).fileId === f.id)?.payload).toEqual({
      fileId: f.id,
      ownerId: 'usr_owner',
      kind: 'image',
      mimeType: 'image/jpeg',
      bytes: f.bytes,
      category: 'plant-photo',
      entityType: null,
      entityId: null,
    });
  });

  it('answers a retry with the same Idempotency-Key with the first file, stored once', async () => {
    const key = { 'idempotency-key': '6f1c1d3e-2b0a-4d7e-9a51-3f6b8c2d1e00' };
    const file = { data: await png(), name: 'once.png', type: 'image/png' };
    const first = await upload('image', { category: 'other' }, file, owner, key);
    expect(first.status).toBe(201);
    const before = await p.stored();
    const again = await upload('image', { category: 'other' }, file, owner, key);
    expect(again.status).toBe(201);
    expect(again.replayed).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await p.stored()).toEqual(before);
  });

  it('strips GPS from every copy whatever the plant’s privacy level, showing exif.gps to the owner only', async () => {
    const exact = await registerPlant('exact');
    const fuzzy = await registerPlant('fuzzy');
    for (const plantId of [exact, fuzzy]) {
      const res = await upload(
        'image',
        { category: 'plant-photo', entityType: 'plant', entityId: plantId },
        { data: await photo(), name: 'a.jpg', type: 'image/jpeg' },
      );
      expect(res.status).toBe(201);
      expect(res.body.data.exif.gps.latitude).toBeCloseTo(52.3667, 3);
      for (const url of [res.body.data.urls.original, ...Object.values<string>(res.body.data.urls.thumbnails)]) {
        const served = await sharp(Buffer.from(await (await fetch(url)).arrayBuffer())).metadata();
        expect(served.exif).toBeUndefined();
        expect(served.xmp).toBeUndefined();
      }
      const seen = await get(res.body.data.id, other);
      expect(seen.status).toBe(200);
      expect(seen.body.data.exif.gps).toBeNull();
    }

    const notMine = await upload(
      'image',
      { category: 'plant-photo', entityType: 'plant', entityId: exact },
      {
        data: await png(),
        name: 'c.png',
        type: 'image/png',
      },
      other,
    );
    expect(notMine.status).toBe(403);
    const missing = await upload(
      'image',
      { category: 'plant-photo', entityType: 'plant', entityId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD' },
      {
        data: await png(),
        name: 'd.png',
        type: 'image/png',
      },
    );
    expect(missing.status).toBe(404);
    expect(await p.storage.list('pending/')).toEqual([]);
  });

  it('stores PDF, DOC and DOCX recognised by their bytes', async () => {
    const files: [Buffer, string, string][] = [
      [pdf(), 'cert.pdf', 'application/pdf'],
      [doc(), 'old.doc', 'application/msword'],
      [await docx(), 'new.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ];
    for (const [data, name, type] of files) {
      const res = await upload(
        'document',
        { category: 'certificate' },
        { data, name, type: 'application/octet-stream' },
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ kind: 'document', mimeType: type, bytes: data.length, originalName: name });
      expect(res.body.data.urls.thumbnails).toBeNull();
      const served = await fetch(res.body.data.urls.original);
      // A document is stored as uploaded, so it is served as the type its bytes were recognised as.
      expect(served.headers.get('content-type')).toBe(type);
      const back = Buffer.from(await served.arrayBuffer());
      expect(back.equals(data)).toBe(true);
    }
  });

  it('deletes softly, owner or ADMIN only (404 to others); the file is hidden at once but its objects stay until the purge', async () => {
    const a = (await upload('image', { category: 'other' }, { data: await png(), name: 'a.png', type: 'image/png' }))
      .body.data;
    const b = (await upload('image', { category: 'other' }, { data: await png(), name: 'b.png', type: 'image/png' }))
      .body.data;
    const del = (id: string, token: string) =>
      p.inject({ method: 'DELETE', url: `/api/upload/${id}`, headers: { authorization: `Bearer ${token}` } });
    // Another's private file is, to DELETE as to GET, a file that does not exist.
    const refused = await del(a.id, other);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('NOT_FOUND');
    const done = await del(a.id, owner);
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({ id: a.id });
    expect((await get(a.id)).status).toBe(404);
    expect((await del(a.id, owner)).statusCode).toBe(404);
    expect((await del(b.id, admin)).statusCode).toBe(200);
    expect(await p.storage.list(`files/${a.id}/`)).toHaveLength(5);
    expect((await get('fil_01HZX3K6Q2W8N4B7T5R9V0C1MD')).status).toBe(404);
    expect((await get('not-an-id')).status).toBe(400);
    await expect
      .poll(() =>
        events
          .filter((e) => e.subject === mediaFileDeleted.subject)
          .map((e) => (e.payload as { fileId: string }).fileId),
      )
      .toEqual(expect.arrayContaining([a.id, b.id]));
  });
});
