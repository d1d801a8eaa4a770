import { createHash, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { verifyConsistency } from '@rootline/domain';
import { rawPublicKey } from './tree-head.js';

/**
 * What a witness signs and reads, written from c2sp.org/signed-note, c2sp.org/tlog-cosignature (Ed25519,
 * `cosignature/v1`) and c2sp.org/tlog-witness: verifier keys of logs (signature type 0x01) and of cosigners (0x04),
 * opening a checkpoint note against a log's keys, timestamped cosignature lines, and the add-checkpoint request body.
 */

/** Signature type of plain Ed25519 note signatures (logs). */
export const ED25519 = 0x01;
/** Signature type of Ed25519 `cosignature/v1` signatures (witnesses). */
export const COSIGNATURE_V1 = 0x04;

/** A public key under a name, as a verifier key names it. */
export interface NamedKey {
  name: string;
  /** Signature type: 0x01 log, 0x04 cosigner. */
  type: number;
  /** The four-byte key id, hex. */
  id: string;
  key: KeyObject;
}

function ed25519Key(raw: Buffer): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}

/** SHA-256(name ‖ 0x0A ‖ type ‖ 32-byte key)[:4], hex. */
export function keyIdOf(name: string, type: number, raw: Buffer): string {
  return createHash('sha256')
    .update(Buffer.from(`${name}\n`, 'utf8'))
    .update(Uint8Array.of(type))
    .update(raw)
    .digest()
    .subarray(0, 4)
    .toString('hex');
}

/** The verifier key string `<name>+<hex id>+base64(type ‖ key)` of an Ed25519 key. */
export function vkeyOf(name: string, type: number, publicKey: KeyObject): string {
  const raw = rawPublicKey(publicKey);
  return `${name}+${keyIdOf(name, type, raw)}+${Buffer.concat([Uint8Array.of(type), raw]).toString('base64')}`;
}

/** Parses a verifier key of an Ed25519 key of the given type (0x01 or 0x04); throws on anything else. */
export function parseVkey(vkey: string, type: number): NamedKey {
  const parts = vkey.split('+');
  if (parts.length < 3) throw new Error(`not a verifier key (name+id+key): ${vkey}`);
  const [name, id] = parts as [string, string];
  const material = Buffer.from(parts.slice(2).join('+'), 'base64');
  if (!name || /\s/u.test(name)) throw new Error(`verifier key name is empty or holds a space: ${vkey}`);
  if (!/^[0-9a-f]{8}$/.test(id)) throw new Error(`verifier key id is not 8 hex digits: ${vkey}`);
  if (material.length !== 33 || material[0] !== type) {
    throw new Error(`not an Ed25519 verifier key of type 0x0${type}: ${vkey}`);
  }
  const raw = material.subarray(1);
  if (keyIdOf(name, type, raw) !== id) throw new Error(`verifier key id does not match its key: ${vkey}`);
  return { name, type, id, key: ed25519Key(raw) };
}

/** One signature line of a note: the key name, the key id (hex) and what follows it. */
export interface SignatureLine {
  name: string;
  id: string;
  signature: Buffer;
  line: string;
}

/** A signed note split into its text (ending in a newline) and its signature lines; throws when malformed. */
export function splitNote(note: string): { text: string; signatures: SignatureLine[] } {
  if (!note.endsWith('\n')) throw new Error('a signed note ends in a newline');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new Error('a signed note has a blank line before its signatures');
  const text = note.slice(0, split + 1);
  const signatures = signatureLines(note.slice(split + 2));
  if (signatures.length === 0) throw new Error('a signed note has at least one signature');
  return { text, signatures };
}

/** Parses signature lines (`— <name> <base64>`, each ending in a newline); throws on a malformed one. */
export function signatureLines(block: string): SignatureLine[] {
  if (block === '') return [];
  if (!block.endsWith('\n')) throw new Error('signature lines end in a newline');
  return block
    .slice(0, -1)
    .split('\n')
    .map((line) => {
      const m = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/u.exec(line);
      if (!m) throw new Error(`not a signature line: ${line.slice(0, 120)}`);
      const blob = Buffer.from(m[2]!, 'base64');
      if (blob.length < 5) throw new Error(`signature too short: ${line.slice(0, 120)}`);
      return { name: m[1]!, id: blob.subarray(0, 4).toString('hex'), signature: blob.subarray(4), line: `${line}\n` };
    });
}

/** A checkpoint's first three lines (c2sp.org/tlog-checkpoint) and its extension lines. */
export interface Checkpoint {
  origin: string;
  size: number;
  /** The root hash, hex. */
  rootHash: string;
  extensions: string[];
}

/** Parses a checkpoint text; throws when it is not one. */
export function parseCheckpoint(text: string): Checkpoint {
  const lines = text.split('\n');
  if (lines.length < 4 || lines.at(-1) !== '') throw new Error('a checkpoint has at least three lines');
  const [origin, size, root] = lines as [string, string, string];
  if (!origin) throw new Error('the checkpoint origin is empty');
  if (!/^(0|[1-9][0-9]{0,15})$/.test(size) || !Number.isSafeInteger(Number(size))) {
    throw new Error(`the checkpoint size is not a decimal number: ${size.slice(0, 40)}`);
  }
  const bytes = Buffer.from(root, 'base64');
  if (bytes.length !== 32 || bytes.toString('base64') !== root) throw new Error('the checkpoint root is not 32 bytes');
  return { origin, size: Number(size), rootHash: bytes.toString('hex'), extensions: lines.slice(3, -1) };
}

/**
 * The signatures of a note by the given log keys (type 0x01) that verify; lines by other keys are ignored, as
 * c2sp.org/signed-note says.
 */
export function logSignaturesThatVerify(
  text: string,
  signatures: readonly SignatureLine[],
  keys: readonly NamedKey[],
): NamedKey[] {
  const good: NamedKey[] = [];
  for (const s of signatures) {
    const key = keys.find((k) => k.type === ED25519 && k.name === s.name && k.id === s.id);
    if (key && s.signature.length === 64 && verify(null, Buffer.from(text, 'utf8'), key.key, s.signature)) {
      good.push(key);
    }
  }
  return good;
}

/** The message a `cosignature/v1` signs: header, time line, then the whole checkpoint text. */
export function cosignedMessage(checkpointText: string, timestamp: number): Buffer {
  return Buffer.from(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`, 'utf8');
}

/** The signature line of a `cosignature/v1` of the checkpoint text at `timestamp` (POSIX seconds). */
export function cosign(
  checkpointText: string,
  timestamp: number,
  name: string,
  privateKey: KeyObject,
  publicKey: KeyObject,
): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new Error('a cosignature time is a POSIX timestamp');
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(BigInt(timestamp));
  const signature = sign(null, cosignedMessage(checkpointText, timestamp), privateKey);
  const id = Buffer.from(keyIdOf(name, COSIGNATURE_V1, rawPublicKey(publicKey)), 'hex');
  return `\u2014 ${name} ${Buffer.concat([id, time, signature]).toString('base64')}\n`;
}

/**
 * The time of a cosignature line by `key` (type 0x04) over the checkpoint text when it verifies; null when the
 * line is by another key or does not verify.
 */
export function verifyCosignature(checkpointText: string, line: SignatureLine, key: NamedKey): number | null {
  if (key.type !== COSIGNATURE_V1 || line.name !== key.name || line.id !== key.id) return null;
  if (line.signature.length !== 72) return null;
  const timestamp = line.signature.readBigUInt64BE(0);
  if (timestamp > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const t = Number(timestamp);
  return verify(null, cosignedMessage(checkpointText, t), key.key, line.signature.subarray(8)) ? t : null;
}

/** An add-checkpoint request (c2sp.org/tlog-witness): old size, consistency proof, the signed checkpoint note. */
export interface AddCheckpoint {
  oldSize: number;
  proof: Buffer[];
  note: string;
}

/** The most consistency proof lines a request may hold. */
export const MAX_PROOF_LINES = 63;

/** Parses an add-checkpoint request body; throws with the reason when it is malformed (400). */
export function parseAddCheckpoint(body: string): AddCheckpoint {
  const blank = body.indexOf('\n\n');
  if (blank < 0) throw new Error('the body is the old size line, the proof lines, a blank line and the checkpoint');
  const head = body.slice(0, blank).split('\n');
  const old = /^old (0|[1-9][0-9]{0,15})$/.exec(head[0] ?? '');
  if (!old || !Number.isSafeInteger(Number(old[1]))) throw new Error('the first line is `old <size>` in decimal');
  const proofLines = head.slice(1);
  if (proofLines.length > MAX_PROOF_LINES) throw new Error(`at most ${MAX_PROOF_LINES} consistency proof lines`);
  const proof = proofLines.map((line, i) => {
    const hash = Buffer.from(line, 'base64');
    if (hash.length !== 32 || hash.toString('base64') !== line) {
      throw new Error(`consistency proof line ${i + 1} is not a base64 SHA-256 hash`);
    }
    return hash;
  });
  return { oldSize: Number(old[1]), proof, note: body.slice(blank + 2) };
}

/** What the witness last cosigned for a log. */
export interface WitnessedState {
  size: number;
  rootHash: string;
}

/** The witness's answer to one request: cosign, or refuse with the protocol's status. */
export type Judgement =
  | { outcome: 'cosign'; checkpoint: Checkpoint; text: string }
  | { outcome: 'malformed'; reason: string }
  | { outcome: 'unknown-log'; origin: string }
  | { outcome: 'bad-signature' }
  | { outcome: 'old-size-too-large' }
  | { outcome: 'conflict'; size: number; reason: string }
  | { outcome: 'bad-proof' };

/**
 * Judges an add-checkpoint request against the logs the witness follows (origin → keys) and what it last cosigned
 * for the request's log (null: never), in the order c2sp.org/tlog-witness gives: known origin (404), a signature by the log
 * (403), old size at most the new (400), old size equal to the recorded one (409 with it), equal roots at equal
 * sizes (409), the consistency proof (422).
 */
export function judgeAddCheckpoint(
  request: AddCheckpoint,
  logKeys: (origin: string) => readonly NamedKey[] | undefined,
  recorded: WitnessedState | null,
): Judgement {
  let text: string;
  let signatures: SignatureLine[];
  let checkpoint: Checkpoint;
  try {
    ({ text, signatures } = splitNote(request.note));
    checkpoint = parseCheckpoint(text);
  } catch (err) {
    return { outcome: 'malformed', reason: (err as Error).message };
  }
  const keys = logKeys(checkpoint.origin);
  if (!keys) return { outcome: 'unknown-log', origin: checkpoint.origin };
  if (logSignaturesThatVerify(text, signatures, keys).length === 0) return { outcome: 'bad-signature' };
  if (request.oldSize > checkpoint.size) return { outcome: 'old-size-too-large' };
  const last = recorded;
  const lastSize = last?.size ?? 0;
  if (request.oldSize !== lastSize) {
    return { outcome: 'conflict', size: lastSize, reason: `the witness last cosigned size ${lastSize}` };
  }
  const newRoot = Buffer.from(checkpoint.rootHash, 'hex');
  if (last && checkpoint.size === last.size) {
    return last.rootHash === checkpoint.rootHash
      ? { outcome: 'cosign', checkpoint, text }
      : { outcome: 'conflict', size: lastSize, reason: `another root at size ${lastSize}: a fork` };
  }
  if (request.oldSize === 0) {
    return request.proof.length === 0 ? { outcome: 'cosign', checkpoint, text } : { outcome: 'bad-proof' };
  }
  const oldRoot = Buffer.from(last!.rootHash, 'hex');
  return verifyConsistency(request.oldSize, checkpoint.size, oldRoot, newRoot, request.proof)
    ? { outcome: 'cosign', checkpoint, text }
    : { outcome: 'bad-proof' };
}
