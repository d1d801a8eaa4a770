import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { offerAccepted } from '@rootline/contracts/marketplace';
import { plantRegistered } from '@rootline/contracts/plants';
import type { SignatureSubjectType } from '@rootline/contracts/signatures';
import { transferAccepted } from '@rootline/contracts/transfers';
import { transportCompleted } from '@rootline/contracts/transport';
import canonicalize from 'canonicalize';

/**
 * The audit-log kind of the event that records each subject type; the subject id is that entry's entity (the
 * first `…Id` of the payload): a transport event's `eventId`, an accepted offer's `offerId` (the sale that passes
 * ownership from seller to buyer), a plant's `plantId` (its registration, which a certificate attests).
 */
export const SUBJECT_EVENT_KIND: Record<SignatureSubjectType, string> = {
  'transport-event': transportCompleted.kind as string,
  'ownership-transfer': offerAccepted.kind as string,
  certificate: plantRegistered.kind as string,
};

/**
 * The audit-log kind of the event that records a subject: an ownership transfer is an accepted offer (`ofr_…`), or an
 * accepted transfer of a record between people and organizations (`trf_…`, ADR 265), recorded by its event.
 */
export function subjectEventKind(type: SignatureSubjectType, id: string): string {
  if (type === 'ownership-transfer' && id.startsWith('trf_')) return transferAccepted.subject;
  return SUBJECT_EVENT_KIND[type];
}

/** The part of an audit entry a statement is made of. */
export interface StatementSource {
  index: number;
  leafHash: string;
  subject: string;
  eventId: string;
  occurredAt: string;
  data: unknown;
}

export interface Statement {
  type: SignatureSubjectType;
  id: string;
  event: { subject: string; eventId: string; occurredAt: string; data: unknown };
  audit: { index: number; leafHash: string };
}

/** The statement users sign about a subject: the facts of the event that recorded it, anchored in the audit log. */
export function subjectStatement(type: SignatureSubjectType, id: string, e: StatementSource): Statement {
  return {
    type,
    id,
    event: { subject: e.subject, eventId: e.eventId, occurredAt: e.occurredAt, data: e.data },
    audit: { index: e.index, leafHash: e.leafHash },
  };
}

/** RFC 8785 canonical JSON of a value: the exact text whose UTF-8 bytes are signed. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('the statement has no JSON form');
  return text;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export class BadKey extends Error {}

/**
 * An Ed25519 public key from its raw 32 bytes in base64url (a JWK `x`) or a PEM SubjectPublicKeyInfo, answered
 * as raw base64url with its key object; BadKey when it is neither or not Ed25519.
 */
export function parsePublicKey(input: string): { raw: string; key: KeyObject } {
  const text = input.trim();
  let key: KeyObject;
  try {
    key = text.startsWith('-----BEGIN')
      ? createPublicKey({ key: text, format: 'pem' })
      : createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: text }, format: 'jwk' });
  } catch (err) {
    throw new BadKey(`not an Ed25519 public key: ${(err as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new BadKey(`a ${key.asymmetricKeyType} key, not Ed25519`);
  const raw = key.export({ format: 'jwk' }).x;
  if (!raw || Buffer.from(raw, 'base64url').length !== 32) throw new BadKey('an Ed25519 key has 32 bytes');
  return { raw, key };
}

/** SHA-256 of the raw key bytes, lowercase hex. */
export function keyFingerprint(raw: string): string {
  return createHash('sha256').update(Buffer.from(raw, 'base64url')).digest('hex');
}

/** Verifies an Ed25519 signature (base64url, 64 bytes) over the UTF-8 bytes of `text`. */
export function verifyEd25519(key: KeyObject, text: string, signature: string): boolean {
  const sig = Buffer.from(signature, 'base64url');
  if (sig.length !== 64) return false;
  return verify(null, Buffer.from(text, 'utf8'), key, sig);
}
