import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { BadSignature } from './note.js';

/**
 * Witness cosignatures (c2sp.org/tlog-cosignature, Ed25519 `cosignature/v1`) and the policy a verifier holds them
 * to: which witnesses it trusts and how many of them must have cosigned a checkpoint. Written from the
 * specification, sharing no code with the services.
 */

/** A witness the verifier trusts: its name, key id and key, from its verifier key. */
export interface Cosigner {
  name: string;
  id: string;
  key: KeyObject;
  vkey: string;
}

/** The witnesses trusted and how many of them must cosign. */
export interface WitnessPolicy {
  witnesses: Cosigner[];
  threshold: number;
}

/** Thrown when a checkpoint has fewer valid cosignatures than the policy asks. */
export class NotEnoughCosignatures extends BadSignature {}

/** A cosigner from its verifier key `<name>+<hex id>+base64(0x04 ‖ 32-byte Ed25519 key)`; the id must match. */
export function parseCosignerKey(vkey: string): Cosigner {
  const parts = vkey.split('+');
  if (parts.length < 3) throw new Error(`not a verifier key: ${vkey}`);
  const [name, id] = parts as [string, string];
  const material = Buffer.from(parts.slice(2).join('+'), 'base64');
  if (!/^[0-9a-f]{8}$/.test(id)) throw new Error(`verifier key id is not 8 hex digits: ${vkey}`);
  if (material.length !== 33 || material[0] !== 4) throw new Error(`not an Ed25519 cosigner key (type 0x04): ${vkey}`);
  const raw = material.subarray(1);
  const expected = createHash('sha256')
    .update(`${name}\n`)
    .update(Uint8Array.of(4))
    .update(raw)
    .digest()
    .subarray(0, 4)
    .toString('hex');
  if (expected !== id) throw new Error(`verifier key id does not match its key: ${vkey}`);
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  return { name, id, key, vkey };
}

/** A policy from its JSON `{ "witnesses": ["<vkey>", …], "threshold": n }`; n from 1 to the number of witnesses. */
export function parseWitnessPolicy(json: unknown): WitnessPolicy {
  const p = json as { witnesses?: unknown; threshold?: unknown };
  if (!Array.isArray(p?.witnesses) || p.witnesses.some((w) => typeof w !== 'string')) {
    throw new Error('a witness policy lists its witnesses’ verifier keys in "witnesses"');
  }
  const witnesses = (p.witnesses as string[]).map(parseCosignerKey);
  const threshold = p.threshold ?? witnesses.length;
  if (typeof threshold !== 'number' || !Number.isInteger(threshold) || threshold < 1 || threshold > witnesses.length) {
    throw new Error(`a witness policy's "threshold" is a whole number from 1 to ${witnesses.length}`);
  }
  return { witnesses, threshold };
}

/** A valid cosignature: who made it and when (POSIX seconds). */
export interface ValidCosignature {
  witness: string;
  timestamp: number;
}

/**
 * The valid cosignatures of a signed checkpoint note by the policy's witnesses, one per witness. Lines by other keys
 * are ignored; a line by a trusted witness that does not verify is not counted.
 */
export function cosignaturesOf(note: string, policy: WitnessPolicy): ValidCosignature[] {
  const split = note.lastIndexOf('\n\n');
  if (!note.endsWith('\n') || split < 0) throw new Error('not a signed note');
  const text = note.slice(0, split + 1);
  const found = new Map<string, ValidCosignature>();
  for (const line of note.slice(split + 2, -1).split('\n')) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/u.exec(line);
    if (!m) continue;
    const blob = Buffer.from(m[2] as string, 'base64');
    if (blob.length !== 4 + 8 + 64) continue;
    const id = blob.subarray(0, 4).toString('hex');
    const w = policy.witnesses.find((c) => c.name === m[1] && c.id === id);
    if (!w || found.has(w.vkey)) continue;
    const time = blob.readBigUInt64BE(4);
    const message = Buffer.from(`cosignature/v1\ntime ${time}\n${text}`, 'utf8');
    if (verify(null, message, w.key, blob.subarray(12))) {
      found.set(w.vkey, { witness: w.name, timestamp: Number(time) });
    }
  }
  return [...found.values()];
}

/** Throws `NotEnoughCosignatures` unless the note has the policy's threshold of valid cosignatures. */
export function requireCosignatures(note: string, policy: WitnessPolicy): ValidCosignature[] {
  const valid = cosignaturesOf(note, policy);
  if (valid.length < policy.threshold) {
    throw new NotEnoughCosignatures(
      `cosigned by ${valid.length} of the ${policy.witnesses.length} trusted witnesses` +
        `${valid.length > 0 ? ` (${valid.map((v) => v.witness).join(', ')})` : ''}; the policy asks ${policy.threshold}`,
    );
  }
  return valid;
}
