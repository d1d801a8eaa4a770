import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './cli.js';
import {
  cosignaturesOf,
  NotEnoughCosignatures,
  parseCosignerKey,
  parseWitnessPolicy,
  requireCosignatures,
} from './witness.js';

// sigsum-go, pkg/checkpoint/checkpoint_test.go: the key of seed 17‖0…0 cosigned `example.org/log`, size 10, root
// 1c0e47‖0…0, at time 1234 as example.org/witness (TestCheckpointVerifyCosignatureByKey, second line).
const SEED = Buffer.concat([Uint8Array.of(17), Buffer.alloc(31)]);
const TEXT = 'example.org/log\n10\nHA5HAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n';
const LINE =
  '\u2014 example.org/witness ys8uUAAAAAAAAATSftMzceM8zssdZ9jin9SjwIxzx9iADMf63VqirX2hafol9RsqNqbofIz0LVRqHXI2kpEBSki5RTXFtxz1vo9+Cg==\n';
// transparency-dev/formats, note/note_cosigv1_test.go: a published cosigner verifier key.
const REMORA = 'remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2';

const sha256 = (...p: Buffer[]) => createHash('sha256').update(Buffer.concat(p)).digest();
const raw = (k: KeyObject) => k.export({ format: 'der', type: 'spki' }).subarray(-32);
const id = (name: string, type: number, k: KeyObject) =>
  sha256(Buffer.from(`${name}\n`), Buffer.from([type]), raw(k)).subarray(0, 4);
const vkey = (name: string, type: number, k: KeyObject) =>
  `${name}+${id(name, type, k).toString('hex')}+${Buffer.concat([Buffer.from([type]), raw(k)]).toString('base64')}`;
const fromSeed = (seed: Buffer) =>
  createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
    format: 'der',
    type: 'pkcs8',
  });

function cosignLine(text: string, name: string, k: { privateKey: KeyObject; publicKey: KeyObject }, time: number) {
  const t = Buffer.alloc(8);
  t.writeBigUInt64BE(BigInt(time));
  const s = sign(null, Buffer.from(`cosignature/v1\ntime ${time}\n${text}`), k.privateKey);
  return `\u2014 ${name} ${Buffer.concat([id(name, 4, k.publicKey), t, s]).toString('base64')}\n`;
}

describe('witness cosignatures and policies', () => {
  const sigsum = { privateKey: fromSeed(SEED), publicKey: createPublicKey(fromSeed(SEED)) };
  const sigsumVkey = vkey('example.org/witness', 4, sigsum.publicKey);

  it('verifies the sigsum-go cosignature and reads a published cosigner key', () => {
    const policy = parseWitnessPolicy({ witnesses: [sigsumVkey], threshold: 1 });
    const note = `${TEXT}\n\u2014 example.org/log AAAAAA==\n${LINE}`;
    expect(cosignaturesOf(note, policy)).toEqual([{ witness: 'example.org/witness', timestamp: 1234 }]);
    expect(cosignaturesOf(note.replace('\n10\n', '\n11\n'), policy)).toEqual([]);
    expect(parseCosignerKey(REMORA).id).toBe('da77ade7');
    expect(() => parseCosignerKey(REMORA.replace('BOvN', 'AOvN'))).toThrow(/type 0x04/);
  });

  it('counts each trusted witness once and holds the threshold', () => {
    const other = generateKeyPairSync('ed25519');
    const policy = parseWitnessPolicy({ witnesses: [sigsumVkey, vkey('w2.test', 4, other.publicKey)], threshold: 2 });
    const once = `${TEXT}\n${LINE}${LINE}`;
    expect(() => requireCosignatures(once, policy)).toThrow(NotEnoughCosignatures);
    const twice = `${TEXT}\n${LINE}${cosignLine(TEXT, 'w2.test', other, 99)}`;
    expect(requireCosignatures(twice, policy)).toHaveLength(2);
    expect(() => parseWitnessPolicy({ witnesses: [sigsumVkey], threshold: 2 })).toThrow(/threshold/);
  });

  it('compare reports a fork when two cosigned checkpoints of one size differ', async () => {
    const log = generateKeyPairSync('ed25519');
    const [w1, w2] = [generateKeyPairSync('ed25519'), generateKeyPairSync('ed25519')];
    const origin = 'log.test/log';
    const note = (root: Buffer, name: string, w: typeof w1) => {
      const text = `${origin}\n7\n${root.toString('base64')}\n`;
      const sig = Buffer.concat([id(origin, 1, log.publicKey), sign(null, Buffer.from(text), log.privateKey)]);
      return `${text}\n\u2014 ${origin} ${sig.toString('base64')}\n${cosignLine(text, name, w, 1_700_000_000)}`;
    };
    const dir = await mkdtemp(join(tmpdir(), 'verify-witness-'));
    const keys = [
      {
        keyId: sha256(raw(log.publicKey)).toString('hex'),
        algorithm: 'Ed25519',
        publicKey: raw(log.publicKey).toString('base64'),
        publicKeyPem: log.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
        noteKeyName: origin,
        noteKeyId: id(origin, 1, log.publicKey).toString('hex'),
        verifierKey: vkey(origin, 1, log.publicKey),
        validFrom: '2026-01-01T00:00:00.000Z',
        validUntil: null,
      },
    ];
    await writeFile(join(dir, 'keys.json'), JSON.stringify(keys));
    await writeFile(
      join(dir, 'policy.json'),
      JSON.stringify({ witnesses: [vkey('w1.test', 4, w1.publicKey), vkey('w2.test', 4, w2.publicKey)], threshold: 1 }),
    );
    await writeFile(join(dir, 'a.txt'), note(sha256(Buffer.from('a')), 'w1.test', w1));
    await writeFile(join(dir, 'b.txt'), note(sha256(Buffer.from('b')), 'w2.test', w2));
    const out: string[] = [];
    const args = (b: string) => [
      'compare',
      join(dir, 'a.txt'),
      join(dir, b),
      '--keys',
      join(dir, 'keys.json'),
      '--witnesses',
      join(dir, 'policy.json'),
    ];
    expect(await run(args('b.txt'), (l) => out.push(l))).toBe(2);
    expect(out.join('\n')).toMatch(/FAIL one root for 7 entries \(no fork\) \(fork: /);
    out.length = 0;
    expect(await run(args('a.txt'), (l) => out.push(l))).toBe(0);
  });
});
