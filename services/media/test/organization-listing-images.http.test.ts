import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { service as demand } from '@rootline/demand';
import { seedOrganization } from '@rootline/gateway/testing';
import type { ServiceModule } from '@rootline/host';
import { listingInput } from '@rootline/testing';
import type { TObject } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, photo } from './fixtures.js';
import { type MediaPlatform, startMediaPlatform } from './support.js';

/**
 * A listing an organization sells shows the organization's images: those uploaded while acting for it (media records
 * the organization as their owner), not a member's own nor another organization's, and a member's own listing does
 * not borrow the organization's either (demand asks media who owns each file).
 */
describe('images of an organization’s listings', () => {
  let dataDir: string;
  let p: MediaPlatform;
  let coop: string;
  let other: string;
  let token: string;

  const headers = (actAs: string | null) => ({
    authorization: `Bearer ${token}`,
    ...(actAs ? { 'rootline-act-as': actAs } : {}),
  });
  const upload = async (actAs: string | null) => {
    const body = await form({}, { data: await photo(), name: 'leaf.jpg', type: 'image/jpeg' });
    const res = await p.inject({
      method: 'POST',
      url: '/api/upload/image',
      headers: { ...body.headers, ...headers(actAs) },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; ownerId: string };
  };
  const api = async (method: string, url: string, actAs: string | null, payload?: object) => {
    const res = await p.inject({
      method: method as 'POST',
      url,
      headers: headers(actAs),
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rootline-data-'));
    p = await startMediaPlatform(
      {
        STORAGE_DRIVER: 'local',
        DATA_DIR: dataDir,
        STORAGE_SIGNING_SECRET: 'local-signing-secret-for-the-tests-0123456789',
      },
      [demand] as unknown as ServiceModule<TObject>[],
    );
    token = await p.token('USER', 'usr_orgimg_member', 'Mira');
    coop = await seedOrganization(p.database, 'Seed Swap Co-op', { usr_orgimg_member: 'member' });
    other = await seedOrganization(p.database, 'Other Growers', { usr_orgimg_member: 'member' });
  });
  afterAll(async () => {
    await p?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('takes only images uploaded while acting for the same organization', async () => {
    const own = await upload(null);
    const forCoop = await upload(coop);
    const forOther = await upload(other);
    expect(own.ownerId).toBe('usr_orgimg_member');
    expect(forCoop.ownerId).toBe(coop);
    expect(forOther.ownerId).toBe(other);

    for (const [i, id] of [own.id, forOther.id].entries()) {
      const refused = await api('POST', '/api/marketplace/listings', coop, listingInput({ imageFileIds: [id] }));
      expect(refused.status, `case ${i}`).toBe(404);
      expect(refused.body.error).toMatchObject({ code: 'NOT_FOUND', details: { field: 'imageFileIds.0' } });
    }
    const made = await api('POST', '/api/marketplace/listings', coop, listingInput({ imageFileIds: [forCoop.id] }));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data).toMatchObject({ sellerId: coop, imageFileIds: [forCoop.id] });
    // Changing its images holds to the same rule.
    const url = `/api/marketplace/listings/${made.body.data.id}`;
    expect((await api('PATCH', url, coop, { imageFileIds: [forCoop.id, own.id] })).status).toBe(404);
    expect((await api('PATCH', url, coop, { imageFileIds: [forCoop.id, forCoop.id] })).status).toBe(200);

    // The member's own listing does not borrow the organization's image.
    const mine = await api('POST', '/api/marketplace/listings', null, listingInput({ imageFileIds: [forCoop.id] }));
    expect(mine.status).toBe(404);
    expect(
      (await api('POST', '/api/marketplace/listings', null, listingInput({ imageFileIds: [own.id] }))).status,
    ).toBe(201);
  });
});
