import type { WebhookArea, WebhookScope } from '@rootline/contracts';
import { inboxTable, outboxTable } from '@rootline/db';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const transparencySchema = pgSchema('transparency');

/** The audit log: one row per entry, appended in index order under the head row's lock. */
export const auditEntries = transparencySchema.table(
  'audit_entries',
  {
    index: bigint('index', { mode: 'number' }).primaryKey(),
    /** The entry exactly as hashed (RFC 8785 canonical JSON); the columns below are copies for filtering. */
    body: text('body').notNull(),
    leafHash: text('leaf_hash').notNull(),
    eventId: text('event_id').unique(),
    kind: text('kind').notNull(),
    actor: text('actor'),
    entity: text('entity'),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [
    index('audit_entries_actor_idx').on(t.actor, t.index),
    index('audit_entries_kind_idx').on(t.kind, t.index),
    index('audit_entries_entity_idx').on(t.entity, t.index),
    index('audit_entries_occurred_idx').on(t.occurredAt),
  ],
);

/** Perfect Merkle subtrees (level 0 = leaves), from which every root and proof is computed. */
export const auditNodes = transparencySchema.table(
  'audit_nodes',
  {
    level: integer('level').notNull(),
    idx: bigint('idx', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [primaryKey({ name: 'audit_nodes_pkey', columns: [t.level, t.idx] })],
);

/** The one head row: size, right edge and root of the tree. Appends lock it, so they are serial. */
export const auditHead = transparencySchema.table('audit_head', {
  id: integer('id').primaryKey(),
  size: bigint('size', { mode: 'number' }).notNull(),
  frontier: jsonb('frontier').$type<{ level: number; idx: number; hash: string }[]>().notNull(),
  rootHash: text('root_hash').notNull(),
  /** Leaf hash of the last entry, the next entry's prevHash. */
  lastHash: text('last_hash'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull(),
});

/** Events of public kinds, numbered in commit order (seq is given under the audit head lock): SSE and history. */
export const publicEvents = transparencySchema.table(
  'public_events',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    eventId: text('event_id').notNull().unique(),
    kind: text('kind').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'string' }).notNull(),
    data: jsonb('data').notNull(),
  },
  (t) => [index('public_events_kind_idx').on(t.kind, t.seq)],
);

/**
 * Webhooks of users. The secret is kept to sign deliveries (HMAC needs it), sealed with AES-256-GCM as
 * `v1:<iv>:<ciphertext>:<tag>` (domain/secret-box.ts); it is never answered back.
 */
export const webhooks = transparencySchema.table(
  'webhooks',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    status: text('status').$type<'active' | 'disabled'>().notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
    disabledReason: text('disabled_reason').$type<'gone' | 'failing'>(),
    /** First failed attempt since the last success: the clock that disables a receiver failing for days. */
    failingSince: timestamp('failing_since', { withTimezone: true, mode: 'date' }),
    /** `own`: events concerning the owner; `public`: every public event of its kinds. */
    scope: text('scope').$type<WebhookScope>().notNull().default('own'),
    /** A bounding box and/or a region the events must be in; null for anywhere. */
    area: jsonb('area').$type<WebhookArea>(),
  },
  (t) => [
    index('webhooks_owner_idx').on(t.ownerId),
    // The feed's webhooks, read for every batch of events whoever they concern.
    index('webhooks_public_idx').on(t.status).where(sql`${t.scope} = 'public'`),
  ],
);

/** One row per (webhook, event): pending until delivered or its attempts are spent. */
export const webhookDeliveries = transparencySchema.table(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id').notNull(),
    eventId: text('event_id').notNull(),
    kind: text('kind').notNull(),
    occurredAt: text('occurred_at').notNull(),
    data: jsonb('data').notNull(),
    status: text('status').$type<'pending' | 'delivered' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_idx').on(t.webhookId, t.eventId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt),
  ],
);

/** Ed25519 public keys users sign with; a deleted key is kept (revoked) so its past signatures still verify. */
export const signingKeys = transparencySchema.table(
  'signing_keys',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    /** The raw 32-byte key, base64url without padding. */
    publicKey: text('public_key').notNull(),
    /** SHA-256 of the raw key, lowercase hex. */
    fingerprint: text('fingerprint').notNull(),
    label: text('label'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('signing_keys_owner_idx').on(t.ownerId),
    uniqueIndex('signing_keys_owner_key_idx').on(t.ownerId, t.fingerprint),
    index('signing_keys_fingerprint_idx').on(t.fingerprint),
  ],
);

/**
 * Challenges issued to prove possession of a signing key at registration (ADR 103): random, bound to the user who
 * asked, answerable once before `expires_at`.
 */
export const signingKeyChallenges = transparencySchema.table(
  'signing_key_challenges',
  {
    /** 32 random bytes, base64url. */
    challenge: text('challenge').primaryKey(),
    ownerId: text('owner_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Set when a key was registered with it: it answers nothing more. */
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('signing_key_challenges_expiry_idx').on(t.expiresAt)],
);

/** Signatures users submitted over statements of transport events, ownership transfers and certificates. */
export const subjectSignatures = transparencySchema.table(
  'signatures',
  {
    id: text('id').primaryKey(),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    keyId: text('key_id').notNull(),
    signerId: text('signer_id').notNull(),
    /** The 64-byte Ed25519 signature, base64url without padding. */
    signature: text('signature').notNull(),
    /** The exact bytes verified (RFC 8785 canonical JSON of the statement), kept to re-verify them. */
    statement: text('statement').notNull(),
    statementHash: text('statement_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [uniqueIndex('signatures_subject_key_idx').on(t.subjectType, t.subjectId, t.keyId)],
);
/**
 * Analytics read model: counters per UTC day, series and up to three dimensions ('' when unused), kept by the
 * domain-event consumer with one upsert per event or batch (see docs/analytics.md for each series' dimensions).
 */
export const analyticsDaily = transparencySchema.table(
  'analytics_daily',
  {
    series: text('series').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    d1: text('d1').notNull().default(''),
    d2: text('d2').notNull().default(''),
    d3: text('d3').notNull().default(''),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
    distanceKm: doublePrecision('distance_km').notNull().default(0),
    kgCo2e: doublePrecision('kg_co2e').notNull().default(0),
    yieldKg: doublePrecision('yield_kg').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'analytics_daily_pkey', columns: [t.series, t.day, t.d1, t.d2, t.d3] }),
    // One user's figures (series transport-user, d1 = user) without scanning everyone's days.
    index('analytics_daily_d1_idx').on(t.series, t.d1, t.day),
  ],
);

/** What each journey event added to the counters, so a correction can take its predecessor's share back out. */
export const analyticsTransportFacts = transparencySchema.table('analytics_transport_facts', {
  eventId: text('event_id').primaryKey(),
  day: date('day', { mode: 'string' }).notNull(),
  kind: text('kind').notNull(),
  mode: text('mode').notNull(),
  handlerId: text('handler_id').notNull(),
  distanceKm: doublePrecision('distance_km').notNull(),
  kgCo2e: doublePrecision('kg_co2e').notNull(),
  inForce: boolean('in_force').notNull().default(true),
});

/** One row once the counters hold every event of the audit log (filled at start-up from the log, then live). */
export const analyticsState = transparencySchema.table('analytics_state', {
  id: integer('id').primaryKey(),
  /** Size of the audit log when the counters were built from it. */
  builtFromAuditSize: bigint('built_from_audit_size', { mode: 'number' }).notNull(),
  builtAt: timestamp('built_at', { withTimezone: true, mode: 'string' }).notNull(),
});

/**
 * Every key the platform has signed with (tree heads, checkpoints, certificates), so what was signed before a
 * rotation still verifies; the current key is the one row without `valid_until`.
 */
export const platformKeys = transparencySchema.table('platform_keys', {
  keyId: text('key_id').primaryKey(),
  publicKeyPem: text('public_key_pem').notNull(),
  validFrom: timestamp('valid_from', { withTimezone: true, mode: 'string' }).notNull(),
  validUntil: timestamp('valid_until', { withTimezone: true, mode: 'string' }),
});

/** Certificates of authenticity by id: one current per plant until it is revoked, then a new one. */
export const certificates = transparencySchema.table(
  'certificates',
  {
    id: text('id').primaryKey(),
    plantId: text('plant_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'string' }),
    revokedBy: text('revoked_by'),
    reason: text('reason'),
    auditIndex: bigint('audit_index', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('certificates_current_idx').on(t.plantId).where(sql`${t.revokedAt} is null`),
    index('certificates_revoked_idx').on(t.revokedAt).where(sql`${t.revokedAt} is not null`),
  ],
);

export const outbox = outboxTable(transparencySchema);
export const inbox = inboxTable(transparencySchema);

/** Witness side (c2sp.org/tlog-witness): the latest checkpoint cosigned for each log this node follows. */
export const witnessedLogs = transparencySchema.table('witnessed_logs', {
  origin: text('origin').primaryKey(),
  size: bigint('size', { mode: 'number' }).notNull(),
  rootHash: text('root_hash').notNull(),
  /** The checkpoint note as received, kept as evidence of what the log signed. */
  note: text('note').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull(),
});

/** Log side: the latest cosignature of each witness (by its verifier key) over one of the log's checkpoints. */
export const checkpointCosignatures = transparencySchema.table(
  'checkpoint_cosignatures',
  {
    witness: text('witness').primaryKey(),
    treeSize: bigint('tree_size', { mode: 'number' }).notNull(),
    rootHash: text('root_hash').notNull(),
    /** The signature line as the witness sent it, newline included. */
    line: text('line').notNull(),
    cosignedAt: timestamp('cosigned_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [index('checkpoint_cosignatures_size_idx').on(t.treeSize)],
);

/**
 * Peering (docs/federation.md): per peer of PEERS, the latest of its checkpoints this node verified (signature, and
 * consistency with the one mirrored before), and the peer's state. A row of another origin than the peer's setting
 * is of an earlier setting and starts again.
 */
export const federationPeers = transparencySchema.table('federation_peers', {
  name: text('name').primaryKey(),
  origin: text('origin').notNull(),
  /** `pending`, `ok`, `unreachable` or `fork` (a fork stays until an operator deletes the row). */
  state: text('state').notNull(),
  size: bigint('size', { mode: 'number' }),
  rootHash: text('root_hash'),
  /** The verified checkpoint note as the peer served it. */
  note: text('note'),
  verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'string' }),
  checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'string' }),
  problem: text('problem'),
  /** For a fork: the signed checkpoint inconsistent with the mirrored one, kept as evidence. */
  forkNote: text('fork_note'),
});

/** A peer's proof bundles this node fetched and verified against its mirror, by peer and plant or transaction id. */
export const federationBundles = transparencySchema.table(
  'federation_bundles',
  {
    peer: text('peer').notNull(),
    entryId: text('entry_id').notNull(),
    treeSize: bigint('tree_size', { mode: 'number' }).notNull(),
    rootHash: text('root_hash').notNull(),
    bundle: jsonb('bundle').notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.peer, t.entryId] })],
);
