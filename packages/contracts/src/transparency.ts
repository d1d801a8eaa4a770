import { type Static, Type } from '@sinclair/typebox';
import { Text, Timestamp } from './common.js';
import { declaredEvents, defineSignal, defineSubject, type EventDef, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { PUBLIC_EVENT_KINDS } from './event-kinds.js';
import { StringEnum } from './plants.js';

/** A SHA-256 hash as 64 lowercase hex digits. */
const Hash = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256, 64 lowercase hex digits' });

/** Largest audit index or tree size a request may name (a PostgreSQL bigint would hold more; a page never will). */
export const AUDIT_MAX_SIZE = Number.MAX_SAFE_INTEGER;

/** An ISO 8601 UTC instant in a query (a pattern, so the bus checks it as the gateway does). */
const Instant = (description: string) =>
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?Z$',
    maxLength: 40,
    description,
    examples: ['2026-11-01T00:00:00Z'],
  });

const Filter = Text({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_.:-]+$' });

/** One entry of the audit log exactly as it is hashed (its leaf is SHA-256(0x00 ‖ RFC 8785 JSON of this object)). */
export const AuditEntry = Named(
  'AuditEntry',
  Type.Object(
    {
      index: Type.Integer({ minimum: 0, description: 'Position in the log, from 0; also the Merkle leaf index' }),
      prevHash: Type.Union([Hash, Type.Null()], { description: 'Leaf hash of the entry before; null for the first' }),
      source: Type.Union([Type.Literal('event'), Type.Literal('admin')], {
        description: '`event`: a domain event from the stream; `admin`: appended by an ADMIN with a reason',
      }),
      subject: Type.String({
        description: 'Event subject (`evt.<service>.<entity>.<past-tense>`) or `admin.<action>`',
      }),
      kind: Type.String({ description: 'Public event kind when the event has one, else its subject' }),
      eventId: Type.Union([Type.String(), Type.Null()], {
        description: 'Id of the domain event; null for admin entries',
      }),
      actor: Type.Union([Type.String(), Type.Null()], { description: 'User who caused it, when known' }),
      actingFor: Type.Optional(
        Type.Object(
          { id: Type.String(), name: Type.String() },
          {
            description:
              'The organization `actor` acted for (`Rootline-Act-As`), by id and its name then; absent when it acted ' +
              'for itself (and on entries recorded before it was kept)',
          },
        ),
      ),
      entity: Type.Union([Type.String(), Type.Null()], { description: 'Main record it concerns (plant, listing…)' }),
      occurredAt: Timestamp,
      recordedAt: Timestamp,
      reason: Type.Union([Type.String(), Type.Null()], { description: 'Why an ADMIN appended it; null for events' }),
      data: Type.Unknown({ description: 'The event payload, or the details an ADMIN gave' }),
    },
    { additionalProperties: false },
  ),
);
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditQuery = Type.Object({
  actor: Type.Optional(Filter),
  kind: Type.Optional(Filter),
  entity: Type.Optional(Filter),
  from: Type.Optional(
    Instant('Occurred at or after (ISO 8601 UTC); with `to`, it must be before `to`, or nothing matches'),
  ),
  to: Type.Optional(Instant('Occurred before (ISO 8601 UTC)')),
  ...PageQuery.properties,
});

export const AuditAppendInput = Type.Object(
  {
    action: Text({
      minLength: 1,
      maxLength: 60,
      pattern: '^[a-z][a-z0-9-]*$',
      description: 'What was done, lowercase with hyphens; recorded as subject `admin.<action>`',
    }),
    reason: Text({ minLength: 3, maxLength: 2000, description: 'Why it was done' }),
    entity: Type.Optional(Filter),
    details: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]{0,59}$' }), Text({ maxLength: 2000 }), {
        maxProperties: 20,
        description: 'Further facts, as text',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        action: 'account-suspended',
        reason: 'Repeated fraudulent listings reported by three buyers',
        entity: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD',
        details: { ticket: 'SUP-1042' },
      },
    ],
  },
);

/** A signed tree head: the log's size and Merkle root at a time, signed with the platform's Ed25519 key. */
export const SignedTreeHead = Named(
  'SignedTreeHead',
  Type.Object({
    treeSize: Type.Integer({ minimum: 0 }),
    timestamp: Timestamp,
    timestampMs: Type.Integer({ minimum: 0, description: 'The same time in milliseconds since 1970 (signed)' }),
    rootHash: Hash,
    algorithm: Type.Literal('Ed25519'),
    keyId: Hash,
    signature: Type.String({
      description:
        'Base64 Ed25519 signature over RFC 6962 TreeHeadSignature bytes: 0x00 (v1), 0x01 (tree_hash), timestamp ms ' +
        '(uint64 big-endian), tree size (uint64 big-endian), root hash (32 bytes)',
    }),
  }),
);
export type SignedTreeHead = Static<typeof SignedTreeHead>;

export const PublicKey = Type.Object({
  algorithm: Type.Literal('Ed25519'),
  keyId: Hash,
  publicKey: Type.String({ description: 'Raw 32-byte public key, base64' }),
  publicKeyPem: Type.String({ description: 'SubjectPublicKeyInfo PEM' }),
});

export const AuditVerification = Type.Object({
  valid: Type.Boolean(),
  treeSize: Type.Integer({ minimum: 0, description: 'Entries checked' }),
  rootHash: Hash,
  computedRootHash: Hash,
  firstInvalidIndex: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  problems: Type.Array(Type.Object({ index: Type.Integer({ minimum: 0 }), problem: Type.String() }), {
    description: 'At most 100, in log order',
  }),
});

export const AuditInclusionProof = Type.Object({
  index: Type.Integer({ minimum: 0 }),
  treeSize: Type.Integer({ minimum: 1 }),
  leafHash: Hash,
  auditPath: Type.Array(Hash, { description: 'RFC 6962 §2.1.1 PATH, nearest the leaf first' }),
  rootHash: Hash,
});

export const AuditConsistencyProof = Type.Object({
  firstSize: Type.Integer({ minimum: 1 }),
  secondSize: Type.Integer({ minimum: 1 }),
  firstRootHash: Hash,
  secondRootHash: Hash,
  proof: Type.Array(Hash, { description: 'RFC 6962 §2.1.2 PROOF' }),
});

const Size = (description: string, examples?: number[]) =>
  Type.Integer({ minimum: 1, maximum: AUDIT_MAX_SIZE, description, ...(examples ? { examples } : {}) });

export const auditList = defineSubject({
  subject: 'transparency.audit.list',
  request: AuditQuery,
  reply: Type.Object({ items: Type.Array(AuditEntry), pagination: Pagination }),
  summary: 'Audit entries, oldest first, filtered by actor, kind, entity and time',
});
export const auditGet = defineSubject({
  subject: 'transparency.audit.get',
  request: Type.Object({ index: Type.Integer({ minimum: 0, maximum: AUDIT_MAX_SIZE, examples: [0] }) }),
  reply: AuditEntry,
  summary: 'One audit entry by index',
});
export const auditAppend = defineSubject({
  subject: 'transparency.audit.append',
  request: AuditAppendInput,
  reply: AuditEntry,
  summary: 'Append an administrative action with its reason',
});
export const auditVerify = defineSubject({
  subject: 'transparency.audit.verify',
  request: Type.Object({}),
  reply: AuditVerification,
  summary: 'Recompute every entry hash, the hash chain and the Merkle root',
});
export const treeHeadGet = defineSubject({
  subject: 'transparency.tree-head.get',
  request: Type.Object({}),
  reply: SignedTreeHead,
  summary: 'The current signed tree head',
});
export const publicKeyGet = defineSubject({
  subject: 'transparency.public-key.get',
  request: Type.Object({}),
  reply: PublicKey,
  summary: 'The platform public key that signs tree heads',
});
export const inclusionProofGet = defineSubject({
  subject: 'transparency.inclusion-proof.get',
  request: Type.Object({
    index: Type.Integer({ minimum: 0, maximum: AUDIT_MAX_SIZE, examples: [0] }),
    treeSize: Type.Optional(Size('Tree size the proof is for (default the current size)')),
  }),
  reply: AuditInclusionProof,
  summary: 'Merkle audit path of one entry in a tree of the given size',
});
export const consistencyProofGet = defineSubject({
  subject: 'transparency.consistency-proof.get',
  request: Type.Object({
    first: Size('Earlier tree size', [1]),
    second: Type.Optional(Size('Later tree size (default the current size)')),
  }),
  reply: AuditConsistencyProof,
  summary: 'Merkle consistency proof between two tree sizes',
});

/** Every event kind with a public name (`plant.registered`…), as declared in the contracts. */
export function publicEvents(): (EventDef & { kind: string })[] {
  return declaredEvents().filter((e): e is EventDef & { kind: string } => e.kind !== undefined);
}

/** An event of a public kind as the event stream and history show it. */
export const PublicEvent = Named(
  'PublicEvent',
  Type.Object({
    seq: Type.Integer({ minimum: 1, description: 'Position in the public history; the SSE event id' }),
    id: Type.String({ description: 'Domain event id (the same id webhooks carry)' }),
    kind: StringEnum(PUBLIC_EVENT_KINDS, { description: 'Public event kind, e.g. `plant.registered`' }),
    occurredAt: Timestamp,
    data: Type.Unknown({ description: 'The event payload, as documented in the event catalogue' }),
  }),
);
export type PublicEvent = Static<typeof PublicEvent>;

/** One public event kind, as a pattern: the filter below takes only kinds that exist. */
const KIND_CHOICE = `(${PUBLIC_EVENT_KINDS.map((k) => k.replaceAll('.', '\\.')).join('|')})`;

/** Most kinds one `kind` filter may name. */
export const MAX_KIND_FILTER = 30;

export const EventHistoryQuery = Type.Object({
  kind: Type.Optional(
    Text({
      minLength: 1,
      maxLength: 1000,
      pattern: `^${KIND_CHOICE}(,${KIND_CHOICE})*$`,
      description: `Only these kinds, comma-separated (at most ${MAX_KIND_FILTER}), among: ${PUBLIC_EVENT_KINDS.join(', ')}`,
      examples: ['plant.registered,listing.published'],
    }),
  ),
  after: Type.Optional(
    Type.Integer({ minimum: 0, maximum: AUDIT_MAX_SIZE, description: 'Only events with a larger `seq`' }),
  ),
  ...PageQuery.properties,
});

export const eventHistory = defineSubject({
  subject: 'transparency.event.list',
  request: EventHistoryQuery,
  reply: Type.Object({
    items: Type.Array(PublicEvent),
    pagination: Pagination,
    latestSeq: Type.Integer({ minimum: 0, description: 'The last seq recorded, whatever the filter' }),
  }),
  summary: 'History of public events, oldest first',
});

/** Public events up to `seq` were recorded: event streams fetch what is new. */
export const publicEventRecorded = defineSignal({
  subject: 'sig.transparency.event.recorded',
  payload: Type.Object({ seq: Type.Integer({ minimum: 1 }) }),
});
