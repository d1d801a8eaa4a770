import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { service as demand } from '@rootline/demand';
import { service as farm } from '@rootline/farm';
import type { ServiceModule } from '@rootline/host';
import { listingInput, plantInput } from '@rootline/testing';
import type { TObject } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, pdf, png } from './fixtures.js';
import { type MediaPlatform, startMediaPlatform } from './support.js';

const ALICE = 'usr_alice';
const BOB = 'usr_bob';
const UNKNOWN = {
  plant: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
  listing: 'lst_01HZX3K6Q2W8N4B7T5R9V0C1MD',
  farm: 'frm_01HZX3K6Q2W8N4B7T5R9V0C1MD',
};

/**
 * Who reads a file and to what records files and listing images may be attached, with the services that own those
 * records (plants, demand's listings, farm) answering over the bus.
 */
describe('file access and attachments', () => {
  let dataDir: string;
  let p: MediaPlatform;
  let alice: string;
  let bob: string;
  let admin: string;
  let plantId: string;
  let draftId: string;
  let activeId: string;
  let farmId: string;

  const api = async (method: string, url: string, token: string, payload?: object) => {
    const res = await p.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const upload = async (token: string, fields: Record<string, string>, kind: 'image' | 'document' = 'image') => {
    const file =
      kind === 'image'
        ? { data: await png(), name: 'a.png', type: 'image/png' }
        : { data: pdf(), name: 'c.pdf', type: 'application/pdf' };
    const body = await form(fields, file);
    const res = await p.inject({
      method: 'POST',
      url: `/api/upload/${kind}`,
      headers: { ...body.headers, authorization: `Bearer ${token}` },
      payload: body.payload,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const presign = (token: string, fields: Record<string, string>) =>
    api('POST', '/api/upload/presigned', token, {
      kind: 'document',
      filename: 'c.pdf',
      contentType: 'application/pdf',
      bytes: pdf().length,
      ...fields,
    });
  const fileOf = async (token: string, fields: Record<string, string>, kind: 'image' | 'document' = 'image') => {
    const res = await upload(token, fields, kind);
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  const read = (id: string, token: string) => api('GET', `/api/upload/${id}`, token);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rootline-access-'));
    p = await startMediaPlatform(
      {
        STORAGE_DRIVER: 'local',
        DATA_DIR: dataDir,
        STORAGE_SIGNING_SECRET: 'local-signing-secret-for-the-tests-0123456789',
      },
      [demand, farm] as unknown as ServiceModule<TObject>[],
    );
    alice = await p.token('FARM_MANAGER', ALICE);
    bob = await p.token('USER', BOB);
    admin = await p.token('ADMIN', 'usr_admin');
    const plant = await api('POST', '/api/plants/register', alice, plantInput({ owner: { id: ALICE } }));
    expect(plant.status).toBe(201);
    plantId = plant.body.data.id;
    const draft = await api('POST', '/api/marketplace/listings', alice, listingInput({ status: 'draft' }));
    expect(draft.status).toBe(201);
    draftId = draft.body.data.id;
    const active = await api('POST', '/api/marketplace/listings', alice, listingInput());
    expect(active.status).toBe(201);
    activeId = active.body.data.id;
    const f = await api('POST', '/api/vertical-farm/register', alice, {
      name: 'Harbour Greens',
      location: { latitude: 51.9225, longitude: 4.4792, city: 'Rotterdam', country: 'NL' },
      floorAreaM2: 1200,
      levels: 8,
      lightingSystem: 'led',
      climateSystem: 'hvac-dehumidification',
    });
    expect(f.status).toBe(201);
    farmId = f.body.data.id;
  });
  afterAll(async () => {
    await p?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  describe('the category of an upload', () => {
    it('defaults from the file: an image alone is other, an image of her plant a plant photo, a document other', async () => {
      const alone = await upload(alice, {});
      expect(alone.status).toBe(201);
      expect(alone.body.data).toMatchObject({ category: 'other', entityType: null, entityId: null });
      const ofPlant = await upload(alice, { entityType: 'plant', entityId: plantId });
      expect(ofPlant.status).toBe(201);
      expect(ofPlant.body.data).toMatchObject({ category: 'plant-photo', entityType: 'plant', entityId: plantId });
      const document = await upload(alice, { entityType: 'plant', entityId: plantId }, 'document');
      expect(document.status).toBe(201);
      expect(document.body.data.category).toBe('other');
      const given = await upload(alice, { category: 'report', entityType: 'plant', entityId: plantId });
      expect(given.body.data.category).toBe('report');
    });
  });

  describe('reading a file', () => {
    it("refuses to show Alice's unlinked file to Bob, as if it did not exist", async () => {
      const id = await fileOf(alice, { category: 'other' });
      const refused = await read(id, bob);
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('NOT_FOUND');
      expect(refused.body.data).toBeNull();
      expect((await read('fil_01HZX3K6Q2W8N4B7T5R9V0C1MD', bob)).body.error.code).toBe('NOT_FOUND');
      expect((await read(id, alice)).status).toBe(200);
      expect((await read(id, admin)).status).toBe(200);
    });

    it("shows the photos of Alice's draft listing to her only, and to everyone once it is published", async () => {
      const draft = await api('POST', '/api/marketplace/listings', alice, listingInput({ status: 'draft' }));
      const listingId = draft.body.data.id as string;
      const id = await fileOf(alice, { category: 'product', entityType: 'listing', entityId: listingId });
      expect((await read(id, bob)).status).toBe(404);
      expect((await read(id, alice)).status).toBe(200);
      expect(
        (await api('POST', `/api/marketplace/listings/${listingId}/status`, alice, { status: 'active' })).status,
      ).toBe(200);
      const shown = await read(id, bob);
      expect(shown.status).toBe(200);
      expect(shown.body.data).toMatchObject({ id, entityType: 'listing', entityId: listingId, ownerId: ALICE });
    });

    it("shows photos of Alice's plant and farm to every signed-in user, her profile photo to her only", async () => {
      const plantPhoto = await fileOf(alice, { category: 'plant-photo', entityType: 'plant', entityId: plantId });
      const farmPhoto = await fileOf(alice, { category: 'farm', entityType: 'farm', entityId: farmId });
      const avatar = await fileOf(alice, { category: 'profile', entityType: 'user', entityId: ALICE });
      expect((await read(plantPhoto, bob)).status).toBe(200);
      expect((await read(farmPhoto, bob)).status).toBe(200);
      expect((await read(avatar, bob)).status).toBe(404);
      expect((await read(avatar, alice)).status).toBe(200);
    });
  });

  describe('attaching a file to a record', () => {
    const targets = () => [
      { name: "Alice's active listing", entityType: 'listing', entityId: activeId },
      { name: "Alice's farm", entityType: 'farm', entityId: farmId },
      { name: "Alice's profile", entityType: 'user', entityId: ALICE },
      { name: "Alice's plant", entityType: 'plant', entityId: plantId },
    ];

    it("refuses to attach Bob's uploads to Alice's listing, farm, profile or plant, storing nothing", async () => {
      const before = await p.stored();
      for (const t of targets()) {
        const fields = { category: 'other', entityType: t.entityType, entityId: t.entityId };
        for (const res of [
          await upload(bob, fields),
          await upload(bob, fields, 'document'),
          await presign(bob, fields),
        ]) {
          expect(res.status, t.name).toBe(403);
          expect(res.body.error).toMatchObject({
            code: 'FORBIDDEN',
            details: { field: 'entityId', reason: 'not-owner' },
          });
        }
      }
      expect(await p.stored()).toEqual(before);
      const listing = await api('GET', `/api/marketplace/listings/${activeId}`, alice);
      expect(listing.body.data.imageFileIds).toEqual([]);
    });

    it("answers 404 naming entityId for Alice's draft listing (hidden from Bob) and for records that do not exist", async () => {
      const before = await p.stored();
      const cases = [
        { token: bob, entityType: 'listing', entityId: draftId },
        ...Object.entries(UNKNOWN).map(([entityType, entityId]) => ({ token: alice, entityType, entityId })),
      ];
      for (const c of cases) {
        const fields = { category: 'other', entityType: c.entityType, entityId: c.entityId };
        for (const res of [
          await upload(c.token, fields),
          await upload(c.token, fields, 'document'),
          await presign(c.token, fields),
        ]) {
          expect(res.status, c.entityId).toBe(404);
          expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', details: { field: 'entityId' } });
        }
      }
      expect(await p.stored()).toEqual(before);
    });

    it("attaches Alice's files to her own draft listing, farm and profile, directly and presigned", async () => {
      const fields = [
        { category: 'product', entityType: 'listing', entityId: draftId },
        { category: 'farm', entityType: 'farm', entityId: farmId },
        { category: 'profile', entityType: 'user', entityId: ALICE },
      ];
      for (const f of fields) {
        expect((await upload(alice, f)).status).toBe(201);
        expect((await upload(alice, f, 'document')).status).toBe(201);
        const signed = await presign(alice, f);
        expect(signed.status).toBe(201);
        const { fileId, upload: put } = signed.body.data;
        expect((await p.inject({ method: 'PUT', url: put.url, headers: put.headers, payload: pdf() })).statusCode).toBe(
          200,
        );
        const done = await api('POST', `/api/upload/presigned/${fileId}/complete`, alice);
        expect(done.status).toBe(200);
        expect(done.body.data).toMatchObject({ entityType: f.entityType, entityId: f.entityId, ownerId: ALICE });
      }
    });

    it("refuses a profile photo of Alice even to an ADMIN, who may attach to Alice's plant", async () => {
      const avatar = await upload(admin, { category: 'profile', entityType: 'user', entityId: ALICE });
      expect(avatar.status).toBe(403);
      expect((await upload(admin, { category: 'plant-photo', entityType: 'plant', entityId: plantId })).status).toBe(
        201,
      );
    });
  });

  describe('the images of a listing', () => {
    it("refuses a listing that borrows Alice's files as Bob's images, created or changed", async () => {
      const alicesPhoto = await fileOf(alice, { category: 'product' });
      const bobsPdf = await fileOf(bob, { category: 'other' }, 'document');
      const bobsPhoto = await fileOf(bob, { category: 'product' });
      const deleted = await fileOf(bob, { category: 'product' });
      expect((await api('DELETE', `/api/upload/${deleted}`, bob)).status).toBe(200);
      const mine = async () => (await api('GET', `/api/marketplace/listings?sellerId=${BOB}`, bob)).body.data;
      expect(await mine()).toEqual([]);

      const borrowed = await api(
        'POST',
        '/api/marketplace/listings',
        bob,
        listingInput({ imageFileIds: [bobsPhoto, alicesPhoto] }),
      );
      // Alice's private file is, to Bob, a file that does not exist.
      expect(borrowed.status).toBe(404);
      expect(borrowed.body.error).toMatchObject({ code: 'NOT_FOUND', details: { field: 'imageFileIds.1' } });
      const notImage = await api('POST', '/api/marketplace/listings', bob, listingInput({ imageFileIds: [bobsPdf] }));
      expect(notImage.status).toBe(400);
      expect(notImage.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { reason: 'not-an-image' } });
      const gone = await api('POST', '/api/marketplace/listings', bob, listingInput({ imageFileIds: [deleted] }));
      expect(gone.status).toBe(404);
      expect(await mine()).toEqual([]);

      const created = await api('POST', '/api/marketplace/listings', bob, listingInput({ imageFileIds: [bobsPhoto] }));
      expect(created.status).toBe(201);
      const listingId = created.body.data.id as string;
      const patch = (imageFileIds: string[]) =>
        api('PATCH', `/api/marketplace/listings/${listingId}`, bob, { imageFileIds });
      expect((await patch([alicesPhoto])).status).toBe(404);
      expect((await patch([bobsPdf])).status).toBe(400);
      expect((await patch(['fil_01HZX3K6Q2W8N4B7T5R9V0C1MD'])).status).toBe(404);
      const after = await api('GET', `/api/marketplace/listings/${listingId}`, bob);
      // Unchanged; the read adds the gallery, Bob's photo only.
      expect(after.body.data).toMatchObject(created.body.data);
      expect((after.body.data.photos as { id: string }[]).map((ph) => ph.id)).toEqual([bobsPhoto]);
      const moved = await patch([bobsPhoto, bobsPhoto]);
      expect(moved.status).toBe(200);
      expect(moved.body.data.imageFileIds).toEqual([bobsPhoto, bobsPhoto]);
    });
  });
});
