import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { type NoteVerifier, noteKeyIdOf, parseVerifierKey } from './note.js';

/** One platform key as `GET /api/transparency/audit/keys` lists it. */
export interface PublishedKey {
  keyId: string;
  algorithm: 'Ed25519';
  publicKey: string;
  noteKeyName: string;
  noteKeyId: string;
  verifierKey: string;
  validFrom: string;
  validUntil: string | null;
}

/** A checked platform key: its id matches its key, and its note verifier is ready. */
export interface TrustedKey extends PublishedKey {
  key: KeyObject;
  note: NoteVerifier;
}

/**
 * The platform's key set from the published list (the answer of `/audit/keys`, whole or its `data`): every key's
 * id must be the SHA-256 of its raw key and its verifier key must name the same key, else the set is refused.
 */
export function keySetFrom(json: unknown): TrustedKey[] {
  const list = Array.isArray(json) ? json : (json as { data?: unknown })?.data;
  if (!Array.isArray(list) || list.length === 0) throw new Error('the key set lists no keys');
  return (list as PublishedKey[]).map((k) => {
    const raw = Buffer.from(k.publicKey, 'base64');
    if (raw.length !== 32) throw new Error(`key ${k.keyId} is not a 32-byte Ed25519 key`);
    if (createHash('sha256').update(raw).digest('hex') !== k.keyId) {
      throw new Error(`key ${k.keyId}: its id is not the SHA-256 of its key`);
    }
    const note = parseVerifierKey(k.verifierKey);
    if (!note.raw.equals(raw) || noteKeyIdOf(k.noteKeyName, raw) !== k.noteKeyId) {
      throw new Error(`key ${k.keyId}: its verifier key names another key`);
    }
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
    return { ...k, key, note };
  });
}

/** Whether `at` lies in the key's time of use (from its start, before its retirement). */
export function validAt(key: PublishedKey, at: string): boolean {
  const t = Date.parse(at);
  return t >= Date.parse(key.validFrom) && (key.validUntil === null || t < Date.parse(key.validUntil));
}
