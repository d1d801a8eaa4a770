import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { consistencyRanges, merkleRoot, rootOfHashes } from '@rootline/domain';
import { describe, expect, it } from 'vitest';
import {
  COSIGNATURE_V1,
  cosign,
  ED25519,
  judgeAddCheckpoint,
  keyIdOf,
  logSignaturesThatVerify,
  parseAddCheckpoint,
  parseCheckpoint,
  parseVkey,
  signatureLines,
  splitNote,
  verifyCosignature,
  vkeyOf,
} from './cosignature.js';
import { checkpointText, signNote } from './signed-note.js';

/** An Ed25519 private key from its 32-byte seed (how the Go implementations below make their test keys). */
const fromSeed = (seed: Buffer) =>
  createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
    format: 'der',
    type: 'pkcs8',
  });
const raw = (hex: string) => Buffer.from(hex, 'hex');

// Vectors of outside implementations, copied as data (each names its source):
// sigsum-go, pkg/checkpoint/checkpoint_test.go: the key of seed 17‖0…0 cosigns the checkpoint `example.org/log`, 10,
// root 1c0e47‖0…0 at time 1234 under the name example.org/witness (TestCheckpointVerifyCosignatureByKey, 2nd line);
// the same key signs a sigsum log checkpoint (validCheckpointASCII).
const SIGSUM_SEED = Buffer.concat([Uint8Array.of(17), Buffer.alloc(31)]);
const SIGSUM_ROOT = Buffer.concat([Uint8Array.of(28, 14, 71), Buffer.alloc(29)]);
const SIGSUM_COSIGNATURE =
  '\u2014 example.org/witness ys8uUAAAAAAAAATSftMzceM8zssdZ9jin9SjwIxzx9iADMf63VqirX2hafol9RsqNqbofIz0LVRqHXI2kpEBSki5RTXFtxz1vo9+Cg==\n';
const SIGSUM_LOG = 'sigsum.org/v1/tree/e796172b92befd62d9dc67e41c2f5bc9d3100a3023b20b1ca40288dd1c679e69';
const SIGSUM_CHECKPOINT = `${SIGSUM_LOG}\n10\nHA5HAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n\u2014 ${SIGSUM_LOG} gJ2ho0n8F8olcerUF1FFdv235A/5as/coWrpLrtE7ovMeP5whgwouYExowG/lTznxu6OUGjjt5yJQ6bXtTcf718MqAQ=\n`;
// transparency-dev/formats, note/note_cosigv1_test.go (TestCoSigV1NewVerifier): a witness's cosignature/v1 vkey.
const REMORA_VKEY = 'remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2';
// FiloSottile/torchwood, cmd/litewitness/testdata/multi-cosigs-ed25519.txt: the add-checkpoint request litewitness
// cosigns, a sigsum log's checkpoint of size 1, and that log's key.
const LITEWITNESS_LOG_KEY = '52c05edad1bf5feffa81354faae59a655d9a9a1a793ed2f62c39c26c0be2aecd';
const LITEWITNESS_LOG = 'sigsum.org/v1/tree/985ea163f5af026723561354f51f2ebcdcf2af809ce254ccfb64aa9aadd80f90';
const LITEWITNESS_REQUEST = `old 0\n\n${LITEWITNESS_LOG}\n1\nKgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n\u2014 ${LITEWITNESS_LOG} 7BKT0gOfNZ1J0So9unY3BZtm2YkPIoNYM/dce0Z2avJDs8dxN6ts9bOSwwrVrbjm6P9K3ZxpK6jJngOG6YvGGzV/lwo=\n`;

describe('cosignature/v1 against outside implementations', () => {
  it('signs the sigsum-go vector byte for byte and verifies it', () => {
    const privateKey = fromSeed(SIGSUM_SEED);
    const publicKey = createPublicKey(privateKey);
    const text = `example.org/log\n10\n${SIGSUM_ROOT.toString('base64')}\n`;
    expect(cosign(text, 1234, 'example.org/witness', privateKey, publicKey)).toBe(SIGSUM_COSIGNATURE);
    const key = parseVkey(vkeyOf('example.org/witness', COSIGNATURE_V1, publicKey), COSIGNATURE_V1);
    const [line] = signatureLines(SIGSUM_COSIGNATURE);
    expect(verifyCosignature(text, line!, key)).toBe(1234);
    // Another size, another time or a plain (0x01) key: no.
    expect(verifyCosignature(text.replace('\n10\n', '\n11\n'), line!, key)).toBeNull();
    const tampered = { ...line!, signature: Buffer.from(line!.signature) };
    tampered.signature[7] = 0xd3;
    expect(verifyCosignature(text, tampered, key)).toBeNull();
    expect(verifyCosignature(text, line!, { ...key, type: ED25519 })).toBeNull();
  });

  it('reads a published witness key and computes its key id', () => {
    const key = parseVkey(REMORA_VKEY, COSIGNATURE_V1);
    expect(key.name).toBe('remora.n621.de');
    expect(key.id).toBe('da77ade7');
    expect(() => parseVkey(REMORA_VKEY, ED25519)).toThrow(/type/);
    expect(() => parseVkey(REMORA_VKEY.replace('da77ade7', 'da77ade8'), COSIGNATURE_V1)).toThrow(/does not match/);
  });

  it('verifies log checkpoints signed by sigsum-go and accepted by litewitness', () => {
    const sigsumKey = parseVkey(vkeyOf(SIGSUM_LOG, ED25519, createPublicKey(fromSeed(SIGSUM_SEED))), ED25519);
    const a = splitNote(SIGSUM_CHECKPOINT);
    expect(logSignaturesThatVerify(a.text, a.signatures, [sigsumKey])).toHaveLength(1);
    expect(logSignaturesThatVerify(a.text.replace('\n10\n', '\n11\n'), a.signatures, [sigsumKey])).toHaveLength(0);

    const rawKey = raw(LITEWITNESS_LOG_KEY);
    const vkey = `${LITEWITNESS_LOG}+${keyIdOf(LITEWITNESS_LOG, ED25519, rawKey)}+${Buffer.concat([Uint8Array.of(1), rawKey]).toString('base64')}`;
    const req = parseAddCheckpoint(LITEWITNESS_REQUEST);
    expect(req.oldSize).toBe(0);
    expect(req.proof).toEqual([]);
    const verdict = judgeAddCheckpoint(
      req,
      (o) => (o === LITEWITNESS_LOG ? [parseVkey(vkey, ED25519)] : undefined),
      null,
    );
    expect(verdict.outcome).toBe('cosign');
  });
});

describe('judging add-checkpoint requests (c2sp.org/tlog-witness)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const origin = 'example.test/log';
  const logKey = parseVkey(vkeyOf(origin, ED25519, publicKey), ED25519);
  const leaves = Array.from({ length: 20 }, (_, i) => Buffer.from(`entry ${i}`));
  const root = (n: number) => merkleRoot(leaves.slice(0, n));
  const note = (n: number, r = root(n)) =>
    signNote(checkpointText(origin, n, r.toString('hex')), origin, privateKey, publicKey);
  const proof = (m: number, n: number) => {
    const hashes = leaves.map((l) => merkleRoot([l]));
    return consistencyRanges(m, n).map((range) => rootOfHashes(hashes.slice(range.lo, range.hi)));
  };
  const body = (old: number, p: Buffer[], n: string) =>
    `old ${old}\n${p.map((h) => `${h.toString('base64')}\n`).join('')}\n${n}`;
  const judge = (b: string, last: { size: number; rootHash: string } | null) =>
    judgeAddCheckpoint(parseAddCheckpoint(b), (o) => (o === origin ? [logKey] : undefined), last);
  const at = (n: number) => ({ size: n, rootHash: root(n).toString('hex') });

  it('cosigns a first checkpoint and a consistent larger one', () => {
    expect(judge(body(0, [], note(5)), null).outcome).toBe('cosign');
    expect(judge(body(5, proof(5, 12), note(12)), at(5)).outcome).toBe('cosign');
    expect(judge(body(12, [], note(12)), at(12)).outcome).toBe('cosign');
  });

  it('refuses with the protocol’s reasons', () => {
    expect(judge(body(0, [], note(5).replace(origin, 'other.test/log')), null).outcome).toBe('unknown-log');
    const forged = note(5).replace(/ (\S+)\n$/u, (_m, b64: string) => {
      const b = Buffer.from(b64, 'base64');
      b[10] = (b[10] ?? 0) ^ 1;
      return ` ${b.toString('base64')}\n`;
    });
    expect(judge(body(0, [], forged), null).outcome).toBe('bad-signature');
    expect(judge(body(12, [], note(5)), at(12)).outcome).toBe('old-size-too-large');
    expect(judge(body(3, proof(3, 12), note(12)), at(5))).toMatchObject({ outcome: 'conflict', size: 5 });
    expect(judge(body(5, [], note(5, root(6))), at(5))).toMatchObject({ outcome: 'conflict', size: 5 });
    expect(judge(body(5, proof(6, 12), note(12)), at(5)).outcome).toBe('bad-proof');
    expect(judge(body(0, proof(5, 12), note(12)), null).outcome).toBe('bad-proof');
    expect(judge(body(0, [], 'not a note\n'), null).outcome).toBe('malformed');
  });

  it('parses the request body strictly', () => {
    expect(() => parseAddCheckpoint('old 01\n\nx')).toThrow(/old/);
    expect(() => parseAddCheckpoint('old 1\nnot-base64\n\nx')).toThrow(/line 1/);
    expect(() => parseAddCheckpoint('old 1')).toThrow(/blank line/);
    const many = `old 1\n${`${Buffer.alloc(32).toString('base64')}\n`.repeat(64)}\nx`;
    expect(() => parseAddCheckpoint(many)).toThrow(/63/);
    expect(parseCheckpoint('a\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n').size).toBe(0);
  });
});
