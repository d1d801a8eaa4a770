import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { contextToHeaders, newId, plantRegistered } from '@rootline/contracts';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

// A tiled-log client written from c2sp.org/tlog-tiles, tlog-checkpoint and signed-note, sharing no code with the
// service or the verifier package: it fetches the checkpoint and the tiles it implies and recomputes the root.
const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const leaf = (b: Buffer) => sha256(Buffer.from([0]), b);
const node = (l: Buffer, r: Buffer) => sha256(Buffer.from([1]), l, r);
function mth(hashes: Buffer[]): Buffer {
  if (hashes.length === 1) return hashes[0]!;
  let k = 1;
  while (k * 2 < hashes.length) k *= 2;
  return node(mth(hashes.slice(0, k)), mth(hashes.slice(k)));
}
const indexPath = (n: number) => {
  const groups: string[] = [];
  do {
    groups.unshift(String(n % 1000).padStart(3, '0'));
    n = Math.floor(n / 1000);
  } while (n > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
};
const tilePath = (level: number | 'entries', n: number, width: number) =>
  `/api/transparency/log/tile/${level}/${indexPath(n)}${width < 256 ? `.p/${width}` : ''}`;

describe('the audit log as C2SP tlog-tiles', () => {
  let p: TestPlatform;
  const { privateKey } = generateKeyPairSync('ed25519');
  const ENTRIES = 300;

  const raw = async (url: string) => {
    const res = await p.app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.rawPayload, headers: res.headers };
  };

  beforeAll(async () => {
    p = await startTestPlatform([transparency], {
      AUDIT_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      PUBLIC_URL: 'https://rootline.example',
    });
    for (let i = 0; i < ENTRIES; i++) {
      await p.bus.publish({
        id: newId('evt', Date.now()),
        subject: plantRegistered.subject,
        occurredAt: new Date().toISOString(),
        payload: { plantId: `plt_tile${i}`, commonName: `Plant ${i}` },
        headers: contextToHeaders({ requestId: newId('req', Date.now()) }),
      });
    }
    for (let i = 0; i < 600; i++) {
      const cp = await p.http('GET', '/api/transparency/audit/checkpoint');
      if (cp.body.data.treeSize >= ENTRIES) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the audit log never reached its size');
  }, 120_000);
  afterAll(async () => {
    await p?.stop();
  });

  it('serves the checkpoint as a signed note under the prefix named by its origin', async () => {
    const res = await raw('/api/transparency/log/checkpoint');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=5');
    const note = res.body.toString('utf8');
    const [text, sigs] = note.split('\n\n') as [string, string];
    const [origin, size, root] = text.split('\n');
    expect(origin).toBe('rootline.example/api/transparency/log');
    expect(Number(size)).toBe(ENTRIES);
    const keys = (await p.http('GET', '/api/transparency/audit/keys')).body.data;
    // The verifier key: name, key id, base64(0x01 ‖ key); names hold no '+', the base64 may.
    const [name, id, ...material] = (keys[0].verifierKey as string).split('+');
    expect(name).toBe(origin);
    const rawKey = Buffer.from(material.join('+'), 'base64').subarray(1);
    const expectedId = sha256(Buffer.from(`${name}\n`), Buffer.from([1]), rawKey)
      .subarray(0, 4)
      .toString('hex');
    expect(id).toBe(expectedId);
    const m = /^\u2014 (\S+) (\S+)\n$/u.exec(sigs);
    expect(m?.[1]).toBe(origin);
    const blob = Buffer.from(m![2]!, 'base64');
    expect(blob.subarray(0, 4).toString('hex')).toBe(id);
    const publicKey = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: rawKey.toString('base64url') },
      format: 'jwk',
    });
    expect(verify(null, Buffer.from(`${text}\n`), publicKey, blob.subarray(4))).toBe(true);
    expect(Buffer.from(root!, 'base64').toString('hex')).toBe(
      (await p.http('GET', '/api/transparency/audit/checkpoint')).body.data.rootHash,
    );
  });

  it('rebuilds the checkpoint’s root from the tiles, and every bundled entry hashes to its tile hash', async () => {
    const cp = (await p.http('GET', '/api/transparency/audit/checkpoint')).body.data;
    const size: number = cp.treeSize;
    const leaves: Buffer[] = [];
    for (let n = 0; n * 256 < size; n++) {
      const width = Math.min(256, size - n * 256);
      const tile = await raw(tilePath(0, n, width));
      expect(tile.status, tilePath(0, n, width)).toBe(200);
      expect(tile.headers['content-type']).toBe('application/octet-stream');
      expect(tile.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(tile.body.length).toBe(width * 32);
      const hashes = Array.from({ length: width }, (_, i) => tile.body.subarray(i * 32, i * 32 + 32));
      const bundle = (await raw(tilePath('entries', n, width))).body;
      let at = 0;
      for (const h of hashes) {
        const len = bundle.readUInt16BE(at);
        const entry = bundle.subarray(at + 2, at + 2 + len);
        expect(leaf(entry).equals(h)).toBe(true);
        at += 2 + len;
      }
      expect(at).toBe(bundle.length);
      leaves.push(...hashes);
    }
    expect(mth(leaves).toString('hex')).toBe(cp.rootHash);
    // Level 1: one partial tile of width 1, the hash of the first full level-0 tile.
    const up = await raw(tilePath(1, 0, 1));
    expect(up.body.equals(mth(leaves.slice(0, 256)))).toBe(true);
  });

  it('answers 404 for tiles the tree does not hold and for malformed paths', async () => {
    for (const path of [tilePath(0, 1, 256), tilePath(0, 1, 45), tilePath(2, 0, 1), '/api/transparency/log/tile/0/1']) {
      const res = await raw(path);
      expect(res.status, path).toBe(404);
      expect(JSON.parse(res.body.toString())).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
  });
});
