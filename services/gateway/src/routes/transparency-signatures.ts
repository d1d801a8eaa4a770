import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  KEY_CHALLENGE_TTL_SECONDS,
  SignatureKey,
  SignatureKeyInput,
  SignatureSubmitInput,
  SignatureVerifyInput,
  SubjectSignature,
  signatureKeyChallengeCreate,
  signatureKeyCreate,
  signatureKeyDelete,
  signatureKeyGet,
  signatureKeyList,
  signatureList,
  signatureStatementGet,
  signatureSubmit,
  signatureVerify,
} from '@rootline/contracts';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';

const TAGS = ['Transparency'];

const STATEMENT =
  'The statement of a subject is `{ type, id, event: { subject, eventId, occurredAt, data }, audit: { index, ' +
  'leafHash } }` built from the audit-log entry of the event that recorded it (`transport-event`: the ' +
  '`transport.completed` event of that transport event id; `ownership-transfer`: the `offer.accepted` event of that ' +
  'offer id, or the `evt.plants.transfer.accepted` event of that transfer id (`trf_…`, its parties: the accounts ' +
  'that gave and accepted it and the people it moved between); `certificate`: the `plant.registered` event of that ' +
  'plant id). The bytes signed are the UTF-8 of its ' +
  'RFC 8785 canonical JSON; the signature is Ed25519 (RFC 8032, pure, no pre-hash), 64 bytes in base64url.';

/** Statements and signatures of public records are public; an ownership transfer's only to the offer's parties. */
const SUBJECT_RULE = {
  rule: 'party',
  field: 'subjectId',
  record: 'offer',
  why: 'public records for anyone; an ownership-transfer (an accepted offer) only to its parties',
} as const;

/** User signatures under /api/transparency/signatures: Ed25519 keys, statements, signatures, verification. */
export const transparencySignatureRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'POST',
    url: '/signatures/keys/challenge',
    summary: 'Ask for a key-registration challenge',
    description:
      `A random challenge (32 bytes, base64url), bound to the caller, answerable once within ${KEY_CHALLENGE_TTL_SECONDS} ` +
      's, with the message prefix to sign: `rootline-key-registration:<challenge>:<userId>:`. Append the public key ' +
      'as raw base64url, sign the UTF-8 bytes with its private key (Ed25519) and send the signature as `proof` with ' +
      'POST /api/transparency/signatures/keys (ADR 103).',
    tags: TAGS,
    policy: { permission: 'signatures:write', object: { rule: 'own', why: 'a challenge for the caller' } },
    subject: signatureKeyChallengeCreate,
    status: 201,
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/signatures/keys',
    summary: 'Register a signing key',
    description:
      'Registers an Ed25519 public key of the caller: the raw 32 bytes in base64url (43 characters, as a JWK `x`) or ' +
      'a PEM SubjectPublicKeyInfo. Answered as raw base64url with its fingerprint (SHA-256 of the raw key).\n\n' +
      'Proof of possession: `challenge` from POST /api/transparency/signatures/keys/challenge and `proof`, the ' +
      'Ed25519 signature with the private key over the UTF-8 bytes of ' +
      '`rootline-key-registration:<challenge>:<userId>:<publicKey>` (publicKey as raw base64url, also for a PEM). ' +
      'The challenge is used up by the registration. 400 VALIDATION_ERROR with details `reason` `proof-invalid`, ' +
      '`challenge-unknown`, `challenge-used` or `challenge-expired`; 403 FORBIDDEN `challenge-not-yours` for a ' +
      'challenge issued to another user. 409 DUPLICATE when the caller registered the key already, or when another ' +
      'user did (`reason` `key-of-another-user`).',
    tags: TAGS,
    policy: { permission: 'signatures:write', idempotent: true, object: { rule: 'own' } },
    subject: signatureKeyCreate,
    status: 201,
    errors: ['FORBIDDEN', 'DUPLICATE', 'IDEMPOTENCY_KEY_REUSED'],
    example: SignatureKeyInput.examples?.[0],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/signatures/keys',
    summary: 'Your signing keys',
    description: 'The caller’s keys, oldest first, deleted ones too (with `revokedAt`).',
    tags: TAGS,
    policy: { permission: 'signatures:write', object: { rule: 'own' } },
    subject: signatureKeyList,
    page: { item: SignatureKey },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/signatures/keys/:keyId',
    summary: 'Read a signing key',
    description: 'One key. Owner or ADMIN.',
    tags: TAGS,
    policy: { permission: 'signatures:write', object: { rule: 'owner', field: 'keyId', record: 'signing key' } },
    subject: signatureKeyGet,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'DELETE',
    url: '/signatures/keys/:keyId',
    summary: 'Delete a signing key',
    description:
      'Revokes the key: it signs nothing more, and the signatures made with it are listed as `key-revoked`. Owner only.',
    tags: TAGS,
    policy: { permission: 'signatures:write', object: { rule: 'owner', field: 'keyId', record: 'signing key' } },
    subject: signatureKeyDelete,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/signatures/statement',
    summary: 'What to sign',
    description:
      'The statement of a subject, its canonical JSON and the SHA-256 of it. An `ownership-transfer` (an accepted ' +
      'offer: buyer, quantity, price) is private to its parties: anyone else is 403 FORBIDDEN `not-a-party`. ' +
      STATEMENT,
    tags: TAGS,
    policy: {
      permission: 'transparency:read',
      object: SUBJECT_RULE,
    },
    subject: signatureStatementGet,
    errors: ['FORBIDDEN', 'NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/signatures',
    summary: 'Sign a subject',
    description:
      'Submits the caller’s signature over the statement of a subject with one of the caller’s keys. Only a party to ' +
      'the subject may sign (a user who caused the event or whom its payload names, such as the handler and the ' +
      'recipient of a transport event, the seller and the buyer of an offer, the owner of a plant), or an ADMIN. The ' +
      'signature is verified first: a signature that does not verify is 400 VALIDATION_ERROR with `details.reason` ' +
      `\`signature-invalid\`. ${STATEMENT}`,
    tags: TAGS,
    policy: {
      permission: 'signatures:write',
      idempotent: true,
      object: { rule: 'own', why: 'signed with one of the caller’s own keys' },
    },
    subject: signatureSubmit,
    status: 201,
    errors: ['NOT_FOUND', 'DUPLICATE', 'IDEMPOTENCY_KEY_REUSED'],
    example: SignatureSubmitInput.examples?.[0],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/signatures',
    summary: 'Signatures of a subject',
    description:
      'The signatures of a subject, oldest first, each verified again: `valid`, `invalid` or `key-revoked`. Those of ' +
      'an `ownership-transfer` to its parties and an ADMIN only (403 FORBIDDEN `not-a-party`; 404 when not recorded).',
    tags: TAGS,
    policy: {
      permission: 'transparency:read',
      object: SUBJECT_RULE,
    },
    subject: signatureList,
    page: { item: SubjectSignature },
    errors: ['FORBIDDEN', 'NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/signatures/verify',
    summary: 'Verify a signature',
    description:
      'Verifies an Ed25519 signature (base64url) over the UTF-8 bytes of the RFC 8785 canonical JSON of any ' +
      '`statement` with any public key (raw base64url or PEM). Answers `valid` and the canonical text; stores nothing.',
    tags: TAGS,
    policy: {
      permission: 'transparency:read',
      object: { rule: 'none', why: 'checks a signature against public keys' },
    },
    subject: signatureVerify,
    example: SignatureVerifyInput.examples?.[0],
  });
};
