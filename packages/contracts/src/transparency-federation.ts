import { type Static, Type } from '@sinclair/typebox';
import { PEER_NAME_PATTERN, PeerName, Text, Timestamp } from './common.js';
import { defineSubject, Named } from './define.js';
import { RemoteProof, StringEnum } from './plants.js';
import { ProofBundle } from './transparency-public.js';

export { PEER_NAME_PATTERN, PeerName };

/** The states of a mirrored peer. */
export const PEER_STATES = ['pending', 'ok', 'unreachable', 'fork'] as const;
export type PeerState = (typeof PEER_STATES)[number];

const Hash = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256, 64 lowercase hex digits' });

/** A peer of this node and what this node last verified of its log. */
export const FederationPeer = Named(
  'FederationPeer',
  Type.Object({
    name: Type.String({ description: 'The peer’s name in PEERS' }),
    url: Type.String({ description: 'The peer’s base URL' }),
    origin: Type.String({ description: 'The checkpoint origin of the peer’s log' }),
    state: StringEnum(PEER_STATES, {
      description:
        '`pending` before the first fetch; `ok` when its latest checkpoint verified and was consistent with what ' +
        'this node mirrored before; `unreachable` when the last fetch failed or did not verify (the mirror keeps ' +
        'its last verified checkpoint); `fork` once the peer showed a checkpoint inconsistent with the mirrored one ' +
        '(kept until an operator clears it)',
    }),
    treeSize: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'Size of the last verified checkpoint; null before the first',
    }),
    rootHash: Type.Union([Hash, Type.Null()], { description: 'Its root hash' }),
    checkpoint: Type.Union([Type.String(), Type.Null()], {
      description: 'The last verified checkpoint, as the peer signed it (C2SP signed note)',
    }),
    verifiedAt: Type.Union([Timestamp, Type.Null()], { description: 'When it was verified' }),
    checkedAt: Type.Union([Timestamp, Type.Null()], { description: 'When this node last asked the peer' }),
    problem: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the last fetch failed, or what the fork is; null when `ok`',
    }),
    forkCheckpoint: Type.Union([Type.String(), Type.Null()], {
      description: 'For a fork: the signed checkpoint the peer showed that is inconsistent with the mirrored one',
    }),
  }),
);
export type FederationPeer = Static<typeof FederationPeer>;

export const federationPeersList = defineSubject({
  subject: 'transparency.peer.list',
  request: Type.Object({}),
  reply: Type.Object({ items: Type.Array(FederationPeer) }),
  summary: 'This node’s peers, each with its last verified checkpoint and its state',
});

/** A peer's proof bundle as this node verified it against its mirror of the peer's log. */
export const PeerProofBundle = Named(
  'PeerProofBundle',
  Type.Object({
    peer: Type.String({ description: 'The peer’s name' }),
    entryId: Type.String({ description: 'The plant or ledger transaction asked for' }),
    mirrored: Type.Object(
      {
        treeSize: Type.Integer({ minimum: 1 }),
        rootHash: Hash,
      },
      {
        description:
          'The mirrored checkpoint of the peer’s log the bundle was verified against: its audit proof leads to ' +
          'the bundle’s checkpoint, and that checkpoint is the mirrored one or consistent with it',
      },
    ),
    fetchedAt: Timestamp,
    bundle: ProofBundle,
  }),
);
export type PeerProofBundle = Static<typeof PeerProofBundle>;

export const peerBundleGet = defineSubject({
  subject: 'transparency.peer-bundle.get',
  request: Type.Object({
    peer: PeerName,
    entryId: Type.String({
      pattern: '^(plt|tx)_[A-Za-z0-9]{10,40}$',
      description: 'A plant id (the bundle of its registration) or a ledger transaction id of the peer',
      examples: ['plt_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
    }),
  }),
  reply: PeerProofBundle,
  summary: 'A peer’s proof bundle of a plant or transaction, verified against this node’s mirror of its log',
});

/** A peer's plant whose registration this node verified in full, ready to be named as a parent here. */
export const VerifiedPeerPlant = Named(
  'VerifiedPeerPlant',
  Type.Object({
    peer: Type.String({ description: 'The peer’s name' }),
    url: Type.String({ description: 'The peer’s base URL' }),
    plantId: Type.String(),
    commonName: Type.Union([Type.String(), Type.Null()]),
    scientificName: Type.Union([Type.String(), Type.Null()]),
    generation: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    ...RemoteProof.properties,
  }),
);
export type VerifiedPeerPlant = Static<typeof VerifiedPeerPlant>;

export const peerPlantVerify = defineSubject({
  subject: 'transparency.peer-plant.verify',
  request: Type.Object({
    peer: PeerName,
    plantId: Type.String({ pattern: '^plt_[A-Za-z0-9]{10,40}$', description: 'A plant id of the peer' }),
  }),
  reply: VerifiedPeerPlant,
  summary:
    'A peer’s plant, its registration’s bundle verified in full (ledger proof and proof of work, audit inclusion, ' +
    'signature, consistency with the mirror); refused when the peer forked',
});

/**
 * A peer's ledger transaction whose bundle this node verified in full: what a node records an incoming seed lot (or
 * any other event of a peer) on. The payload is the peer's, as hashed: the asker reads in it what it needs.
 */
export const VerifiedPeerTransaction = Named(
  'VerifiedPeerTransaction',
  Type.Object({
    peer: Type.String({ description: 'The peer’s name' }),
    url: Type.String({ description: 'The peer’s base URL' }),
    transactionId: Type.String({ description: 'The ledger transaction’s id on the peer' }),
    type: Type.String({ description: 'The transaction’s type on the peer (`journey.seed-sharing`, …)' }),
    timestamp: Type.String({ description: 'The transaction’s time on the peer' }),
    payload: Type.String({ description: 'The transaction’s payload: canonical JSON text, as the peer hashed it' }),
    ...RemoteProof.properties,
  }),
);
export type VerifiedPeerTransaction = Static<typeof VerifiedPeerTransaction>;

export const peerTransactionVerify = defineSubject({
  subject: 'transparency.peer-transaction.verify',
  request: Type.Object({
    peer: PeerName,
    transactionId: Type.String({
      pattern: '^tx_[A-Za-z0-9]{10,40}$',
      description: 'A ledger transaction id of the peer',
    }),
  }),
  reply: VerifiedPeerTransaction,
  summary:
    'A peer’s ledger transaction, its bundle verified in full (ledger proof and proof of work, signature, ' +
    'consistency with the mirror); refused when the peer forked',
});

export const peerForkClear = defineSubject({
  subject: 'transparency.peer-fork.clear',
  request: Type.Object(
    {
      peer: PeerName,
      reason: Text({
        minLength: 3,
        maxLength: 2000,
        description: 'Why the fork is cleared (what was found and done), kept in the audit log with the evidence',
        examples: ['The peer restored its log from a backup after a disk failure; its operator confirmed the cause'],
      }),
    },
    { additionalProperties: false },
  ),
  reply: FederationPeer,
  summary:
    'An ADMIN clears a peer’s fork once it has been dealt with: the evidence goes to the audit log, and the mirror ' +
    'starts again from the peer’s current checkpoint',
});
