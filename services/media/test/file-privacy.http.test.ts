import { service as demand } from '@rootline/demand';
import type { ServiceModule } from '@rootline/host';
import { listingInput, plantInput, startTestS3, type TestS3 } from '@rootline/testing';
import type { TObject } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carriesLocation, form, photo, png } from './fixtures.js';
import { type MediaPlatform, startMediaPlatform } from './support.js';

const ALICE = 'usr_alice';
const BOB = 'usr_bob';
const NO_FILE = 'fil_01HZX3K6Q2W8N4B7T5R9V0C1MD';

/**
 * What others learn of Alice's files, on S3 storage with plants and demand answering over the bus: no photo says
 * where it was taken except to her, no verb on her private files tells Bob they exist, and her listing's images are
 * shown as the marketplace says.
 */
describe('privacy of photos and files', () => {
  let s3: TestS3;
  let p: MediaPlatform;
  let alice: string;
  let bob: string;
  let admin: string;

  const api = async (method: string, url: string, token: string | undefined, payload?: object) => {
    const res = await p.inject({
      method: method as 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const upload = async (token: string, fields: Record<string, string>, data?: Buffer) => {
    const body = await form(fields, { data: data ?? (await png()), name: 'a.jpg', type: 'image/jpeg' });
    const res = await p.inject({
      method: 'POST',
      url: '/api/upload/image',
      headers: { ...body.headers, authorization: `Bearer ${token}` },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: string; urls: { original: string; thumbnails: Record<string, string> } };
  };
  const download = async (url: string) => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  /** Every copy a reader is handed a URL for: the original and each thumbnail. */
  const copies = (urls: { original: string; thumbnails: Record<string, string> }) => [
    urls.original,
    ...Object.values(urls.thumbnails),
  ];
  const exactPlant = async () => {
    const res = await api(
      'POST',
      '/api/plants/register',
      alice,
      plantInput({ owner: { id: ALICE, name: 'Alice' }, privacyLevel: 'exact' }),
    );
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };

  beforeAll(async () => {
    s3 = await startTestS3();
    p = await startMediaPlatform(s3.env, [demand] as unknown as ServiceModule<TObject>[]);
    alice = await p.token('USER', ALICE, 'Alice');
    bob = await p.token('USER', BOB);
    admin = await p.token('ADMIN', 'usr_admin');
  });
  afterAll(async () => {
    await p?.stop();
    await s3?.stop();
  });

  describe('the place a photo was taken', () => {
    it("serves the photo of Alice's exact plant without its GPS to Bob and to Alice, who alone reads it as exif.gps", async () => {
      const original = await photo();
      expect(await carriesLocation(original)).toBe(true);
      const plantId = await exactPlant();
      const stored = await upload(alice, { entityType: 'plant', entityId: plantId }, original);

      const mine = await api('GET', `/api/upload/${stored.id}`, alice);
      expect(mine.status).toBe(200);
      expect(mine.body.data.exif.gps.latitude).toBeCloseTo(52.3667, 3);
      expect(mine.body.data.exif.gps.longitude).toBeCloseTo(4.9, 3);
      expect(mine.body.data.exif).toMatchObject({ make: 'Rootline', model: 'Test Camera' });
      expect((await api('GET', `/api/upload/${stored.id}`, admin)).body.data.exif.gps).not.toBeNull();

      const theirs = await api('GET', `/api/upload/${stored.id}`, bob);
      expect(theirs.status).toBe(200);
      expect(theirs.body.data.exif.gps).toBeNull();
      expect(theirs.body.data.exif.make).toBe('Rootline');
      const listed = await api('GET', `/api/upload/plants/${plantId}`, bob);
      expect(listed.body.data.map((f: { exif: { gps: unknown } }) => f.exif.gps)).toEqual([null]);

      // Every download path: the upload's answer, the owner's read, another's read; original and thumbnails.
      for (const urls of [stored.urls, mine.body.data.urls, theirs.body.data.urls, listed.body.data[0].urls]) {
        for (const url of copies(urls)) expect(await carriesLocation(await download(url)), url).toBe(false);
      }
    });

    it('strips the GPS and XMP location of an unlinked photo too, keeping the GPS for its owner', async () => {
      const unlinked = await upload(alice, { category: 'other' }, await photo());
      for (const url of copies(unlinked.urls)) expect(await carriesLocation(await download(url))).toBe(false);
      expect((await api('GET', `/api/upload/${unlinked.id}`, alice)).body.data.exif.gps).not.toBeNull();
    });
  });

  describe("verbs on another's private file", () => {
    it("answers Bob 404 on every verb on Alice's private file, as for a file that does not exist", async () => {
      const secret = await upload(alice, { category: 'other' });
      const missing = {
        get: await api('GET', `/api/upload/${NO_FILE}`, bob),
        delete: await api('DELETE', `/api/upload/${NO_FILE}`, bob),
        complete: await api('POST', `/api/upload/presigned/${NO_FILE}/complete`, bob),
      };
      const attempts = {
        get: await api('GET', `/api/upload/${secret.id}`, bob),
        delete: await api('DELETE', `/api/upload/${secret.id}`, bob),
        complete: await api('POST', `/api/upload/presigned/${secret.id}/complete`, bob),
      };
      for (const [verb, res] of Object.entries(attempts)) {
        expect(res.status, verb).toBe(404);
        expect(res.body.error.code, verb).toBe('NOT_FOUND');
        expect(res.body.error.message.replace(secret.id, NO_FILE), verb).toBe(
          missing[verb as keyof typeof missing].body.error.message,
        );
      }
      expect((await api('GET', `/api/upload/${secret.id}`, alice)).status).toBe(200);
    });

    it("answers Bob 404 on completing Alice's pending presigned upload, and on deleting her public plant photo", async () => {
      const signed = await api('POST', '/api/upload/presigned', alice, {
        kind: 'image',
        filename: 'direct.png',
        contentType: 'image/png',
        bytes: (await png()).length,
      });
      expect(signed.status).toBe(201);
      const { fileId, upload: put } = signed.body.data;
      const body = new Uint8Array(await png());
      expect((await fetch(put.url, { method: 'PUT', headers: put.headers, body })).status).toBe(200);
      const completed = await api('POST', `/api/upload/presigned/${fileId}/complete`, bob);
      expect(completed.status).toBe(404);
      expect(completed.body.error.code).toBe('NOT_FOUND');
      expect((await api('POST', `/api/upload/presigned/${fileId}/complete`, alice)).status).toBe(200);

      const plantPhoto = await upload(alice, { entityType: 'plant', entityId: await exactPlant() });
      expect((await api('GET', `/api/upload/${plantPhoto.id}`, bob)).status).toBe(200);
      const deleted = await api('DELETE', `/api/upload/${plantPhoto.id}`, bob);
      expect(deleted.status).toBe(404);
      expect(deleted.body.error.code).toBe('NOT_FOUND');
      expect((await api('GET', `/api/upload/${plantPhoto.id}`, bob)).status).toBe(200);
      expect((await api('DELETE', `/api/upload/${plantPhoto.id}`, admin)).status).toBe(200);
    });
  });

  describe('the images of a listing', () => {
    it("shows the images of Alice's active listing to a signed-in stranger, and her draft's to her only", async () => {
      const shown = await upload(alice, { category: 'product' });
      const drafted = await upload(alice, { category: 'product' });
      const active = await api('POST', '/api/marketplace/listings', alice, listingInput({ imageFileIds: [shown.id] }));
      expect(active.status).toBe(201);
      const draft = await api(
        'POST',
        '/api/marketplace/listings',
        alice,
        listingInput({ status: 'draft', imageFileIds: [drafted.id] }),
      );
      expect(draft.status).toBe(201);

      const read = await api('GET', `/api/upload/${shown.id}`, bob);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ id: shown.id, ownerId: ALICE, entityType: null });
      for (const url of copies(read.body.data.urls)) expect((await fetch(url)).status).toBe(200);
      expect((await api('GET', `/api/upload/${shown.id}`, undefined)).status).toBe(401);

      expect((await api('GET', `/api/upload/${drafted.id}`, bob)).status).toBe(404);
      const published = await api('POST', `/api/marketplace/listings/${draft.body.data.id}/status`, alice, {
        status: 'active',
      });
      expect(published.status).toBe(200);
      expect((await api('GET', `/api/upload/${drafted.id}`, bob)).status).toBe(200);
      // Still Alice's file to act on.
      expect((await api('DELETE', `/api/upload/${drafted.id}`, bob)).status).toBe(404);
    });
  });
});
