import { createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeliveredEvent } from '@rootline/bus';
import { plantRegistered } from '@rootline/contracts';
import { api, plantInput, signInOverHttp, TEST_ADMIN, TEST_ADMIN_ENV, TEST_JWT_SECRET } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedHandle, startEmbedded } from '../src/embedded-host.js';

describe('embedded mode: the plant slice over HTTP', () => {
  let dataDir: string;
  let rootline: EmbeddedHandle;
  /** A GROWER's session: registered, promoted by the first ADMIN, signed in. */
  let token: string;
  let growerId: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rootline-embedded-'));
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
    // The documented first-ADMIN procedure: ADMIN_EMAIL and ADMIN_PASSWORD at start, then sign in.
    const admin = await signInOverHttp(rootline.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const grower = { email: 'grower@rootline.test', password: 'grower passphrase here', name: 'Grower' };
    const registered = await api(rootline.url, '/api/auth/register', { body: grower });
    growerId = registered.body.data.id;
    const promoted = await api(rootline.url, `/api/admin/users/${growerId}/role`, {
      method: 'PUT',
      token: admin,
      body: { role: 'GROWER' },
    });
    expect(promoted.status).toBe(200);
    token = await signInOverHttp(rootline.url, grower.email, grower.password);
  });
  afterAll(async () => {
    await rootline?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates the first ADMIN from the settings, who can promote accounts', async () => {
    const session = await api(rootline.url, '/api/auth/session', { token });
    expect(session.body.data.user).toMatchObject({ id: growerId, role: 'GROWER' });
    const admin = await signInOverHttp(rootline.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const me = await api(rootline.url, '/api/auth/session', { token: admin });
    expect(me.body.data.user).toMatchObject({ email: TEST_ADMIN.email, role: 'ADMIN', emailVerified: true });
  });

  it('is ready: every service answers', async () => {
    const res = await api(rootline.url, '/api/health/ready');
    expect(res.status).toBe(200);
  });

  it('registers a plant on a mined block, reads it back and emits plant.registered', async () => {
    const events: DeliveredEvent[] = [];
    const sub = await rootline.broker.connect('e2e').consume({
      durable: 'e2e-embedded',
      subject: plantRegistered.subject,
      handler: async (e) => {
        events.push(e);
      },
    });
    // The owner of a new plant is the caller.
    const input = plantInput({ commonName: 'Basil', owner: { id: growerId, name: 'Grower' } });
    const res = await api(rootline.url, '/api/plants/register', { token, body: input });
    expect(res.status).toBe(201);
    const body = res.body;
    expect(body.success).toBe(true);
    expect(body.error).toBeNull();
    expect(body.data.id).toMatch(/^plt_/);
    expect(body.data.blockHash).toMatch(/^0000[0-9a-f]{60}$/); // default difficulty: 16 leading zero bits
    expect(new Date(body.data.timestamp).toISOString()).toBe(body.data.timestamp);

    const got = await api(rootline.url, `/api/plants/${body.data.id}`, { token });
    expect(got.status).toBe(200);
    const plant = got.body.data;
    expect(plant).toMatchObject({ id: body.data.id, commonName: 'Basil', generation: 0, parentId: null });
    expect(plant.block.hash).toBe(body.data.blockHash);

    await expect.poll(() => events.length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(events.find((e) => (e.payload as { plantId: string }).plantId === body.data.id)?.payload).toEqual({
      plantId: body.data.id,
      commonName: 'Basil',
      scientificName: 'Solanum lycopersicum',
      privacyLevel: 'exact',
      ownerId: growerId,
      // As stored, after the privacy level (exact here): the public form that area-narrowed webhooks match.
      location: { latitude: 52.3701, longitude: 4.89, city: 'Amsterdam', country: 'NL' },
    });
    await sub.stop();
  });

  it('audits the registration and signs tree heads with a key generated once into DATA_DIR', async () => {
    const admin = await signInOverHttp(rootline.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const audited = async () =>
      (await api(rootline.url, '/api/transparency/audit?kind=plant.registered', { token: admin })).body.data as {
        actor: string;
      }[];
    await expect.poll(async () => (await audited()).length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect((await audited())[0]?.actor).toBe(growerId);
    const pem = await readFile(join(dataDir, 'transparency-signing-key.pem'), 'utf8');
    const key = await api(rootline.url, '/api/transparency/audit/public-key');
    expect(createPublicKey(createPrivateKey(pem)).export({ format: 'pem', type: 'spki' })).toBe(
      key.body.data.publicKeyPem,
    );
    const verified = await api(rootline.url, '/api/transparency/audit/verify', { token: admin });
    expect(verified.body.data).toMatchObject({ valid: true, firstInvalidIndex: null });
  });

  it('answers 404 NOT_FOUND in the envelope for an unknown plant', async () => {
    const res = await api(rootline.url, '/api/plants/plt_00000000000000000000000000', { token });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'NOT_FOUND' } });
  });
});
