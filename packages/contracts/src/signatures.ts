import { type Static, Type } from '@sinclair/typebox';
import { PrefixedId, Text, Timestamp } from './common.js';
import { defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';

/**
 * What users sign: a transport event (a handoff), an ownership transfer (an accepted offer, or an accepted transfer
 * between people and organizations), a certificate.
 */
export const SIGNATURE_SUBJECT_TYPES = ['transport-event', 'ownership-transfer', 'certificate'] as const;
export type SignatureSubjectType = (typeof SIGNATURE_SUBJECT_TYPES)[number];

export const SignatureSubjectTypeSchema = Type.Union(
  SIGNATURE_SUBJECT_TYPES.map((t) => Type.Literal(t)),
  {
    examples: ['transport-event'],
    description:
      '`transport-event`: a transport event id; `ownership-transfer`: an accepted offer id, or an accepted transfer id ' +
      '(`trf_…`); `certificate`: a plant id ' +
      '(the certificate of authenticity of its registration)',
  },
);

export const SignatureKeyId = PrefixedId('sgk', 'Signing key identifier');
export const SignatureId = PrefixedId('sig', 'Signature identifier');

const SubjectId = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,100}$',
  description: 'Id of the record signed (see subjectType)',
  examples: ['tev_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
});

/** A raw Ed25519 public key: 32 bytes, base64url (43 characters, no padding). */
const RawKey = '[A-Za-z0-9_-]{43}';
/** An Ed25519 signature: 64 bytes, base64url (86 characters; `==` padding allowed). */
export const SignatureValue = Type.String({
  pattern: '^[A-Za-z0-9_-]{86}(==)?$',
  description: 'Ed25519 signature (64 bytes) in base64url',
  examples: ['4AcdsyeJsO_zwXzSGsXoJ0RUgrJEm0RUDY8iRZkk0SxqBIMjVw4vuP6sT9ZOVM7DX3wERQTSRfFb39Oo3X3cDA'],
});

export const SignaturePublicKey = Type.String({
  pattern: `^(${RawKey}|-----BEGIN PUBLIC KEY-----[A-Za-z0-9+/=\\s]+-----END PUBLIC KEY-----\\s*)$`,
  maxLength: 400,
  description:
    'Ed25519 public key: the raw 32 bytes in base64url (43 characters, as a JWK `x`), or a PEM SubjectPublicKeyInfo ' +
    '(`-----BEGIN PUBLIC KEY-----`); stored and answered as raw base64url',
});

/** How long a key-registration challenge may be answered (ADR 103). */
export const KEY_CHALLENGE_TTL_SECONDS = 300;
/** The start of the message a key-registration proof signs: `rootline-key-registration:<challenge>:<userId>:<publicKey>`. */
export const KEY_REGISTRATION_PREFIX = 'rootline-key-registration';

/** A random challenge: 32 bytes, base64url (43 characters). */
export const KeyChallengeValue = Type.String({
  pattern: '^[A-Za-z0-9_-]{43}$',
  description: 'A single-use challenge from POST /api/transparency/signatures/keys/challenge',
  examples: ['kR2wq8f3Xo1n8mW5bFz7YcU0hL4tA9eJ6sVdPgQiN2E'],
});

export const KeyChallenge = Type.Object(
  {
    challenge: KeyChallengeValue,
    expiresAt: Timestamp,
    messagePrefix: Type.String({
      description:
        'Sign, with the private key, the UTF-8 bytes of this prefix followed by the public key as raw base64url ' +
        '(43 characters, the JWK `x`, also when registering a PEM): ' +
        '`rootline-key-registration:<challenge>:<userId>:<publicKey>`',
    }),
  },
  {
    examples: [
      {
        challenge: 'kR2wq8f3Xo1n8mW5bFz7YcU0hL4tA9eJ6sVdPgQiN2E',
        expiresAt: '2026-05-01T12:05:00.000Z',
        messagePrefix:
          'rootline-key-registration:kR2wq8f3Xo1n8mW5bFz7YcU0hL4tA9eJ6sVdPgQiN2E:usr_01HZX3K6Q2W8N4B7T5R9V0C1MD:',
      },
    ],
  },
);

export const SignatureKeyInput = Type.Object(
  {
    publicKey: SignaturePublicKey,
    label: Type.Optional(Text({ minLength: 1, maxLength: 100, description: 'A name to tell keys apart' })),
    challenge: KeyChallengeValue,
    proof: Type.String({
      pattern: '^[A-Za-z0-9_-]{86}(==)?$',
      description:
        'Ed25519 signature (64 bytes, base64url) with the private key over the UTF-8 bytes of ' +
        '`rootline-key-registration:<challenge>:<userId>:<publicKey>` (publicKey as raw base64url): proof of possession',
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        publicKey: 'Q3i1mG1So-vBuFYvfLw1pen7YEHaxChcIyw7G1kh1c8',
        label: 'Field tablet',
        challenge: 'kR2wq8f3Xo1n8mW5bFz7YcU0hL4tA9eJ6sVdPgQiN2E',
        proof: '4AcdsyeJsO_zwXzSGsXoJ0RUgrJEm0RUDY8iRZkk0SxqBIMjVw4vuP6sT9ZOVM7DX3wERQTSRfFb39Oo3X3cDA',
      },
    ],
  },
);

export const SignatureKey = Named(
  'SigningKey',
  Type.Object({
    id: SignatureKeyId,
    ownerId: Type.String(),
    publicKey: Type.String({ description: 'Raw 32-byte key, base64url' }),
    fingerprint: Type.String({ description: 'SHA-256 of the raw key, lowercase hex' }),
    label: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    revokedAt: Type.Union([Timestamp, Type.Null()], { description: 'Set when deleted: no new signatures' }),
  }),
);
export type SignatureKey = Static<typeof SignatureKey>;

export const SignatureSubjectRef = Type.Object({
  subjectType: SignatureSubjectTypeSchema,
  subjectId: SubjectId,
});

/** The statement of a subject and the exact bytes to sign. */
export const SignatureStatement = Type.Object({
  statement: Type.Object(
    {
      type: SignatureSubjectTypeSchema,
      id: Type.String(),
      event: Type.Object({
        subject: Type.String(),
        eventId: Type.String(),
        occurredAt: Type.String(),
        data: Type.Unknown(),
      }),
      audit: Type.Object({ index: Type.Integer(), leafHash: Type.String() }),
    },
    { description: 'The facts signed, from the audit log entry of the event that recorded the subject' },
  ),
  canonical: Type.String({ description: 'RFC 8785 canonical JSON of `statement`: sign its UTF-8 bytes' }),
  sha256: Type.String({ description: 'SHA-256 of the canonical bytes, lowercase hex' }),
});

export const SignatureSubmitInput = Type.Object(
  {
    subjectType: SignatureSubjectTypeSchema,
    subjectId: SubjectId,
    keyId: SignatureKeyId,
    signature: SignatureValue,
  },
  {
    additionalProperties: false,
    examples: [
      {
        subjectType: 'transport-event',
        subjectId: 'tev_01HZX3K6Q2W8N4B7T5R9V0C1MD',
        keyId: 'sgk_01HZX3K6Q2W8N4B7T5R9V0C1MD',
        signature: '4AcdsyeJsO_zwXzSGsXoJ0RUgrJEm0RUDY8iRZkk0SxqBIMjVw4vuP6sT9ZOVM7DX3wERQTSRfFb39Oo3X3cDA',
      },
    ],
  },
);

export const SIGNATURE_STATUSES = ['valid', 'invalid', 'key-revoked'] as const;

export const SubjectSignature = Named(
  'Signature',
  Type.Object({
    id: SignatureId,
    subjectType: SignatureSubjectTypeSchema,
    subjectId: Type.String(),
    keyId: SignatureKeyId,
    signerId: Type.String({ description: 'The user who signed (owner of the key)' }),
    publicKey: Type.String({ description: 'The signing key, raw base64url' }),
    signature: Type.String(),
    statementSha256: Type.String({ description: 'SHA-256 of the canonical statement signed' }),
    createdAt: Timestamp,
    status: Type.Union(
      SIGNATURE_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          'Checked again at every read: `valid`, `invalid` (the signature does not match the statement), or ' +
          '`key-revoked` (valid, but its key was deleted since)',
      },
    ),
  }),
);

export const SignatureVerifyInput = Type.Object(
  {
    statement: Type.Unknown({ description: 'Any JSON value; its RFC 8785 canonical JSON (UTF-8) is what is verified' }),
    signature: SignatureValue,
    publicKey: SignaturePublicKey,
  },
  {
    additionalProperties: false,
    examples: [
      {
        statement: { type: 'certificate', id: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD' },
        signature: '4AcdsyeJsO_zwXzSGsXoJ0RUgrJEm0RUDY8iRZkk0SxqBIMjVw4vuP6sT9ZOVM7DX3wERQTSRfFb39Oo3X3cDA',
        publicKey: 'Q3i1mG1So-vBuFYvfLw1pen7YEHaxChcIyw7G1kh1c8',
      },
    ],
  },
);

export const SignatureVerification = Type.Object({
  valid: Type.Boolean(),
  canonical: Type.String({ description: 'The canonical JSON that was verified' }),
  sha256: Type.String(),
});

export const signatureKeyChallengeCreate = defineSubject({
  subject: 'transparency.signing-key-challenge.create',
  request: Type.Object({}),
  reply: KeyChallenge,
  summary: 'A single-use challenge, bound to the caller, to prove possession of a key being registered',
});
export const signatureKeyCreate = defineSubject({
  subject: 'transparency.signing-key.create',
  request: SignatureKeyInput,
  reply: SignatureKey,
  summary: 'Register an Ed25519 public key of the caller, with proof of possession over a challenge',
});
export const signatureKeyList = defineSubject({
  subject: 'transparency.signing-key.list',
  request: Type.Object({ ...PageQuery.properties }),
  reply: Type.Object({ items: Type.Array(SignatureKey), pagination: Pagination }),
  summary: "The caller's keys, revoked ones included",
});
export const signatureKeyGet = defineSubject({
  subject: 'transparency.signing-key.get',
  request: Type.Object({ keyId: SignatureKeyId }),
  reply: SignatureKey,
  summary: 'One key, to its owner or an ADMIN',
});
export const signatureKeyDelete = defineSubject({
  subject: 'transparency.signing-key.delete',
  request: Type.Object({ keyId: SignatureKeyId }),
  reply: SignatureKey,
  summary: 'Revoke a key: no new signatures with it; past ones keep verifying, marked `key-revoked`',
});
export const signatureStatementGet = defineSubject({
  subject: 'transparency.signature-statement.get',
  request: SignatureSubjectRef,
  reply: SignatureStatement,
  summary: 'The statement of a subject and its canonical bytes, to sign',
});
export const signatureSubmit = defineSubject({
  subject: 'transparency.signature.create',
  request: SignatureSubmitInput,
  reply: SubjectSignature,
  summary: 'Submit a signature over the statement of a subject; it is verified before it is stored',
});
export const signatureList = defineSubject({
  subject: 'transparency.signature.list',
  request: Type.Object({ ...SignatureSubjectRef.properties, ...PageQuery.properties }),
  reply: Type.Object({ items: Type.Array(SubjectSignature), pagination: Pagination }),
  summary: 'Signatures of a subject, each verified again',
});
export const signatureVerify = defineSubject({
  subject: 'transparency.signature.verify',
  request: SignatureVerifyInput,
  reply: SignatureVerification,
  summary: 'Verify an Ed25519 signature over the canonical JSON of any statement',
});
