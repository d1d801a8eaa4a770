import { type Static, Type } from '@sinclair/typebox';
import { TxId } from './chain.js';
import { Timestamp } from './common.js';
import { defineSubject, Named } from './define.js';
import { PlantId } from './plants.js';
import { AUDIT_MAX_SIZE, AuditEntry } from './transparency.js';

/** A SHA-256 hash as 64 lowercase hex digits. */
const Hash = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256, 64 lowercase hex digits' });

/**
 * An audit entry as anyone may read it: its place, its hashes and what the public event history shows of it.
 * `entry` is the whole entry as hashed only when it holds nothing beyond that (docs/transparency.md).
 */
export const PublicAuditEntry = Named(
  'PublicAuditEntry',
  Type.Object({
    index: Type.Integer({ minimum: 0, description: 'Position in the log, from 0; also the Merkle leaf index' }),
    leafHash: Hash,
    prevHash: Type.Union([Hash, Type.Null()], { description: 'Leaf hash of the entry before; null for the first' }),
    source: Type.Union([Type.Literal('event'), Type.Literal('admin')]),
    kind: Type.String({
      description: 'Public event kind (`plant.registered`), else the event subject, or `admin` for an admin entry',
    }),
    entity: Type.Union([Type.String(), Type.Null()], {
      description: 'The record concerned, for events of a public kind; null otherwise',
    }),
    occurredAt: Timestamp,
    recordedAt: Timestamp,
    data: Type.Unknown({
      description: 'The public form of the event payload (the fields the event history shows); null when not public',
    }),
    entry: Type.Union([AuditEntry, Type.Null()], {
      description:
        'The whole entry exactly as hashed, when it holds nothing beyond its public form (a public event whose actor ' +
        'is named in its public payload, or has none): then SHA-256(0x00 ‖ RFC 8785 JSON of `entry`) = `leafHash`. ' +
        'Null otherwise: the entry holds personal data, and only its leaf hash is public',
    }),
  }),
);
export type PublicAuditEntry = Static<typeof PublicAuditEntry>;

export const auditPublicGet = defineSubject({
  subject: 'transparency.audit.public-get',
  request: Type.Object({ index: Type.Integer({ minimum: 0, maximum: AUDIT_MAX_SIZE, examples: [0] }) }),
  reply: PublicAuditEntry,
  summary: 'The public form of one audit entry',
});

/** The log's current state as a C2SP tlog-checkpoint in a C2SP signed note. */
export const Checkpoint = Named(
  'Checkpoint',
  Type.Object({
    origin: Type.String({ description: 'The log’s origin line, also the signing key’s name' }),
    treeSize: Type.Integer({ minimum: 0 }),
    rootHash: Hash,
    keyId: Hash,
    noteKeyId: Type.String({
      pattern: '^[0-9a-f]{8}$',
      description: 'The signed note’s key id: SHA-256(key name ‖ 0x0A ‖ 0x01 ‖ public key)[:4], hex',
    }),
    note: Type.String({
      description:
        'The signed note: `<origin>\\n<tree size>\\n<base64 root hash>\\n`, a blank line, and `— <origin> ' +
        'base64(key id ‖ Ed25519 signature over the text)\\n` (c2sp.org/tlog-checkpoint, c2sp.org/signed-note), then ' +
        'one `— <witness name> base64(key id ‖ time ‖ signature)\\n` line per witness cosignature held for this ' +
        'checkpoint (c2sp.org/tlog-cosignature; AUDIT_WITNESSES)',
    }),
  }),
);
export type Checkpoint = Static<typeof Checkpoint>;

export const checkpointGet = defineSubject({
  subject: 'transparency.checkpoint.get',
  request: Type.Object({}),
  reply: Checkpoint,
  summary: 'The current checkpoint of the audit log as a signed note',
});

/** One signing key of the platform, current or retired. */
export const PlatformKey = Named(
  'PlatformKey',
  Type.Object({
    keyId: Hash,
    algorithm: Type.Literal('Ed25519'),
    publicKey: Type.String({ description: 'Raw 32-byte public key, base64' }),
    publicKeyPem: Type.String({ description: 'SubjectPublicKeyInfo PEM' }),
    noteKeyName: Type.String({ description: 'The key name in signed notes (the log origin)' }),
    noteKeyId: Type.String({ pattern: '^[0-9a-f]{8}$', description: 'The key id in signed notes, hex' }),
    verifierKey: Type.String({
      description: 'The note verifier key `<name>+<note key id>+base64(0x01 ‖ public key)`, for tlog tooling',
    }),
    validFrom: Timestamp,
    validUntil: Type.Union([Timestamp, Type.Null()], { description: 'When it was retired; null for the current key' }),
    status: Type.Union([Type.Literal('current'), Type.Literal('retired')]),
  }),
);
export type PlatformKey = Static<typeof PlatformKey>;

export const platformKeysGet = defineSubject({
  subject: 'transparency.platform-keys.get',
  request: Type.Object({}),
  reply: Type.Object({ items: Type.Array(PlatformKey) }),
  summary: 'Every key the platform has signed with, newest first',
});

/** A ledger block header with its proof of work: hash = SHA-256(index|timestamp|previousHash|merkleRoot|difficulty|nonce). */
export const LedgerBlockHeader = Named(
  'LedgerBlockHeader',
  Type.Object({
    index: Type.Integer({ minimum: 0 }),
    hash: Hash,
    timestamp: Type.String(),
    previousHash: Hash,
    merkleRoot: Hash,
    difficulty: Type.Integer({ minimum: 0 }),
    nonce: Type.Integer({ minimum: 0 }),
  }),
);

/**
 * Everything needed to check a ledger transaction without trusting the platform: the transaction, its Merkle path to
 * its block, the block header and the one before it (proof of work and the link), and, for a plant, the audit entry
 * of its registration with its inclusion proof in a signed checkpoint.
 */
export const ProofBundle = Named(
  'ProofBundle',
  Type.Object({
    type: Type.Literal('rootline.proof-bundle'),
    version: Type.Literal(1),
    plantId: Type.Union([Type.String(), Type.Null()], { description: 'The plant whose registration this proves' }),
    transaction: Type.Object({
      id: Type.String(),
      type: Type.String(),
      payload: Type.String({ description: 'Canonical JSON text, as hashed' }),
      payloadHash: Hash,
      timestamp: Type.String(),
      position: Type.Integer({ minimum: 0 }),
    }),
    ledgerProof: Type.Object({
      leaf: Type.String({ description: '`id|type|payloadHash|timestamp`' }),
      leafIndex: Type.Integer({ minimum: 0 }),
      treeSize: Type.Integer({ minimum: 1 }),
      auditPath: Type.Array(Hash, { description: 'RFC 6962 path to `block.merkleRoot`, nearest the leaf first' }),
    }),
    block: LedgerBlockHeader,
    previousBlock: Type.Union([LedgerBlockHeader, Type.Null()], { description: 'Null for the genesis block' }),
    auditEntry: Type.Union([PublicAuditEntry, Type.Null()], {
      description:
        'The audit entry recording the plant’s registration, or the journey event a `transport.<kind>` transaction ' +
        'records; null for other transactions or before it is recorded',
    }),
    auditProof: Type.Union([
      Type.Object({
        index: Type.Integer({ minimum: 0 }),
        treeSize: Type.Integer({ minimum: 1 }),
        leafHash: Hash,
        auditPath: Type.Array(Hash),
        rootHash: Hash,
      }),
      Type.Null(),
    ]),
    checkpoint: Type.Union([Type.String(), Type.Null()], {
      description: 'The signed checkpoint (C2SP signed note) of the tree the audit proof leads to',
    }),
  }),
);
export type ProofBundle = Static<typeof ProofBundle>;

export const plantProofBundleGet = defineSubject({
  subject: 'transparency.proof-bundle.plant',
  request: Type.Object({
    plantId: PlantId,
  }),
  reply: ProofBundle,
  summary: 'The public proof bundle of a plant’s registration',
});

export const txProofBundleGet = defineSubject({
  subject: 'transparency.proof-bundle.transaction',
  request: Type.Object({
    txId: TxId,
  }),
  reply: ProofBundle,
  summary: 'The public proof bundle of a ledger transaction',
});

/** Most entries (and hashes) one tile or entry bundle holds (c2sp.org/tlog-tiles). */
export const TILE_WIDTH = 256;

export const logTileGet = defineSubject({
  subject: 'transparency.tile.get',
  request: Type.Object({
    kind: Type.Union([Type.Literal('hashes'), Type.Literal('entries')], {
      description: '`hashes`: a Merkle tile of `level`; `entries`: an entry bundle',
    }),
    level: Type.Integer({ minimum: 0, maximum: 63 }),
    index: Type.Integer({ minimum: 0, maximum: AUDIT_MAX_SIZE }),
    width: Type.Integer({
      minimum: 1,
      maximum: TILE_WIDTH,
      description: '256 for a full tile, less for a partial one',
    }),
  }),
  reply: Type.Object({ bytes: Type.String({ description: 'The tile or bundle, base64' }) }),
  summary: 'One tile or entry bundle of the audit log as c2sp.org/tlog-tiles serves it',
});
