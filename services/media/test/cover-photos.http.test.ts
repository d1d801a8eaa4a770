import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mediaPhotoCovers } from '@rootline/contracts';
import { service as demand } from '@rootline/demand';
import type { ServiceModule } from '@rootline/host';
import { listingInput, plantInput } from '@rootline/testing';
import type { TObject } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carriesLocation, form, photo } from './fixtures.js';
import { type MediaPlatform, startMediaPlatform } from './support.js';

const SECRET = 'local-signing-secret-for-the-tests-0123456789';
const ALICE = 'usr_alice';
const SIZES = ['150', '300', '600', '1200'];

interface Photo {
  id: string;
  alt: string;
  width: number | null;
  height: number | null;
  thumbnails: Record<string, string>;
  expiresAt: string;
}

/**
 * The photo each row of a list shows (ADR 203): plants' lists (search, nearby, my plants) answer each plant's newest
 * photo and listings' lists their first image, to visitors too, as square thumbnails whose bytes say nothing of
 * where the photo was taken; a listing's read answers its gallery.
 */
describe('cover photos on the list answers', () => {
  let dataDir: string;
  let p: MediaPlatform;
  let alice: string;

  const api = async (method: string, url: string, token?: string, payload?: object) => {
    const res = await p.inject({
      method: method as 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const upload = async (fields: Record<string, string>) => {
    const body = await form(fields, { data: await photo(), name: 'leaf.jpg', type: 'image/jpeg' });
    const res = await p.inject({
      method: 'POST',
      url: '/api/upload/image',
      headers: { ...body.headers, authorization: `Bearer ${alice}` },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id as string;
  };
  const register = async (commonName: string, latitude: number) => {
    const res = await api(
      'POST',
      '/api/plants/register',
      alice,
      plantInput({
        commonName,
        owner: { id: ALICE, name: 'Alice' },
        privacyLevel: 'exact',
        location: { latitude, longitude: 4.9 },
      }),
    );
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  /** Every thumbnail is served as WebP, with no location in its bytes. */
  const expectServable = async (cover: Photo) => {
    expect(Object.keys(cover.thumbnails).sort((a, b) => Number(a) - Number(b))).toEqual(SIZES);
    for (const url of Object.values(cover.thumbnails)) {
      const got = await p.inject({ method: 'GET', url });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe('image/webp');
      expect(await carriesLocation(got.rawPayload)).toBe(false);
    }
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rootline-data-'));
    p = await startMediaPlatform({ STORAGE_DRIVER: 'local', DATA_DIR: dataDir, STORAGE_SIGNING_SECRET: SECRET }, [
      demand,
    ] as unknown as ServiceModule<TObject>[]);
    alice = await p.token('USER', ALICE, 'Alice');
  });
  afterAll(async () => {
    await p?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("answers each plant's newest photo on search, nearby, my plants and the newest plants, and null for a plant without one", async () => {
    const shown = await register("Tomato 'Brandywine'", 40.1);
    const bare = await register("Tomato 'Brandywine' bare", 40.1001);
    await upload({ entityType: 'plant', entityId: shown });
    const newest = await upload({ entityType: 'plant', entityId: shown });
    // A file of no plant and a document never become a cover.
    await upload({});

    // The page's photos are asked of media once, for every plant of the page together: never row by row.
    const asked: { plantIds?: string[] }[] = [];
    const watch = await p.bus.listen(mediaPhotoCovers.subject, (payload) =>
      asked.push(payload as { plantIds?: string[] }),
    );
    const search = await api('GET', '/api/plants/search?q=Brandywine&type=species');
    await watch.stop();
    expect(search.status).toBe(200);
    expect(asked.map((a) => [...(a.plantIds ?? [])].sort())).toEqual([[shown, bare].sort()]);
    const hits = new Map((search.body.data as { id: string; coverPhoto: Photo | null }[]).map((h) => [h.id, h]));
    const cover = hits.get(shown)?.coverPhoto as Photo;
    expect(cover).toMatchObject({ id: newest, alt: "Photo of Tomato 'Brandywine'", width: 480, height: 640 });
    expect(hits.get(bare)?.coverPhoto).toBeNull();
    await expectServable(cover);

    const nearby = await api('GET', '/api/plants/nearby?lat=40.1&lon=4.9&radius=1');
    expect(nearby.status).toBe(200);
    const near = (nearby.body.data as { id: string; coverPhoto: Photo | null }[]).find((n) => n.id === shown);
    expect(near?.coverPhoto).toMatchObject({ id: newest, alt: "Photo of Tomato 'Brandywine'" });

    const owned = await api('GET', `/api/plants/owned/${ALICE}`, alice);
    expect(owned.status).toBe(200);
    const mine = owned.body.data as { id: string; coverPhoto: Photo | null }[];
    expect(mine.find((o) => o.id === shown)?.coverPhoto?.id).toBe(newest);
    expect(mine.find((o) => o.id === bare)?.coverPhoto).toBeNull();

    // The landing page's newest plants, read by a visitor, carry their covers too.
    const recent = await api('GET', '/api/plants/recent?limit=10');
    expect(recent.status).toBe(200);
    const newestPlants = recent.body.data as { id: string; coverPhoto: Photo | null }[];
    expect(newestPlants.find((r) => r.id === shown)?.coverPhoto).toMatchObject({ id: newest });
    expect(newestPlants.find((r) => r.id === bare)?.coverPhoto).toBeNull();

    // Deleting the newest photo shows the one before it at once.
    expect((await api('DELETE', `/api/upload/${newest}`, alice)).status).toBe(200);
    const after = await api('GET', `/api/plants/owned/${ALICE}`, alice);
    const again = (after.body.data as { id: string; coverPhoto: Photo | null }[]).find((o) => o.id === shown);
    expect(again?.coverPhoto?.id).toBeDefined();
    expect(again?.coverPhoto?.id).not.toBe(newest);
  });

  it("answers a listing's first image on the lists and its gallery on its read, to visitors", async () => {
    const first = await upload({});
    const second = await upload({});
    const created = await api(
      'POST',
      '/api/marketplace/listings',
      alice,
      listingInput({ title: 'Brandywine seedlings', status: 'active', imageFileIds: [first, second] }),
    );
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const draft = await api(
      'POST',
      '/api/marketplace/listings',
      alice,
      listingInput({ title: 'Hidden draft', status: 'draft', imageFileIds: [second] }),
    );
    expect(draft.status).toBe(201);

    const list = await api('GET', `/api/marketplace/listings?sellerId=${ALICE}`);
    expect(list.status).toBe(200);
    const rows = list.body.data as { id: string; coverPhoto: Photo | null }[];
    expect(rows.map((r) => r.id)).toEqual([id]);
    expect(rows[0]?.coverPhoto).toMatchObject({ id: first, alt: 'Photo of Brandywine seedlings' });
    await expectServable(rows[0]?.coverPhoto as Photo);

    const search = await api('GET', '/api/marketplace/listings/search?q=brandywine');
    expect(search.status).toBe(200);
    expect((search.body.data as { id: string; coverPhoto: Photo | null }[])[0]?.coverPhoto?.id).toBe(first);

    const read = await api('GET', `/api/marketplace/listings/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.coverPhoto.id).toBe(first);
    expect((read.body.data.photos as Photo[]).map((ph) => [ph.id, ph.alt])).toEqual([
      [first, 'Photo 1 of 2 of Brandywine seedlings'],
      [second, 'Photo 2 of 2 of Brandywine seedlings'],
    ]);
  });
});
