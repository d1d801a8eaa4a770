import {
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hash,
  hkdfSync,
  sign,
  verify,
} from 'node:crypto';
import { createNatsBus } from '@rootline/bus';
import { buildGateway, GatewayConfig, ledgerTransaction } from '@rootline/gateway/testing';
import { createLogger, loadConfig } from '@rootline/host';
import { anonymousPlantInput, cloneInput, plantInput, TEST_JWT_SECRET } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlantsPlatform, type TestPlatform } from './support.js';

const R = 6371.0088;
function km(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

// An exact point with digits that would stand out anywhere they leaked.
const EXACT = { latitude: 52.367_812_3, longitude: 4.904_138_7, city: 'Amsterdam', country: 'NL' };
const LEAKS = ['52.3678123', '4.9041387'];

describe('location privacy and anonymous registration over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  let grower: string;
  let reader: string;

  beforeAll(async () => {
    p = await startPlantsPlatform();
    grower = await p.token('GROWER', 'usr_test');
    reader = await p.token('USER', 'usr_reader');
  });
  afterAll(async () => p?.stop());

  const getPlant = async (id: string) => (await p.http('GET', `/api/plants/${id}`, { token: reader })).body.data;
  /** Everything stored about a plant: its row, and its ledger transaction as hashed. */
  async function stored(plantId: string, txId: string): Promise<string> {
    const row = await p.database.db.execute(sql`select * from plants.plants where id = ${plantId}`);
    const tx = await ledgerTransaction(p, txId);
    return JSON.stringify([row, tx]);
  }
  async function ledgerPayload(txId: string): Promise<Record<string, unknown>> {
    return JSON.parse((await ledgerTransaction(p, txId)).payload);
  }
  async function registerAt(privacyLevel?: string) {
    const body = { ...plantInput({ location: EXACT }), ...(privacyLevel ? { privacyLevel } : {}) };
    const res = await p.http('POST', '/api/plants/register', { token: grower, body });
    expect(res.status).toBe(201);
    return getPlant(res.body.data.id);
  }

  describe('privacy levels, applied before storage and before the ledger', () => {
    it('exact (the default): stores, returns and records the point unchanged', async () => {
      const plant = await registerAt();
      expect(plant.privacyLevel).toBe('exact');
      expect(plant.location).toEqual(EXACT);
      expect((await ledgerPayload(plant.block.txId)).location).toEqual(EXACT);
    });

    it('fuzzy: moves the point 1 to 5 km; neither the table nor the block holds the exact point', async () => {
      for (let i = 0; i < 5; i++) {
        const plant = await registerAt('fuzzy');
        const d = km(EXACT, plant.location);
        expect(d).toBeGreaterThanOrEqual(1 - 1e-9);
        expect(d).toBeLessThanOrEqual(5 + 1e-9);
        expect(plant.location).toMatchObject({ city: 'Amsterdam', country: 'NL' });
        expect((await ledgerPayload(plant.block.txId)).location).toEqual(plant.location);
        const everything = await stored(plant.id, plant.block.txId);
        for (const leak of LEAKS) expect(everything).not.toContain(leak);
      }
    });

    it('city: the centre of a ~10 km cell (at most 7.1 km away), the same for every point of the cell', async () => {
      const plant = await registerAt('city');
      expect(km(EXACT, plant.location)).toBeLessThanOrEqual(7.1);
      expect(plant.location).toMatchObject({ city: 'Amsterdam', country: 'NL' });
      const neighbour = await p.http('POST', '/api/plants/register', {
        token: grower,
        body: plantInput({ location: { ...EXACT, latitude: 52.37, longitude: 4.91 }, privacyLevel: 'city' }),
      });
      expect((await getPlant(neighbour.body.data.id)).location).toEqual(plant.location);
      expect((await ledgerPayload(plant.block.txId)).location).toEqual(plant.location);
      const everything = await stored(plant.id, plant.block.txId);
      for (const leak of LEAKS) expect(everything).not.toContain(leak);
    });

    it('country: the centre of a ~100 km cell (at most 71 km away), without the city', async () => {
      const plant = await registerAt('country');
      expect(km(EXACT, plant.location)).toBeLessThanOrEqual(71);
      expect(km(EXACT, plant.location)).toBeGreaterThan(0);
      expect(plant.location).not.toHaveProperty('city');
      expect(plant.location.country).toBe('NL');
      expect((await ledgerPayload(plant.block.txId)).location).toEqual(plant.location);
      const everything = await stored(plant.id, plant.block.txId);
      for (const leak of [...LEAKS, 'Amsterdam']) expect(everything).not.toContain(leak);
    });

    it('hidden: no location anywhere, and never in nearby', async () => {
      const plant = await registerAt('hidden');
      expect(plant.location).toBeNull();
      expect((await ledgerPayload(plant.block.txId)).location).toBeNull();
      const everything = await stored(plant.id, plant.block.txId);
      for (const leak of [...LEAKS, 'Amsterdam', '"NL"']) expect(everything).not.toContain(leak);
      const near = await p.http(
        'GET',
        `/api/plants/nearby?lat=${EXACT.latitude}&lon=${EXACT.longitude}&radius=500&limit=100`,
        {
          token: reader,
        },
      );
      expect(near.body.data.map((x: { id: string }) => x.id)).not.toContain(plant.id);
    });

    it('distances are measured on the obfuscated point', async () => {
      const plant = await registerAt('city');
      const atCentre = await p.http(
        'GET',
        `/api/plants/nearby?lat=${plant.location.latitude}&lon=${plant.location.longitude}&radius=1&limit=100`,
        { token: reader },
      );
      const hit = atCentre.body.data.find((x: { id: string }) => x.id === plant.id);
      expect(hit.distanceKm).toBeCloseTo(0, 9);
      const fromExact = await p.http(
        'GET',
        `/api/plants/nearby?lat=${EXACT.latitude}&lon=${EXACT.longitude}&limit=100`,
        {
          token: reader,
        },
      );
      const again = fromExact.body.data.find((x: { id: string }) => x.id === plant.id);
      expect(again.distanceKm).toBeCloseTo(km(EXACT, plant.location), 6);
      expect(again.distanceKm).toBeGreaterThan(0);
    });

    it('applies to propagated plants too', async () => {
      const parent = await registerAt();
      const res = await p.http('POST', '/api/plants/clone', {
        token: grower,
        body: cloneInput(parent.id, {
          newPlant: { location: EXACT, owner: { id: 'usr_test' }, privacyLevel: 'country' },
        }),
      });
      expect(res.status).toBe(201);
      const child = await getPlant(res.body.data.id);
      expect(child.privacyLevel).toBe('country');
      expect(child.location).not.toHaveProperty('city');
      expect(km(EXACT, child.location)).toBeLessThanOrEqual(71);
      const tx = await ledgerPayload(child.block.txId);
      expect(tx.location).toEqual(child.location);
      for (const leak of LEAKS) expect(JSON.stringify(tx)).not.toContain(leak);
    });
  });

  describe('POST /api/plants/register-anonymous', () => {
    it('needs no account; gives an anonymous id, a wallet from a fresh key pair, and an encrypted contact', async () => {
      const input = anonymousPlantInput({ commonName: 'Wild Garlic', pseudonym: 'forager' });
      const res = await p.http('POST', '/api/plants/register-anonymous', { body: input });
      expect(res.status).toBe(201);
      const a = res.body.data;
      expect(a.id).toMatch(/^plt_/);
      expect(a.blockHash).toMatch(/^[0-9a-f]{64}$/);
      expect(a.anonymousId).toMatch(/^anon_[0-9A-Z]{26}$/);
      expect(a.pseudonym).toBe('forager');
      expect(a.encryptionPublicKey).toBeNull();
      // The wallet address is the hash of the public key, and the private key signs for that public key.
      expect(a.walletAddress).toBe(`rlw_${hash('sha256', Buffer.from(a.publicKey, 'base64url'), 'hex').slice(0, 40)}`);
      const privateKey = createPrivateKey({
        key: { kty: 'OKP', crv: 'Ed25519', d: a.privateKey, x: a.publicKey },
        format: 'jwk',
      });
      const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: a.publicKey }, format: 'jwk' });
      const challenge = Buffer.from(`rootline-ownership:${a.id}:${a.walletAddress}:challenge-1`);
      expect(verify(null, challenge, publicKey, sign(null, challenge, privateKey))).toBe(true);
      // The contact opens with a key derived from the private key.
      const e = a.anonymousContact.encrypted;
      expect(e.algorithm).toBe('ed25519-seed-hkdf-sha256-aes-256-gcm');
      const key = Buffer.from(
        hkdfSync('sha256', Buffer.from(a.privateKey, 'base64url'), Buffer.alloc(0), 'rootline anonymous contact', 32),
      );
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(e.iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(e.tag, 'base64url'));
      const handle = Buffer.concat([
        decipher.update(Buffer.from(e.ciphertext, 'base64url')),
        decipher.final(),
      ]).toString();
      expect(handle).toBe(a.anonymousContact.handle);

      const plant = await getPlant(a.id);
      expect(plant).toMatchObject({
        commonName: 'Wild Garlic',
        owner: { id: a.anonymousId, name: 'forager' },
        walletAddress: a.walletAddress,
        privacyLevel: 'fuzzy',
        generation: 0,
      });
      // Anonymous registrations default to fuzzy.
      const d = km(input.location, plant.location);
      expect(d).toBeGreaterThanOrEqual(1 - 1e-9);
      expect(d).toBeLessThanOrEqual(5 + 1e-9);
      const tx = await ledgerPayload(plant.block.txId);
      expect(tx).toMatchObject({ walletAddress: a.walletAddress, owner: { id: a.anonymousId, name: 'forager' } });
    });

    it('stores no personal information and never the private key or the contact in clear', async () => {
      const res = await p.http('POST', '/api/plants/register-anonymous', { body: anonymousPlantInput() });
      const a = res.body.data;
      const owner = (await p.database.db.execute(
        sql`select * from plants.anonymous_owners where anonymous_id = ${a.anonymousId}`,
      )) as unknown as Record<string, unknown>[];
      expect(Object.keys(owner[0]!).sort()).toEqual([
        'anonymous_id',
        'encrypted_contact',
        'encryption_public_key',
        'pseudonym',
        'public_key',
        'sealed_private_key',
        'wallet_address',
      ]);
      // A key sent in clear is kept nowhere, not even sealed.
      expect(owner[0]).toMatchObject({
        public_key: a.publicKey,
        wallet_address: a.walletAddress,
        pseudonym: null,
        sealed_private_key: null,
      });
      const plant = await getPlant(a.id);
      expect(plant.owner).toEqual({ id: a.anonymousId, name: 'Anonymous grower' });
      const row = (await p.database.db.execute(
        sql`select registered_by from plants.plants where id = ${a.id}`,
      )) as unknown as { registered_by: string | null }[];
      expect(row[0]?.registered_by).toBeNull();
      const everything = JSON.stringify([owner, await stored(a.id, plant.block.txId)]);
      expect(everything).not.toContain(a.privateKey);
      expect(everything).not.toContain(a.anonymousContact.handle);
    });

    it('encrypts the contact to the caller’s X25519 key when given', async () => {
      const mine = generateKeyPairSync('x25519');
      const x = mine.publicKey.export({ format: 'jwk' }).x!;
      const res = await p.http('POST', '/api/plants/register-anonymous', {
        body: anonymousPlantInput({ encryptionPublicKey: x }),
      });
      expect(res.status).toBe(201);
      const a = res.body.data;
      expect(a.encryptionPublicKey).toBe(x);
      const e = a.anonymousContact.encrypted;
      expect(e.algorithm).toBe('x25519-hkdf-sha256-aes-256-gcm');
      const shared = diffieHellman({
        privateKey: mine.privateKey,
        publicKey: createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: e.ephemeralPublicKey }, format: 'jwk' }),
      });
      const key = Buffer.from(
        hkdfSync('sha256', shared, Buffer.from(e.ephemeralPublicKey, 'base64url'), 'rootline anonymous contact', 32),
      );
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(e.iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(e.tag, 'base64url'));
      expect(
        Buffer.concat([decipher.update(Buffer.from(e.ciphertext, 'base64url')), decipher.final()]).toString(),
      ).toBe(a.anonymousContact.handle);
    });

    it('takes the public key of a key pair the client made: the private key never reaches Rootline', async () => {
      const mine = generateKeyPairSync('ed25519');
      const jwk = mine.privateKey.export({ format: 'jwk' });
      const res = await p.http('POST', '/api/plants/register-anonymous', {
        body: anonymousPlantInput({ pseudonym: 'keeper', publicKey: jwk.x }),
      });
      expect(res.status).toBe(201);
      const a = res.body.data;
      expect(a.publicKey).toBe(jwk.x);
      expect(a.privateKey).toBeNull();
      expect(a.walletAddress).toBe(`rlw_${hash('sha256', Buffer.from(jwk.x!, 'base64url'), 'hex').slice(0, 40)}`);
      expect(a.anonymousContact.encrypted.algorithm).toBe('x25519-hkdf-sha256-aes-256-gcm');
      const plant = await getPlant(a.id);
      expect(plant.walletAddress).toBe(a.walletAddress);
      expect(JSON.stringify(await stored(a.id, plant.block.txId))).not.toContain(jwk.d);
      // A challenge signed with the client's own private key verifies against the key on record.
      const challenge = Buffer.from(`rootline-ownership:${a.id}:${a.walletAddress}:challenge-2`);
      const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: a.publicKey }, format: 'jwk' });
      expect(verify(null, challenge, publicKey, sign(null, challenge, mine.privateKey))).toBe(true);
    });

    it('refuses a public key that is not an Ed25519 point, naming the field', async () => {
      const res = await p.http('POST', '/api/plants/register-anonymous', {
        body: anonymousPlantInput({ publicKey: 'not-a-key' }),
      });
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain('body/publicKey');
    });

    it.each([
      ['an owner (personal data)', { owner: { id: 'usr_1', name: 'Ada Lovelace' } }, 'body/owner'],
      ['a malformed encryption key', { encryptionPublicKey: 'not-a-key' }, 'body/encryptionPublicKey'],
      ['a long pseudonym', { pseudonym: 'p'.repeat(61) }, 'body/pseudonym'],
      ['no location', { location: undefined }, 'body/location'],
    ])('refuses %s with 400 VALIDATION_ERROR naming the field', async (_n, change, field) => {
      const res = await p.http('POST', '/api/plants/register-anonymous', {
        body: { ...anonymousPlantInput(), ...change },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('refuses an encryption key no secret can be agreed with (400, not 500)', async () => {
      const res = await p.http('POST', '/api/plants/register-anonymous', {
        body: anonymousPlantInput({ encryptionPublicKey: 'A'.repeat(43) }),
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('encryptionPublicKey'),
      });
    });

    it('does not log the client address of an anonymous registration', async () => {
      const lines: string[] = [];
      const log = createLogger('gateway', 'info', { write: (line: string) => void lines.push(line) });
      const bus = await createNatsBus({ url: p.infra.nats.url, name: 'gateway-logged' });
      const config = loadConfig(GatewayConfig, { JWT_SECRET: TEST_JWT_SECRET, BCRYPT_COST: '4', LOG_LEVEL: 'info' });
      const app = await buildGateway({ bus, log, config, database: p.database });
      try {
        const anonymous = await app.inject({
          method: 'POST',
          url: '/api/plants/register-anonymous',
          payload: anonymousPlantInput(),
          remoteAddress: '203.0.113.7',
        });
        expect(anonymous.statusCode).toBe(201);
        expect(lines.join('\n')).not.toContain('203.0.113.7');
        // The same gateway does log the address of other requests, so the check above can fail.
        await app.inject({ method: 'GET', url: '/api/health/live', remoteAddress: '198.51.100.9' });
        await app.inject({ method: 'GET', url: '/api/plants/network', remoteAddress: '198.51.100.9' });
        expect(lines.join('\n')).toContain('198.51.100.9');
      } finally {
        await app.close();
        await bus.close();
      }
    });
  });
});
