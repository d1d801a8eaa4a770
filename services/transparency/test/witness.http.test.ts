import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { contextToHeaders, newId, plantRegistered } from '@rootline/contracts';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import {
  cosignaturesOf,
  NotEnoughCosignatures,
  parseWitnessPolicy,
  pollOnce,
  requireCosignatures,
  run,
} from '@rootline/verify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

// A log built here, from RFC 6962 and c2sp.org/signed-note, sharing no code with the service: leaves, roots,
// consistency proofs (RFC 6962 §2.1.2 SUBPROOF) and signed checkpoints.
const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const leaf = (b: Buffer) => sha256(Buffer.from([0]), b);
const node = (l: Buffer, r: Buffer) => sha256(Buffer.from([1]), l, r);
const split = (n: number) => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};
const mth = (ls: Buffer[]): Buffer =>
  ls.length === 0
    ? sha256()
    : ls.length === 1
      ? ls[0]!
      : node(mth(ls.slice(0, split(ls.length))), mth(ls.slice(split(ls.length))));
function subproof(m: number, ls: Buffer[], whole: boolean): Buffer[] {
  if (m === ls.length) return whole ? [] : [mth(ls)];
  const k = split(ls.length);
  return m <= k
    ? [...subproof(m, ls.slice(0, k), whole), mth(ls.slice(k))]
    : [...subproof(m - k, ls.slice(k), false), mth(ls.slice(0, k))];
}
const raw = (k: KeyObject) => k.export({ format: 'der', type: 'spki' }).subarray(-32);
const keyId = (name: string, type: number, k: KeyObject) =>
  sha256(Buffer.from(`${name}\n`), Buffer.from([type]), raw(k)).subarray(0, 4);
const vkey = (name: string, type: number, k: KeyObject) =>
  `${name}+${keyId(name, type, k).toString('hex')}+${Buffer.concat([Buffer.from([type]), raw(k)]).toString('base64')}`;
const pem = (k: KeyObject) => k.export({ format: 'pem', type: 'pkcs8' }).toString();

class TestLog {
  readonly keys = generateKeyPairSync('ed25519');
  constructor(
    readonly origin: string,
    readonly entries: Buffer[],
  ) {}
  get vkey() {
    return vkey(this.origin, 1, this.keys.publicKey);
  }
  root(n: number) {
    return mth(this.entries.slice(0, n).map(leaf));
  }
  note(n: number, root = this.root(n), by = this.keys) {
    const text = `${this.origin}\n${n}\n${root.toString('base64')}\n`;
    const sig = sign(null, Buffer.from(text), by.privateKey);
    return `${text}\n\u2014 ${this.origin} ${Buffer.concat([keyId(this.origin, 1, by.publicKey), sig]).toString('base64')}\n`;
  }
  proof(m: number, n: number) {
    return m === 0 || m === n ? [] : subproof(m, this.entries.slice(0, n).map(leaf), true);
  }
}
const body = (old: number, proof: Buffer[], note: string) =>
  `old ${old}\n${proof.map((h) => `${h.toString('base64')}\n`).join('')}\n${note}`;

// FiloSottile/torchwood, cmd/litewitness/testdata/multi-cosigs-ed25519.txt: a request litewitness cosigns, for a
// checkpoint signed by a sigsum log (key 52c05eda…), copied as data.
const LW_LOG = 'sigsum.org/v1/tree/985ea163f5af026723561354f51f2ebcdcf2af809ce254ccfb64aa9aadd80f90';
const LW_KEY = Buffer.from('52c05edad1bf5feffa81354faae59a655d9a9a1a793ed2f62c39c26c0be2aecd', 'hex');
const LW_REQUEST = `old 0\n\n${LW_LOG}\n1\nKgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n\u2014 ${LW_LOG} 7BKT0gOfNZ1J0So9unY3BZtm2YkPIoNYM/dce0Z2avJDs8dxN6ts9bOSwwrVrbjm6P9K3ZxpK6jJngOG6YvGGzV/lwo=\n`;
const LW_VKEY = `${LW_LOG}+${sha256(Buffer.from(`${LW_LOG}\n`), Buffer.from([1]), LW_KEY)
  .subarray(0, 4)
  .toString('hex')}+${Buffer.concat([Buffer.from([1]), LW_KEY]).toString('base64')}`;

describe('witnessed checkpoints (c2sp.org/tlog-witness) between two nodes', () => {
  let w: TestPlatform;
  let l: TestPlatform;
  let witnessUrl: string;
  let hanging: Server;
  const sockets: Socket[] = [];
  const witnessKeys = generateKeyPairSync('ed25519');
  const logKeys = generateKeyPairSync('ed25519');
  const W_NAME = 'witness.test/api/transparency/witness';
  const W_VKEY = vkey(W_NAME, 4, witnessKeys.publicKey);
  const L_ORIGIN = 'log.test/api/transparency/log';
  const test = new TestLog(
    'example.test/log',
    Array.from({ length: 40 }, (_, i) => Buffer.from(`entry ${i}`)),
  );
  const forked = new TestLog(
    'example.test/log',
    test.entries.map((e, i) => (i >= 10 ? Buffer.from(`other ${i}`) : e)),
  );
  // The forked log is the same log (same key) showing another history after entry 10.
  Object.assign(forked, { keys: test.keys });

  const post = async (payload: string, contentType = 'text/plain') => {
    const res = await w.app.inject({
      method: 'POST',
      url: '/api/transparency/witness/add-checkpoint',
      headers: { 'content-type': contentType },
      payload,
    });
    return { status: res.statusCode, type: String(res.headers['content-type']), body: res.body };
  };
  const policy = parseWitnessPolicy({ witnesses: [W_VKEY], threshold: 1 });

  beforeAll(async () => {
    w = await startTestPlatform([transparency], {
      WITNESS_SIGNING_KEY: pem(witnessKeys.privateKey),
      PUBLIC_URL: 'https://witness.test',
      WITNESS_LOGS: [test.vkey, `${L_ORIGIN} ${vkey(L_ORIGIN, 1, logKeys.publicKey)}`, LW_VKEY].join(', '),
    });
    witnessUrl = `${await w.app.listen({ host: '127.0.0.1', port: 0 })}/api/transparency/witness`;
    // A second witness that takes every request and never answers.
    hanging = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const { port } = hanging.address() as { port: number };
    const silent = vkey('silent.test/w', 4, generateKeyPairSync('ed25519').publicKey);
    l = await startTestPlatform([transparency], {
      AUDIT_SIGNING_KEY: pem(logKeys.privateKey),
      PUBLIC_URL: 'https://log.test',
      AUDIT_WITNESSES: `${W_VKEY} ${witnessUrl}, ${silent} http://127.0.0.1:${port}/w`,
      AUDIT_WITNESS_POLL_MS: '50',
      AUDIT_WITNESS_TIMEOUT_MS: '120000',
    });
  }, 120_000);
  afterAll(async () => {
    // The silent witness's request is still open: stopping cuts it instead of waiting for its timeout.
    const started = Date.now();
    await l?.stop();
    expect(Date.now() - started).toBeLessThan(5000);
    await w?.stop();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => hanging?.close(resolve));
  });

  it('cosigns a followed log’s first checkpoint with a cosignature/v1 line the verifier accepts', async () => {
    const note = test.note(5);
    const res = await post(body(0, [], note));
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/plain; charset=utf-8');
    expect(res.body).toMatch(new RegExp(`^\u2014 ${W_NAME} [A-Za-z0-9+/]+=*\n$`, 'u'));
    const [cosigned] = requireCosignatures(note + res.body, policy);
    const now = Date.now() / 1000;
    expect(cosigned!.timestamp).toBeGreaterThan(now - 60);
    expect(cosigned!.timestamp).toBeLessThanOrEqual(now + 1);
    // The line covers this checkpoint only.
    expect(cosignaturesOf(test.note(6) + res.body, policy)).toEqual([]);
    const info = await w.http('GET', '/api/transparency/witness');
    expect(info.body.data.verifierKey).toBe(W_VKEY);
    expect(info.body.data.logs).toContainEqual({ origin: test.origin, size: 5 });
  });

  it('answers 409 with the size it holds, as text/x.tlog.size, to a stale old size', async () => {
    const res = await post(body(0, [], test.note(8)));
    expect(res).toMatchObject({ status: 409, type: 'text/x.tlog.size', body: '5\n' });
  });

  it('cosigns a larger checkpoint with a consistency proof, whatever the content type', async () => {
    const res = await post(body(5, test.proof(5, 12), test.note(12)), 'application/octet-stream');
    expect(res.status).toBe(200);
    expect(requireCosignatures(test.note(12) + res.body, policy)).toHaveLength(1);
    // The same checkpoint again is cosigned again (nothing changed).
    expect((await post(body(12, [], test.note(12)))).status).toBe(200);
  });

  it('refuses a rollback, a fork and a bad proof, and keeps what it holds', async () => {
    // Rollback: a smaller checkpoint, from the size held (old above the checkpoint: 400) or from its own size (409).
    expect((await post(body(12, [], test.note(8)))).status).toBe(400);
    expect(await post(body(8, [], test.note(8)))).toMatchObject({ status: 409, body: '12\n' });
    // Fork at the size held: the log signed another root for 12 entries.
    expect(await post(body(12, [], forked.note(12)))).toMatchObject({ status: 409, body: '12\n' });
    // Fork ahead: a larger tree of another history, with the proof of that history.
    const ahead = await post(body(12, forked.proof(12, 20), forked.note(20)));
    expect(ahead.status).toBe(422);
    expect(JSON.parse(ahead.body).error.code).toBe('UNPROCESSABLE');
    // A proof from another size, a truncated proof.
    expect((await post(body(12, test.proof(8, 20), test.note(20)))).status).toBe(422);
    expect((await post(body(12, test.proof(12, 20).slice(1), test.note(20)))).status).toBe(422);
    const info = await w.http('GET', '/api/transparency/witness');
    expect(info.body.data.logs).toContainEqual({ origin: test.origin, size: 12 });
  });

  it('refuses a bad signature (403), an unknown log (404) and a malformed body (400)', async () => {
    const stranger = generateKeyPairSync('ed25519');
    const byStranger = await post(body(12, test.proof(12, 14), test.note(14, test.root(14), stranger)));
    expect(byStranger.status).toBe(403);
    expect(JSON.parse(byStranger.body).error.code).toBe('FORBIDDEN');
    const tampered = test.note(14).replace(`\n14\n`, '\n15\n');
    expect((await post(body(12, test.proof(12, 15), tampered))).status).toBe(403);
    const unknown = new TestLog('unknown.test/log', test.entries);
    const res = await post(body(0, [], unknown.note(3)));
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).error.code).toBe('NOT_FOUND');
    for (const bad of ['', 'old x\n\n', 'old 1\nnot base64\n\nfoo\n', `old 0\n\n${test.origin}\n1\n`]) {
      const r = await post(bad);
      expect(r.status, bad).toBe(400);
      expect(JSON.parse(r.body).error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('lets one of two racing requests from the same old size win, and never rolls back', async () => {
    const [a, b] = await Promise.all([
      post(body(12, test.proof(12, 30), test.note(30))),
      post(body(12, test.proof(12, 20), test.note(20))),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const won = a.status === 200 ? 30 : 20;
    expect((a.status === 409 ? a : b).body).toBe(`${won}\n`);
    const info = await w.http('GET', '/api/transparency/witness');
    expect(info.body.data.logs).toContainEqual({ origin: test.origin, size: won });
  });

  it('cosigns the request litewitness’s tests send, signed by a sigsum log', async () => {
    const res = await post(LW_REQUEST);
    expect(res.status).toBe(200);
    expect(cosignaturesOf(LW_REQUEST.slice(LW_REQUEST.indexOf('\n\n') + 2) + res.body, policy)).toHaveLength(1);
  });

  it('the log asks its witness on its own and serves the cosigned checkpoint; rootline-verify holds it to the policy', async () => {
    const publish = async (n: number, from: number) => {
      for (let i = from; i < from + n; i++) {
        await l.bus.publish({
          id: newId('evt', Date.now()),
          subject: plantRegistered.subject,
          occurredAt: new Date().toISOString(),
          payload: { plantId: `plt_witness${i}`, commonName: `Plant ${i}` },
          headers: contextToHeaders({ requestId: newId('req', Date.now()) }),
        });
      }
    };
    const cosignedAt = async (size: number) => {
      for (let i = 0; i < 400; i++) {
        const res = await l.app.inject({ method: 'GET', url: '/api/transparency/log/checkpoint' });
        const note = res.body;
        const [, n] = note.split('\n');
        if (Number(n) >= size && cosignaturesOf(note, policy).length === 1) return note;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`the log never served a cosigned checkpoint of ${size} entries`);
    };
    await publish(3, 0);
    // A witness that never answers holds up neither the log nor the other witness.
    const first = await cosignedAt(3);
    expect(sockets.length).toBeGreaterThan(0);
    expect(first.startsWith(`${L_ORIGIN}\n3\n`)).toBe(true);
    // More entries: the log sends the witness a consistency proof from 3.
    await publish(4, 3);
    const second = await cosignedAt(7);
    expect(second.startsWith(`${L_ORIGIN}\n7\n`)).toBe(true);
    let info = await w.http('GET', '/api/transparency/witness');
    expect(info.body.data.logs).toContainEqual({ origin: L_ORIGIN, size: 7 });

    // The log forgets what its witness saw: its first request (old 0) gets 409 with 7, and it retries from 7.
    await l.database.db.execute(sql`delete from transparency.checkpoint_cosignatures`);
    await publish(2, 7);
    const third = await cosignedAt(9);
    expect(third.startsWith(`${L_ORIGIN}\n9\n`)).toBe(true);
    info = await w.http('GET', '/api/transparency/witness');
    expect(info.body.data.logs).toContainEqual({ origin: L_ORIGIN, size: 9 });

    // rootline-verify: the cosigned checkpoint passes a policy of this witness, fails a policy of two.
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'witness-'));
    const keys = (await l.http('GET', '/api/transparency/audit/keys')).body;
    await writeFile(join(dir, 'keys.json'), JSON.stringify(keys));
    await writeFile(join(dir, 'cp.txt'), third);
    await writeFile(join(dir, 'one.json'), JSON.stringify({ witnesses: [W_VKEY], threshold: 1 }));
    const other = vkey('other.test/w', 4, generateKeyPairSync('ed25519').publicKey);
    await writeFile(join(dir, 'two.json'), JSON.stringify({ witnesses: [W_VKEY, other], threshold: 2 }));
    await writeFile(join(dir, 'uncosigned.txt'), third.slice(0, third.lastIndexOf('\u2014 witness.test')));
    const out: string[] = [];
    const cli = (...args: string[]) => run(args, (line) => out.push(line));
    expect(
      await cli(
        'compare',
        join(dir, 'cp.txt'),
        join(dir, 'cp.txt'),
        '--keys',
        join(dir, 'keys.json'),
        '--witnesses',
        join(dir, 'one.json'),
      ),
    ).toBe(0);
    expect(out.join('\n')).toMatch(/cosigned by enough witnesses \(1 of 1, 1 needed: witness\.test/);
    out.length = 0;
    expect(
      await cli(
        'compare',
        join(dir, 'cp.txt'),
        join(dir, 'cp.txt'),
        '--keys',
        join(dir, 'keys.json'),
        '--witnesses',
        join(dir, 'two.json'),
      ),
    ).toBe(2);
    expect(out.join('\n')).toMatch(/FAIL first checkpoint cosigned by enough witnesses \(1 of 2, 2 needed/);
    // The monitor under a policy: the served checkpoint is accepted with its cosigner named; a stricter policy fails.
    const baseUrl = await l.app.listen({ host: '127.0.0.1', port: 0 });
    const seen: string[] = [];
    await pollOnce({ baseUrl, stateDir: join(dir, 'monitor'), witnesses: policy, log: (line) => seen.push(line) });
    expect(seen.join('\n')).toMatch(/checkpoint 9 [0-9a-f]{64} first seen, cosigned by witness\.test/);
    const strict = parseWitnessPolicy({ witnesses: [W_VKEY, other], threshold: 2 });
    await expect(pollOnce({ baseUrl, stateDir: join(dir, 'strict'), witnesses: strict })).rejects.toThrow(
      NotEnoughCosignatures,
    );
    out.length = 0;
    expect(
      await cli(
        'compare',
        join(dir, 'uncosigned.txt'),
        join(dir, 'cp.txt'),
        '--keys',
        join(dir, 'keys.json'),
        '--witnesses',
        join(dir, 'one.json'),
      ),
    ).toBe(2);
  }, 60_000);
});
