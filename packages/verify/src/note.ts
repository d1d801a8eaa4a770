import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';

/**
 * C2SP signed notes (c2sp.org/signed-note) with Ed25519 keys and C2SP checkpoints (c2sp.org/tlog-checkpoint),
 * written from the specifications.
 */

/** A key that may sign notes: its name, four-byte id and Ed25519 public key. */
export interface NoteVerifier {
  name: string;
  id: string;
  key: KeyObject;
  raw: Buffer;
}

/** Thrown when a note is signed by a known key but the signature does not verify, or by no known key at all. */
export class BadSignature extends Error {}

function ed25519(raw: Buffer): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}

/** SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key)[:4], hex. */
export function noteKeyIdOf(name: string, raw: Buffer): string {
  return createHash('sha256')
    .update(`${name}\n`)
    .update(Uint8Array.of(1))
    .update(raw)
    .digest()
    .subarray(0, 4)
    .toString('hex');
}

/** A verifier from its key string `<name>+<hex id>+base64(0x01 ‖ 32-byte key)`; the id must match the key. */
export function parseVerifierKey(vkey: string): NoteVerifier {
  const first = vkey.indexOf('+');
  const second = vkey.indexOf('+', first + 1);
  if (first <= 0 || second < 0) throw new Error(`not a verifier key: ${vkey}`);
  const name = vkey.slice(0, first);
  const id = vkey.slice(first + 1, second);
  const material = Buffer.from(vkey.slice(second + 1), 'base64');
  if (!/^[0-9a-f]{8}$/.test(id)) throw new Error(`verifier key id is not 8 hex digits: ${vkey}`);
  if (material.length !== 33 || material[0] !== 1) throw new Error(`not an Ed25519 verifier key: ${vkey}`);
  const raw = material.subarray(1);
  if (noteKeyIdOf(name, raw) !== id) throw new Error(`verifier key id does not match its key: ${vkey}`);
  return { name, id, key: ed25519(raw), raw };
}

/** A verifier for an Ed25519 key (raw, base64) under a name. */
export function noteVerifier(name: string, publicKeyBase64: string): NoteVerifier {
  const raw = Buffer.from(publicKeyBase64, 'base64');
  return { name, id: noteKeyIdOf(name, raw), key: ed25519(raw), raw };
}

/**
 * Opens a signed note: answers its text and the known key that signed it. A signature by a known key (same name
 * and id) that fails rejects the whole note; a note with no signature by a known key is rejected too. Signatures
 * by unknown keys are ignored, as the specification requires.
 */
export function openNote(note: string, verifiers: readonly NoteVerifier[]): { text: string; signedBy: NoteVerifier } {
  if (!note.endsWith('\n')) throw new Error('a signed note ends in a newline');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new Error('a signed note has a blank line before its signatures');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  let signedBy: NoteVerifier | undefined;
  for (const line of lines) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/u.exec(line);
    if (!m) throw new Error(`not a signature line: ${line}`);
    const blob = Buffer.from(m[2] as string, 'base64');
    if (blob.length < 5) throw new Error(`signature too short: ${line}`);
    const id = blob.subarray(0, 4).toString('hex');
    const known = verifiers.find((v) => v.name === m[1] && v.id === id);
    if (!known) continue;
    if (!verify(null, Buffer.from(text, 'utf8'), known.key, blob.subarray(4))) {
      throw new BadSignature(`the signature of key ${known.name}+${known.id} does not verify`);
    }
    signedBy ??= known;
  }
  if (!signedBy) throw new BadSignature('no signature by a known key');
  return { text, signedBy };
}

/** A checkpoint's fields (c2sp.org/tlog-checkpoint). */
export interface CheckpointBody {
  origin: string;
  size: number;
  rootHash: string;
  extensions: string[];
}

/** Parses a checkpoint text: origin, decimal size, base64 root hash, then optional extension lines. */
export function parseCheckpoint(text: string): CheckpointBody {
  const lines = text.split('\n');
  if (lines.length < 4 || lines.at(-1) !== '') throw new Error('a checkpoint has at least three lines');
  const [origin, size, root] = lines as [string, string, string];
  if (!origin) throw new Error('checkpoint origin is empty');
  if (!/^(0|[1-9][0-9]*)$/.test(size)) throw new Error(`checkpoint size is not a decimal number: ${size}`);
  const rootBytes = Buffer.from(root, 'base64');
  if (rootBytes.length !== 32 || rootBytes.toString('base64') !== root)
    throw new Error('checkpoint root is not 32 bytes');
  return { origin, size: Number(size), rootHash: rootBytes.toString('hex'), extensions: lines.slice(3, -1) };
}
