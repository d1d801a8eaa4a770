import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNatsBus } from '@rootline/bus';
import { service as chainMiner } from '@rootline/chain-miner';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { createLogger, startService } from '@rootline/host';
import { service as plants } from '@rootline/plants';
import { plantInput } from '@rootline/testing';
import { service as transport } from '@rootline/transport';
import { headerHash, keySetFrom, leadingZeroBits, openNote, parseCheckpoint, run } from '@rootline/verify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

const ORIGIN = 'rootline.test/audit';
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const pem = (k: KeyObject) => k.export({ format: 'pem', type: 'pkcs8' }).toString();
const keyA = generateKeyPairSync('ed25519');
const keyB = generateKeyPairSync('ed25519');

describe('public verifiability of the audit log and the ledger', () => {
  let p: TestPlatform;
  let dir: string;
  let base: string;
  let plantId: string;
  const extraBuses: { close(): Promise<void> }[] = [];

  /** Runs the verifier command line; answers its exit status and what it printed. */
  const verifier = async (...argv: string[]) => {
    const lines: string[] = [];
    const status = await run(argv, (l) => lines.push(l));
    return { status, out: lines.join('\n') };
  };
  const file = async (name: string, content: unknown) => {
    const path = join(dir, name);
    await writeFile(path, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content));
    return path;
  };
  const anon = (url: string) => p.http('GET', url);
  const data = async (url: string) => {
    const res = await anon(url);
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  /** The plant's bundle once the audit log has recorded its registration. */
  const bundle = async (id: string) => {
    for (let i = 0; i < 600; i++) {
      const b = await data(`/api/transparency/proofs/plants/${id}`);
      if (b.auditEntry) return b;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the audit log never recorded the registration');
  };
  const keysFile = async () => file('keys.json', (await anon('/api/transparency/audit/keys')).body);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rootline-verify-'));
    p = await startTestPlatform([chainMiner, plants, transport, transparency], {
      CHAIN_DIFFICULTY: '8',
      AUDIT_SIGNING_KEY: pem(keyA.privateKey),
      AUDIT_LOG_ORIGIN: ORIGIN,
    });
    const grower = await p.token('USER', 'usr_grower', 'Ada Grower');
    const made = await p.http('POST', '/api/plants/register', {
      token: grower,
      body: plantInput({ commonName: 'Heirloom tomato', owner: { id: 'usr_grower', name: 'Ada Grower' } }),
    });
    expect(made.status).toBe(201);
    plantId = made.body.data.id;
    await bundle(plantId);
    await p.http('POST', '/api/transparency/audit', {
      role: 'ADMIN',
      sub: 'usr_admin',
      body: { action: 'account-suspended', reason: 'Fraudulent listings by Bob Example', entity: 'usr_bob' },
    });
    await p.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(p.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await p?.stop();
    for (const b of extraBuses) await b.close().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  });

  it('serves checkpoints, proofs and public entries without an account, rate-limited and cacheable', async () => {
    const cp = await anon('/api/transparency/audit/checkpoint');
    expect(cp.status).toBe(200);
    expect(cp.headers.get('cache-control')).toBe('public, max-age=10');
    expect(cp.headers.get('x-ratelimit-limit')).not.toBeNull();
    const { treeSize } = cp.body.data;
    expect(treeSize).toBeGreaterThanOrEqual(2);
    for (const url of [
      '/api/transparency/audit/tree-head',
      '/api/transparency/audit/keys',
      '/api/transparency/audit/0/proof',
      `/api/transparency/audit/consistency?first=1`,
    ]) {
      const res = await anon(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining'), url).not.toBeNull();
    }
    const fixed = await anon(`/api/transparency/audit/0/proof?treeSize=${treeSize}`);
    expect(fixed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const consistent = await anon(`/api/transparency/audit/consistency?first=1&second=${treeSize}`);
    expect(consistent.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await anon('/api/transparency/audit/999999/public');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, data: null, error: { code: 'NOT_FOUND' } });
    expect(missing.headers.get('cache-control')).toBeNull();
    // The full entries stay ADMIN only.
    expect((await anon('/api/transparency/audit/0')).status).toBe(401);
  });

  it('shows a public registration whole (its leaf recomputes) and nothing personal of an admin entry', async () => {
    const b = await bundle(plantId);
    const entry = await anon(`/api/transparency/audit/${b.auditEntry.index}/public`);
    expect(entry.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(entry.body.data).toMatchObject({ kind: 'plant.registered', entity: plantId });
    expect(entry.body.data.entry).not.toBeNull();
    const all = await p.http('GET', '/api/transparency/audit?kind=admin.account-suspended', { role: 'ADMIN' });
    const admin = await data(`/api/transparency/audit/${all.body.data[0].index}/public`);
    expect(admin).toMatchObject({ source: 'admin', kind: 'admin', entity: null, data: null, entry: null });
    expect(JSON.stringify(admin)).not.toContain('Bob');
  });

  it('signs checkpoints as C2SP signed notes under the published verifier key', async () => {
    const cp = await data('/api/transparency/audit/checkpoint');
    const keys = await data('/api/transparency/audit/keys');
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ status: 'current', validUntil: null, noteKeyName: ORIGIN, keyId: cp.keyId });
    expect(keys[0].verifierKey).toMatch(new RegExp(`^${ORIGIN}\\+${cp.noteKeyId}\\+`));
    const { text } = openNote(
      cp.note,
      keySetFrom(keys).map((k) => k.note),
    );
    expect(parseCheckpoint(text)).toMatchObject({ origin: ORIGIN, size: cp.treeSize, rootHash: cp.rootHash });
    expect(cp.note).toBe(`${text}\n\u2014 ${ORIGIN} ${cp.note.split(' ').at(-1)}`);
    // One size, one note: the same bytes each time.
    expect((await data('/api/transparency/audit/checkpoint')).note).toBe(cp.note);
  });

  it('verifies a certificate, as JSON and as the PDF that embeds it, and fails one changed byte', async () => {
    const keys = await keysFile();
    const json = await file('cert.json', (await anon(`/api/transparency/certificate/${plantId}`)).body);
    expect(await verifier('certificate', json, '--keys', keys)).toMatchObject({ status: 0 });
    const pdf = await p.app.inject({ method: 'GET', url: `/api/transparency/certificate/${plantId}?format=pdf` });
    const ok = await verifier('certificate', await file('cert.pdf', pdf.rawPayload), '--keys', keys);
    expect(ok.status, ok.out).toBe(0);
    const signed = (await anon(`/api/transparency/certificate/${plantId}`)).body.data;
    const text = JSON.stringify(signed);
    // One byte of the plant's name changed.
    const tampered = await file('cert-bad.json', text.replace('Heirloom tomato', 'Heirloom tomatO'));
    const bad = await verifier('certificate', tampered, '--keys', keys);
    expect(bad.status).toBe(2);
    expect(bad.out).toContain('FAIL certificate signature');
  });

  it('verifies a plant’s proof bundle and refuses a block whose proof of work misses its difficulty', async () => {
    const keys = await keysFile();
    const b = await bundle(plantId);
    expect(await verifier('bundle', await file('bundle.json', b), '--keys', keys)).toMatchObject({ status: 0 });
    const tx = await data(`/api/transparency/proofs/transactions/${b.transaction.id}`);
    expect(tx.block.hash).toBe(b.block.hash);
    // A block re-hashed after its nonce changed: the hash is right for the header, the work is not there.
    const forged = structuredClone(b);
    for (let nonce = 0; ; nonce++) {
      forged.block.nonce = nonce;
      forged.block.hash = headerHash(forged.block);
      if (leadingZeroBits(forged.block.hash) < forged.block.difficulty) break;
    }
    const res = await verifier('bundle', await file('bundle-weak.json', forged), '--keys', keys);
    expect(res.status).toBe(2);
    expect(res.out).toContain('proof of work does not meet difficulty');
  });

  it('checks an entry’s inclusion in a checkpoint, and detects an entry altered in the database', async () => {
    const keys = await keysFile();
    const b = await bundle(plantId);
    const index = b.auditEntry.index;
    const cp = await data('/api/transparency/audit/checkpoint');
    const proof = await file(
      'proof.json',
      await data(`/api/transparency/audit/${index}/proof?treeSize=${cp.treeSize}`),
    );
    const entry = await file('entry.json', await data(`/api/transparency/audit/${index}/public`));
    const cpFile = await file('cp.json', cp);
    const ok = await verifier('inclusion', proof, '--checkpoint', cpFile, '--entry', entry, '--keys', keys);
    expect(ok.status, ok.out).toBe(0);

    await p.database.db.execute(
      sql`update transparency.audit_entries set body = replace(body, 'Heirloom tomato', 'Heirloom potato')
        where index = ${index}`,
    );
    const altered = await bundle(plantId);
    const res = await verifier('bundle', await file('bundle-altered.json', altered), '--keys', keys);
    expect(res.status).toBe(2);
    expect(res.out).toContain('FAIL audit entry content hashes to its leaf');
    await p.database.db.execute(
      sql`update transparency.audit_entries set body = replace(body, 'Heirloom potato', 'Heirloom tomato')
        where index = ${index}`,
    );
  });

  it('proves two checkpoints consistent, and refuses a checkpoint of a rewritten tree (a fork)', async () => {
    const keys = await keysFile();
    const first = await data('/api/transparency/audit/checkpoint');
    const older = await file('older.json', first);
    await p.http('POST', '/api/transparency/audit', {
      role: 'ADMIN',
      body: { action: 'listing-removed', reason: 'Counterfeit seeds' },
    });
    const second = await data('/api/transparency/audit/checkpoint');
    expect(second.treeSize).toBe(first.treeSize + 1);
    const newer = await file('newer.json', second);
    const proof = await file(
      'consistency.json',
      await data(`/api/transparency/audit/consistency?first=${first.treeSize}&second=${second.treeSize}`),
    );
    const ok = await verifier('consistency', older, newer, '--proof', proof, '--keys', keys);
    expect(ok.status, ok.out).toBe(0);

    // The platform's own key signing a checkpoint of another tree of the newer size: a fork.
    const rewritten = createHash('sha256').update('another history').digest();
    const text = `${ORIGIN}\n${second.treeSize}\n${rewritten.toString('base64')}\n`;
    const sig = Buffer.concat([Buffer.from(second.noteKeyId, 'hex'), sign(null, Buffer.from(text), keyA.privateKey)]);
    const forked = await file('forked.note', `${text}\n\u2014 ${ORIGIN} ${sig.toString('base64')}\n`);
    const fork = await verifier('consistency', older, forked, '--proof', proof, '--keys', keys);
    expect(fork.status).toBe(2);
    expect(fork.out).toContain('FAIL the older tree is a prefix of the newer (no fork)');

    // A checkpoint with one signature byte changed is refused as a bad signature.
    const note: string = second.note;
    const at = note.lastIndexOf(' ') + 10;
    const flipped = note.slice(0, at) + (note[at] === 'A' ? 'B' : 'A') + note.slice(at + 1);
    const badSig = await verifier(
      'consistency',
      older,
      await file('bad.note', flipped),
      '--proof',
      proof,
      '--keys',
      keys,
    );
    expect(badSig.status).toBe(2);
    expect(badSig.out).toContain('bad signature');
  });

  it('monitors the log over HTTP, keeps what it saw, and exits non-zero on a fork', async () => {
    const state = join(dir, 'monitor');
    const first = await verifier('monitor', base, '--state', state, '--once');
    expect(first.status, first.out).toBe(0);
    expect(first.out).toContain('first seen');
    await p.http('POST', '/api/transparency/audit', {
      role: 'ADMIN',
      body: { action: 'listing-removed', reason: 'Counterfeit seeds again' },
    });
    const grown = await verifier('monitor', base, '--state', state, '--once');
    expect(grown.status, grown.out).toBe(0);
    expect(grown.out).toMatch(/consistent with \d+/);

    // The stored tree rewritten under the same size: the log now shows another root for what the monitor saw.
    const rows = (await p.database.db.execute(sql`select root_hash from transparency.audit_head`)) as unknown as {
      root_hash: string;
    }[];
    const head = rows[0];
    const other = createHash('sha256').update('rewritten').digest('hex');
    await p.database.db.execute(sql`update transparency.audit_head set root_hash = ${other}`);
    const fork = await verifier('monitor', base, '--state', state, '--once');
    expect(fork.status).toBe(2);
    expect(fork.out).toContain('fork detected');
    await p.database.db.execute(sql`update transparency.audit_head set root_hash = ${head!.root_hash}`);
  });

  it('shows on the public verification page that no certificate of the plant is revoked', async () => {
    const page = await p.app.inject({ method: 'GET', url: `/api/transport/trace/${plantId}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('No certificate of this plant has been revoked.');
  });

  it('lets the owner revoke a certificate; the signed list and the verifier report it revoked', async () => {
    const keys = await keysFile();
    const signed = (await anon(`/api/transparency/certificate/${plantId}`)).body.data;
    const certificateId: string = signed.certificate.certificateId;
    expect(certificateId).toMatch(/^cer_/);
    const url = `/api/transparency/certificates/${certificateId}/revoke`;
    const body = { reason: 'Sold on; this copy is void' };
    expect((await p.http('POST', url, { body })).status).toBe(401);
    expect((await p.http('POST', url, { role: 'USER', sub: 'usr_someone', body })).status).toBe(403);
    const revoked = await p.http('POST', url, { role: 'USER', sub: 'usr_grower', body });
    expect(revoked.status).toBe(201);
    expect(revoked.body.data).toMatchObject({ certificateId, plantId, reason: body.reason });
    const again = await p.http('POST', url, { role: 'USER', sub: 'usr_grower', body });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, data: null, error: { code: 'CONFLICT' } });

    const list = (await anon('/api/transparency/certificates/revocations')).body;
    expect(list.data.list.revocations).toEqual([revoked.body.data]);
    const { text } = openNote(
      list.data.list.checkpoint,
      keySetFrom((await anon('/api/transparency/audit/keys')).body).map((k) => k.note),
    );
    expect(parseCheckpoint(text).size).toBeGreaterThan(revoked.body.data.auditIndex);
    const entry = await p.http('GET', `/api/transparency/audit/${revoked.body.data.auditIndex}`, { role: 'ADMIN' });
    expect(entry.body.data).toMatchObject({
      kind: 'admin.certificate-revoked',
      entity: certificateId,
      actor: 'usr_grower',
    });

    // The public verification page the certificate's QR code opens says so too.
    const page = await p.app.inject({ method: 'GET', url: `/api/transport/trace/${plantId}` });
    expect(page.body).toContain(`<b>REVOKED</b> certificate <code>${certificateId}</code>`);
    expect(page.body).toContain(body.reason);

    const listFile = await file('revocations.json', list);
    const res = await verifier(
      'certificate',
      await file('cert-revoked.json', signed),
      '--keys',
      keys,
      '--revocations',
      listFile,
    );
    expect(res.status).toBe(2);
    expect(res.out).toContain('FAIL not revoked (REVOKED on');
    const forged = structuredClone(list);
    forged.data.list.revocations = [];
    const hidden = await verifier(
      'certificate',
      await file('cert-revoked.json', signed),
      '--keys',
      keys,
      '--revocations',
      await file('forged-list.json', forged),
    );
    expect(hidden.status).toBe(2);
    expect(hidden.out).toContain('FAIL revocation list signature');

    // The next certificate is a new one, not revoked.
    const next = (await anon(`/api/transparency/certificate/${plantId}`)).body;
    expect(next.data.certificate.certificateId).not.toBe(certificateId);
    const fresh = await verifier(
      'certificate',
      await file('cert-next.json', next),
      '--keys',
      keys,
      '--revocations',
      listFile,
    );
    expect(fresh.status, fresh.out).toBe(0);
  });

  it('keeps every key: refuses a lost or changed key, rotates on request, and old signatures still verify', async () => {
    const before = await file('cert-before.json', (await anon(`/api/transparency/certificate/${plantId}`)).body);
    const oldKeyId = (await data('/api/transparency/audit/keys'))[0].keyId;
    const running = p.services.get('transparency')!;
    await running.stop();
    const start = async (env: Record<string, string>) => {
      const bus = await createNatsBus({ url: p.infra.nats.url, name: 'transparency', log: quiet });
      extraBuses.push(bus);
      return startService(transparency, {
        bus,
        database: p.database,
        log: createLogger('test', 'silent'),
        env: { AUDIT_LOG_ORIGIN: ORIGIN, DATA_DIR: join(dir, 'empty-data'), ...env },
      });
    };
    await expect(start({})).rejects.toThrow(/AUDIT_SIGNING_KEY is not set .* signed with key/);
    await expect(start({ AUDIT_SIGNING_KEY: pem(keyB.privateKey) })).rejects.toThrow(/AUDIT_SIGNING_KEY_ROTATE/);
    const rotated = await start({ AUDIT_SIGNING_KEY: pem(keyB.privateKey), AUDIT_SIGNING_KEY_ROTATE: 'true' });
    p.services.set('transparency', rotated);

    const keys = await data('/api/transparency/audit/keys');
    expect(keys.map((k: { status: string }) => k.status)).toEqual(['current', 'retired']);
    expect(keys[1]).toMatchObject({ keyId: oldKeyId });
    expect(keys[1].validUntil).not.toBeNull();
    const keyFile = await keysFile();
    // Signed by the retired key before the rotation: still verifies against the published set.
    expect(await verifier('certificate', before, '--keys', keyFile)).toMatchObject({ status: 0 });
    const signedAfter = (await anon(`/api/transparency/certificate/${plantId}`)).body;
    expect(signedAfter.data.signature.keyId).toBe(keys[0].keyId);
    const after = await file('cert-after.json', signedAfter);
    expect(await verifier('certificate', after, '--keys', keyFile)).toMatchObject({ status: 0 });
    // The rotation is in the audit log, and the monitor follows it (the new key is pinned, the log stays consistent).
    const log = await p.http('GET', '/api/transparency/audit?kind=admin.signing-key-rotated', { role: 'ADMIN' });
    expect(log.body.data[0].data).toEqual({ previousKeyId: oldKeyId, keyId: keys[0].keyId });
    const monitored = await verifier('monitor', base, '--state', join(dir, 'monitor'), '--once');
    expect(monitored.status, monitored.out).toBe(0);
    expect(monitored.out).toContain(`pinned key ${keys[0].keyId}`);
    expect(monitored.out).toMatch(/consistent with \d+/);
    // The retired key does not come back.
    await rotated.stop();
    await expect(start({ AUDIT_SIGNING_KEY: pem(keyA.privateKey), AUDIT_SIGNING_KEY_ROTATE: 'true' })).rejects.toThrow(
      /retired/,
    );
    p.services.set('transparency', await start({ AUDIT_SIGNING_KEY: pem(keyB.privateKey) }));
  });
});
