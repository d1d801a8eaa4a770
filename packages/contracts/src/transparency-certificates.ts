import { type Static, Type } from '@sinclair/typebox';
import { LOCALES } from './auth.js';
import { Location, Text, Timestamp } from './common.js';
import { Defaulted, defineSubject, Named } from './define.js';
import { PlantId, PrivacyLevelSchema, PropagationTypeSchema, StringEnum } from './plants.js';

const Hash = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256, 64 lowercase hex digits' });

export const CertificateId = Type.String({
  pattern: '^cer_[0-9A-Za-z]{26}$',
  description:
    'The certificate’s id: one per plant until it is revoked, so the revocation list can name it (absent on ' +
    'certificates issued before ids were given)',
  examples: ['cer_01JNQ8Z5V3K2M7R4T6W9X0Y1A2'],
});

/** What a certificate of authenticity states; the platform signs the RFC 8785 canonical JSON of this object. */
export const Certificate = Type.Object(
  {
    type: Type.Literal('rootline.certificate-of-authenticity'),
    version: Type.Literal(1),
    issuedAt: Timestamp,
    verificationUrl: Type.String({
      description:
        'What the QR code encodes: the plant’s GS1 Digital Link URI (`<PUBLIC_URL>/8004/<GIAI>`), which redirects to ' +
        'its public verification page',
    }),
    plant: Type.Object({
      id: PlantId,
      commonName: Type.String(),
      scientificName: Type.Union([Type.String(), Type.Null()]),
      generation: Type.Integer({ minimum: 0 }),
      parentId: Type.Union([PlantId, Type.Null()]),
      propagationType: Type.Union([PropagationTypeSchema, Type.Null()]),
      privacyLevel: PrivacyLevelSchema,
      location: Type.Union([Location, Type.Null()], {
        description: 'As stored, after the privacy level was applied; null when hidden',
      }),
      registeredAt: Timestamp,
    }),
    lineage: Type.Object({
      ancestors: Type.Integer({ minimum: 0, description: 'Plants between this one and its root, the root included' }),
      rootId: Type.Union([PlantId, Type.Null()], { description: 'The first registered ancestor; null for a root' }),
      children: Type.Integer({ minimum: 0, description: 'Direct offspring recorded so far' }),
    }),
    block: Type.Object(
      {
        index: Type.Integer({ minimum: 0 }),
        hash: Hash,
        timestamp: Type.String(),
        previousHash: Hash,
        merkleRoot: Hash,
        difficulty: Type.Integer({ minimum: 0 }),
        nonce: Type.Integer({ minimum: 0 }),
      },
      {
        description:
          'The ledger block header: hash = SHA-256(index|timestamp|previousHash|merkleRoot|difficulty|nonce)',
      },
    ),
    ledgerProof: Type.Object(
      {
        txId: Type.String(),
        payload: Type.String({ description: 'The registration as recorded on the ledger (canonical JSON text)' }),
        leaf: Type.String({ description: '`id|type|payloadHash|timestamp`: the Merkle leaf data of the transaction' }),
        leafIndex: Type.Integer({ minimum: 0 }),
        treeSize: Type.Integer({ minimum: 1 }),
        auditPath: Type.Array(Hash),
      },
      { description: 'RFC 6962 inclusion proof of the registration transaction in `block.merkleRoot`' },
    ),
    auditLog: Type.Union(
      [
        Type.Object({
          index: Type.Integer({ minimum: 0, description: 'Index of the `plant.registered` entry' }),
          leafHash: Hash,
          treeSize: Type.Integer({ minimum: 1 }),
          rootHash: Hash,
          auditPath: Type.Array(Hash),
          treeHead: Type.Object({
            timestampMs: Type.Integer({ minimum: 0 }),
            signature: Type.String({ description: 'Ed25519 over the RFC 6962 TreeHeadSignature bytes, base64' }),
          }),
        }),
        Type.Null(),
      ],
      {
        description:
          'RFC 6962 inclusion proof of the `plant.registered` entry in the audit log, with the signed tree head of ' +
          'that size; null in the moments before the audit log has recorded the registration',
      },
    ),
    keyId: Type.String({ description: 'SHA-256 (hex) of the raw Ed25519 public key that signs' }),
    certificateId: Type.Optional(CertificateId),
  },
  { additionalProperties: false },
);
export type Certificate = Static<typeof Certificate>;

export const SignedCertificate = Named(
  'SignedCertificate',
  Type.Object({
    certificate: Certificate,
    signature: Type.Object({
      algorithm: Type.Literal('Ed25519'),
      keyId: Type.String(),
      value: Type.String({
        description: 'Ed25519 signature (base64) over the RFC 8785 canonical JSON of `certificate`',
      }),
    }),
  }),
);
export type SignedCertificate = Static<typeof SignedCertificate>;

export const CERTIFICATE_FORMATS = ['json', 'pdf'] as const;

export const transparencyCertificateGet = defineSubject({
  subject: 'transparency.certificate.get',
  request: Type.Object({
    plantId: PlantId,
    format: Defaulted(
      StringEnum(CERTIFICATE_FORMATS, {
        default: 'json',
        description: '`json` (default): the signed certificate; `pdf`: the same as a printable PDF with a QR code',
      }),
    ),
    language: Type.Optional(
      StringEnum(LOCALES, {
        description:
          'The language of the PDF’s words, dates and numbers (`format=pdf`); default: the language saved on the ' +
          'caller’s account, else the best of `Accept-Language`, else en. The signed JSON is the same in every language',
        examples: ['nl'],
      }),
    ),
  }),
  reply: Type.Object({
    signed: SignedCertificate,
    pdf: Type.Union([Type.String({ description: 'The PDF, base64' }), Type.Null()]),
  }),
  summary: 'A signed certificate of authenticity of a plant',
});

/** One revoked certificate. */
export const CertificateRevocation = Named(
  'CertificateRevocation',
  Type.Object({
    certificateId: CertificateId,
    plantId: PlantId,
    revokedAt: Timestamp,
    reason: Type.String({ description: 'Why it was revoked, as the plant’s owner or the ADMIN gave it (public)' }),
    auditIndex: Type.Integer({ minimum: 0, description: 'The audit log entry that records the revocation' }),
  }),
);
export type CertificateRevocation = Static<typeof CertificateRevocation>;

export const certificateRevoke = defineSubject({
  subject: 'transparency.certificate.revoke',
  request: Type.Object(
    {
      certificateId: CertificateId,
      reason: Text({ minLength: 3, maxLength: 500, description: 'Why; published in the revocation list' }),
    },
    {
      examples: [{ certificateId: 'cer_01JNQ8Z5V3K2M7R4T6W9X0Y1A2', reason: 'The plant was sold; this copy is void' }],
    },
  ),
  reply: CertificateRevocation,
  summary: 'Revoke a certificate (its plant’s owner or an ADMIN)',
});

/** The signed list of every revoked certificate, with the checkpoint of the audit log that records them. */
export const SignedRevocationList = Named(
  'SignedRevocationList',
  Type.Object({
    list: Type.Object({
      type: Type.Literal('rootline.certificate-revocations'),
      issuedAt: Timestamp,
      keyId: Type.String(),
      revocations: Type.Array(CertificateRevocation),
      checkpoint: Type.String({ description: 'The audit log checkpoint (signed note) that holds every revocation' }),
    }),
    signature: Type.Object({
      algorithm: Type.Literal('Ed25519'),
      keyId: Type.String(),
      value: Type.String({ description: 'Ed25519 over the RFC 8785 canonical JSON of `list`, base64' }),
    }),
  }),
);
export type SignedRevocationList = Static<typeof SignedRevocationList>;

export const certificateRevocationsGet = defineSubject({
  subject: 'transparency.certificate-revocations.get',
  request: Type.Object({}),
  reply: SignedRevocationList,
  summary: 'The signed list of revoked certificates',
});
