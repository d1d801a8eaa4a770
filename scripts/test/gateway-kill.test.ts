import { createHash, createPrivateKey, createPublicKey, randomUUID, sign, verify, webcrypto } from 'node:crypto';
import { type ApiResponse, anonymousPlantInput, api, plantInput, type TestDatabase } from '@rootline/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterHandle, waitReady } from '../src/cluster-host.js';
import { startTestCluster, type TestCluster } from './test-cluster.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const subtle = webcrypto.subtle;

/** Answers that are not yet an answer: the key is held (409), or the gateway is down or not ready. */
const NOT_YET = [409, 502, 503, 504];
/** Every retried write must have its definite answer this soon after the restarted gateway is ready. */
const ANSWER_WITHIN_MS = 10_000;

/** A client's X25519 key pair made with WebCrypto, as a browser makes it; the public half in base64url. */
async function x25519(): Promise<{ keys: webcrypto.CryptoKeyPair; publicKey: string }> {
  const keys = (await subtle.generateKey({ name: 'X25519' }, true, ['deriveBits'])) as webcrypto.CryptoKeyPair;
  return { keys, publicKey: Buffer.from(await subtle.exportKey('raw', keys.publicKey)).toString('base64url') };
}

interface Sealed {
  algorithm: string;
  ephemeralPublicKey: string;
  iv: string;
  ciphertext: string;
  tag: string;
}

/** Opens `encryptedPrivateKey` with WebCrypto only (ECDH X25519, HKDF-SHA256, AES-256-GCM), as a browser would. */
async function openSealed(sealed: Sealed, own: webcrypto.CryptoKeyPair): Promise<string> {
  const b = (s: string) => Buffer.from(s, 'base64url');
  const ephemeral = await subtle.importKey('raw', b(sealed.ephemeralPublicKey), { name: 'X25519' }, false, []);
  const shared = await subtle.deriveBits({ name: 'X25519', public: ephemeral }, own.privateKey, 256);
  const hkdf = await subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  const aes = await subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: b(sealed.ephemeralPublicKey),
      info: Buffer.from('rootline anonymous private key'),
    },
    hkdf,
    { name: 'AES-GCM', length: 256 },
    false,
    ['decrypt'],
  );
  const seed = await subtle.decrypt(
    { name: 'AES-GCM', iv: b(sealed.iv) },
    aes,
    Buffer.concat([b(sealed.ciphertext), b(sealed.tag)]),
  );
  return Buffer.from(seed).toString('base64url');
}

/** An Ed25519 private key from its 32-byte seed (PKCS#8 wrapping of RFC 8410). */
const ed25519FromSeed = (seed: string) =>
  createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(seed, 'base64url')]),
    format: 'der',
    type: 'pkcs8',
  });

const walletOf = (publicKey: string) =>
  `rlw_${createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('hex').slice(0, 40)}`;

/**
 * Proves ownership as docs/plants.md describes: a signature over `rootline-ownership:<plant>:<wallet>:<challenge>`
 * that verifies against the public key, which hashes to the wallet address the ledger holds for the plant.
 */
function provesOwnership(
  privateKey: ReturnType<typeof createPrivateKey>,
  publicKey: string,
  plantId: string,
  ledgerWallet: string,
): boolean {
  const text = Buffer.from(`rootline-ownership:${plantId}:${ledgerWallet}:${randomUUID()}`);
  const signature = sign(null, text, privateKey);
  const pub = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey }, format: 'jwk' });
  return walletOf(publicKey) === ledgerWallet && verify(null, text, pub, signature);
}

/** One write a client sends with its Idempotency-Key, then retries after the gateway died. */
interface Write {
  kind: 'register' | 'anonymous-sealed' | 'anonymous-own-key';
  key: string;
  body: { commonName: string } & Record<string, unknown>;
  token?: string;
  /** The client's X25519 key pair (anonymous-sealed) or Ed25519 key pair (anonymous-own-key). */
  x25519?: webcrypto.CryptoKeyPair;
  ed25519?: { privateKey: ReturnType<typeof createPrivateKey> };
  answer?: ApiResponse;
  answeredAt?: number;
}

const send = (url: string, w: Write) =>
  api(url, w.kind === 'register' ? '/api/plants/register' : '/api/plants/register-anonymous', {
    body: w.body,
    headers: { 'idempotency-key': w.key },
    ...(w.token ? { token: w.token } : {}),
  });

/**
 * kill -9 of the gateway while it holds the Idempotency-Keys of registrations in flight (cluster mode: real
 * processes, a private nats-server and PostgreSQL database). Their clients retry with the same key and body; with
 * the keys' leases dying with their holder, every retry has its definite answer within seconds of the restart, each
 * write is stored once, and an anonymous client whose first answer was lost still ends with a key that proves it
 * owns its plant, while another caller repeating its Idempotency-Key learns nothing secret.
 */
describe('cluster mode: writes in flight when the gateway is killed', () => {
  let t: TestCluster;
  let db: TestDatabase;
  let sql: postgres.Sql;
  let cluster: ClusterHandle;
  let token: string;

  beforeAll(async () => {
    // The Idempotency-Key lease at its default: what a deployment runs with. Bus calls wait long enough for the
    // held registrations not to time out before the kill, however slowly a loaded machine writes their intents.
    t = await startTestCluster({ env: { LOG_LEVEL: 'error', CHAIN_DIFFICULTY: '10', REQUEST_TIMEOUT_MS: '15000' } });
    ({ db, cluster, token } = t);
    sql = postgres(db.url, { max: 2, onnotice: () => {} });
  }, 120_000);

  afterAll(async () => {
    await sql?.end();
    await t?.stop();
  });

  it('answers every retried write within 10 s of the restart, stores each once, and keeps anonymous keys (lost key, minute-long lock regression)', async () => {
    const writes: Write[] = [];
    for (let i = 0; i < 8; i++) {
      const key = randomUUID();
      writes.push({ kind: 'register', key, token, body: plantInput({ commonName: `Held ${i} ${key.slice(0, 8)}` }) });
    }
    for (let i = 0; i < 6; i++) {
      const key = randomUUID();
      const own = await x25519();
      writes.push({
        kind: 'anonymous-sealed',
        key,
        x25519: own.keys,
        body: anonymousPlantInput({
          commonName: `Sealed ${i} ${key.slice(0, 8)}`,
          keyEncryptionPublicKey: own.publicKey,
        }),
      });
    }
    for (let i = 0; i < 4; i++) {
      const key = randomUUID();
      const pair = (await subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
      const jwk = await subtle.exportKey('jwk', pair.privateKey);
      writes.push({
        kind: 'anonymous-own-key',
        key,
        ed25519: { privateKey: ed25519FromSeed(jwk.d!) },
        body: anonymousPlantInput({ commonName: `Own key ${i} ${key.slice(0, 8)}`, publicKey: jwk.x! }),
      });
    }

    // The ledger is frozen, so every registration is held in plants, its key held by the gateway, when it dies.
    const miner = cluster.processes.get('chain-miner')!.pid!;
    const gateway = cluster.processes.get('gateway')!;
    process.kill(miner, 'SIGSTOP');
    let killedAt: number;
    try {
      const first = writes.map((w) => send(cluster.url, w).catch(() => undefined));
      await expect
        .poll(async () => (await sql`select count(*)::int as n from plants.ledger_intents`)[0]!.n, {
          timeout: 20_000,
          interval: 20,
        })
        .toBe(writes.length);
      const [held] = await sql`select count(*)::int as n from identity.idempotency_keys where status is null`;
      expect(held!.n).toBe(writes.length);
      await gateway.kill('SIGKILL');
      killedAt = Date.now();
      const lost = await Promise.all(first);
      expect(lost.filter((r) => r !== undefined)).toEqual([]);
    } finally {
      process.kill(miner, 'SIGCONT');
    }

    // The clients retry with the same key and body, as after a timeout, while the gateway comes back.
    let running = true;
    const retry = async (w: Write) => {
      while (running) {
        const res = await send(cluster.url, w).catch(() => undefined);
        if (res && !NOT_YET.includes(res.status)) {
          w.answer = res;
          w.answeredAt = Date.now();
          return;
        }
        await sleep(200);
      }
    };
    const retries = writes.map(retry);
    await sleep(300);
    gateway.restart();
    await waitReady(cluster.url, 60_000);
    const readyAt = Date.now();
    await Promise.race([Promise.all(retries), sleep(ANSWER_WITHIN_MS + 10_000)]);
    running = false;
    await Promise.all(retries);

    // Every retried write has its definite answer, 201, within 10 s of the restart.
    const late = writes
      .filter((w) => w.answeredAt === undefined || w.answeredAt - readyAt > ANSWER_WITHIN_MS)
      .map((w) => `${w.body.commonName}: ${w.answer ? JSON.stringify(w.answer.body) : 'no answer'}`);
    expect(late, `gateway ready ${readyAt - killedAt} ms after the kill`).toEqual([]);
    expect(writes.map((w) => w.answer!.status)).toEqual(writes.map(() => 201));

    // Each write is stored once, as the plant it was answered with, with one ledger transaction.
    const names = writes.map((w) => w.body.commonName);
    const stored = await sql<{ common_name: string; id: string; wallet_address: string | null }[]>`
      select common_name, id, wallet_address from plants.plants where common_name = any(${names})`;
    expect(stored).toHaveLength(writes.length);
    const byName = new Map(stored.map((r) => [r.common_name, r]));
    for (const w of writes) expect(byName.get(w.body.commonName)?.id).toBe(w.answer!.body.data.id);
    const ids = stored.map((r) => r.id);
    const ledger = await sql<{ plant_id: string; wallet: string | null }[]>`
      select payload::jsonb->>'plantId' as plant_id, payload::jsonb->>'walletAddress' as wallet
      from chain.transactions where type = 'plant.register' and payload::jsonb->>'plantId' = any(${ids})`;
    expect(ledger.map((r) => r.plant_id).sort()).toEqual([...ids].sort());
    const walletOnLedger = new Map(ledger.map((r) => [r.plant_id, r.wallet]));

    // Each anonymous client ends with a key that proves it owns its plant.
    for (const w of writes.filter((x) => x.kind !== 'register')) {
      const data = w.answer!.body.data;
      expect(data.privateKey).toBeNull();
      const privateKey =
        w.kind === 'anonymous-sealed'
          ? ed25519FromSeed(await openSealed(data.encryptedPrivateKey, w.x25519!))
          : w.ed25519!.privateKey;
      expect(
        provesOwnership(privateKey, data.publicKey, data.id, walletOnLedger.get(data.id)!),
        w.body.commonName,
      ).toBe(true);
    }

    // Another caller repeating an anonymous client's Idempotency-Key learns nothing secret: with a key of its own to
    // seal to, the body differs (422); with the very same body, it gets the sealed key it cannot open.
    const alice = writes.find((w) => w.kind === 'anonymous-sealed')!;
    const aliceSeed = await openSealed(alice.answer!.body.data.encryptedPrivateKey, alice.x25519!);
    const bob = await x25519();
    const other = await send(cluster.url, { ...alice, body: { ...alice.body, keyEncryptionPublicKey: bob.publicKey } });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const same = await send(cluster.url, alice);
    expect(same.status).toBe(201);
    expect(same.body.data.id).toBe(alice.answer!.body.data.id);
    expect(same.body.data.privateKey).toBeNull();
    expect(JSON.stringify(same.body)).not.toContain(aliceSeed);
    await expect(openSealed(same.body.data.encryptedPrivateKey, bob.keys)).rejects.toThrow();
  }, 180_000);
});
