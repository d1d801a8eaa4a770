import type { ScientificNameSource, SearchType } from '@rootline/contracts';
import type { TransferSigner } from '@rootline/contracts/transfers';
import { agentsTable, ledgerIntentsTable, outboxTable } from '@rootline/db';
import { GEO_BANDS_PER_DEGREE } from '@rootline/domain';
import { sql } from 'drizzle-orm';
import {
  customType,
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

export const plantsSchema = pgSchema('plants');

/** A 64-bit transaction id (`xid8`), read and written as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

export const plants = plantsSchema.table(
  'plants',
  {
    id: text('id').primaryKey(),
    commonName: text('common_name').notNull(),
    scientificName: text('scientific_name'),
    /** Where the scientific name comes from (the checklist, an accepted identification); null for a name as given. */
    scientificNameSource: jsonb('scientific_name_source').$type<ScientificNameSource>(),
    // The location after its privacy level was applied; null when hidden. The exact point of a non-exact plant
    // is never stored.
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    city: text('city'),
    country: text('country'),
    privacyLevel: text('privacy_level').notNull().default('exact'),
    ownerId: text('owner_id').notNull(),
    ownerName: text('owner_name').notNull(),
    /**
     * For an owner without an account: the account name of who stated its name (the registering account,
     * `registeredBy`); null for an account or an anonymous owner (ADR 194).
     */
    ownerNameStatedBy: text('owner_name_stated_by'),
    /** Set for anonymously registered plants. */
    walletAddress: text('wallet_address'),
    generation: integer('generation').notNull().default(0),
    parentId: text('parent_id'),
    propagationType: text('propagation_type'),
    blockIndex: integer('block_index').notNull(),
    blockHash: text('block_hash').notNull(),
    txId: text('tx_id').notNull(),
    registeredAt: timestamp('registered_at', { withTimezone: true, mode: 'string' }).notNull(),
    registeredBy: text('registered_by'),
    /** The seed lot the plant was grown from (ADR 270); its parent is then the lot's first parent plant. */
    seedLotId: text('seed_lot_id'),
    /** Latitude band of the nearby index (see domain/geo.ts); null for hidden plants, so they are never found. */
    geoBand: integer('geo_band').generatedAlwaysAs(sql.raw(`floor(latitude * ${GEO_BANDS_PER_DEGREE})::integer`)),
    // Normalised texts (lower case, no accents) computed in code (domain/search.ts), so that PostgreSQL and
    // PGlite compare the same texts and need no text-search configuration.
    searchSpecies: text('search_species').notNull().default(''),
    searchLocation: text('search_location').notNull().default(''),
    searchOwner: text('search_owner').notNull().default(''),
    /**
     * The transaction that wrote the search texts last (on insert, and by a trigger when an update changes them;
     * null for plants stored before it was kept): each replica's in-memory search index reads the plants changed
     * by the transactions that had not committed when it last looked (docs/adr/316).
     */
    searchChanged: xid8('search_changed').default(sql`pg_current_xact_id()`),
  },
  (t) => [
    index('plants_owner_idx').on(t.ownerId),
    index('plants_parent_idx').on(t.parentId),
    index('plants_seed_lot_idx').on(t.seedLotId),
    // Nearby: one index range per latitude band over longitude; latitude is checked inside the index, and with
    // the id there too the candidates come from the index alone (an index-only scan), without a heap visit each.
    index('plants_geo_idx').on(t.geoBand, t.longitude, t.latitude, t.id),
    index('plants_registered_at_idx').on(t.registeredAt),
    // Search in rank order: the plants of one text, by id, as a range read in the ranking's order (byte order, the
    // text first), so a page stops after its rows; the ids alone count matches without the table (docs/adr/158).
    index('plants_search_species_prefix_idx').on(sql`${t.searchSpecies} collate "C"`, sql`${t.id} collate "C"`),
    index('plants_search_location_prefix_idx').on(sql`${t.searchLocation} collate "C"`, sql`${t.id} collate "C"`),
    index('plants_search_owner_prefix_idx').on(sql`${t.searchOwner} collate "C"`, sql`${t.id} collate "C"`),
    // The changes of the search texts in transaction order, read by the in-memory search indexes (docs/adr/316).
    index('plants_changed_search_idx')
      .on(t.searchChanged, sql`${t.id} collate "C"`)
      .where(sql`${t.searchChanged} is not null`),
  ],
);

/**
 * Every distinct normalised text of each search field, kept by triggers on plants (migration 0006): search ranks
 * these few texts rather than the many plants that share them, then reads each text's plants from its prefix index
 * in order (docs/adr/158). A text whose plants are gone stays, matching none; the empty text is not kept.
 */
export const searchTexts = plantsSchema.table(
  'search_texts',
  {
    field: text('field').$type<SearchType>().notNull(),
    value: text('value').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.field, t.value] }),
    // `LIKE '%q%'` (3 characters or more) from trigrams; for a shorter `q`, the texts that start with it (a range in
    // byte order) and those with a word that starts with it (a prefix query on the words, `'q':*`).
    index('search_texts_value_idx').using('gin', t.value.op('gin_trgm_ops')),
    index('search_texts_prefix_idx').on(t.field, sql`${t.value} collate "C"`),
    index('search_texts_words_idx').using('gin', sql`to_tsvector('simple', ${t.value})`),
  ],
);

/**
 * Anonymous owners: the public half of their wallet key and their encrypted contact. No personal information,
 * no address, no account: the anonymous id is the owner id of their plants.
 */
export const anonymousOwners = plantsSchema.table('anonymous_owners', {
  anonymousId: text('anonymous_id').primaryKey(),
  walletAddress: text('wallet_address').notNull().unique(),
  publicKey: text('public_key').notNull(),
  pseudonym: text('pseudonym'),
  encryptionPublicKey: text('encryption_public_key'),
  encryptedContact: jsonb('encrypted_contact').notNull(),
  /**
   * A server-made private key sealed to the client's `keyEncryptionPublicKey` (which Rootline cannot open), kept so
   * that a retry whose first answer was lost gets it again (ADR 184); null for client-made keys and older rows.
   */
  sealedPrivateKey: jsonb('sealed_private_key'),
});

/**
 * Parents on other nodes (docs/federation.md, "Lineage across nodes"; ADR 308): the plant here whose parent it is,
 * the peer (its name in PEERS and base URL when the link was made), the plant's id there, what its registration's
 * transaction says of it, and the proof it was accepted on: the digest of the proof bundle, the peer's block, and
 * the mirrored checkpoint of the peer's log the bundle verified against.
 */
export const remoteParents = plantsSchema.table('remote_parents', {
  plantId: text('plant_id').primaryKey(),
  peer: text('peer').notNull(),
  peerUrl: text('peer_url').notNull(),
  remotePlantId: text('remote_plant_id').notNull(),
  commonName: text('common_name'),
  scientificName: text('scientific_name'),
  generation: integer('generation'),
  blockHash: text('block_hash').notNull(),
  bundleDigest: text('bundle_digest').notNull(),
  checkpointSize: integer('checkpoint_size').notNull(),
  checkpointRoot: text('checkpoint_root').notNull(),
  verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'string' }).notNull(),
});

/** The state of the service's agents (the lineage agent), one row each; replicas share it. */
export const agents = agentsTable(plantsSchema);

/** Findings of the lineage agent's last completed scan. */
export const lineageAnomalies = plantsSchema.table(
  'lineage_anomalies',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    plantId: text('plant_id').notNull(),
    parentId: text('parent_id'),
    reason: text('reason').notNull(),
    detectedAt: timestamp('detected_at', { withTimezone: true, mode: 'string' }).notNull(),
  },
  (t) => [index('lineage_anomalies_kind_idx').on(t.kind, t.id)],
);

/**
 * Seed lots: the seed inventory (ADR 270, docs/seed-lots.md). Identity (crop, variety, harvest year, parents) is
 * public like a plant's lineage; quantity, storage and notes are the holder's.
 */
export const seedLots = plantsSchema.table(
  'seed_lots',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    crop: text('crop').notNull(),
    /** The crop lower-cased and trimmed: the list's `crop` filter compares with it. */
    cropKey: text('crop_key').notNull(),
    variety: text('variety'),
    /** The plants the seed was saved from, mother first; each existed when named. */
    parentPlantIds: text('parent_plant_ids').array().notNull().default(sql`'{}'::text[]`),
    harvestYear: integer('harvest_year').notNull(),
    quantityAmount: doublePrecision('quantity_amount').notNull(),
    quantityUnit: text('quantity_unit').notNull(),
    storagePlace: text('storage_place'),
    storageTemperatureC: doublePrecision('storage_temperature_c'),
    storageHumidityPct: doublePrecision('storage_humidity_pct'),
    storageContainer: text('storage_container'),
    notes: text('notes'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
    createdBy: text('created_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'string' }).notNull(),
    /** Set when discarded: the lot is kept for the plants and journeys that name it, and no longer listed. */
    discardedAt: timestamp('discarded_at', { withTimezone: true, mode: 'string' }),
  },
  (t) => [index('seed_lots_owner_idx').on(t.ownerId, t.harvestYear, t.id)],
);

/** Germination tests of seed lots (date, seeds sown, germinated, method). */
export const germinationTests = plantsSchema.table(
  'germination_tests',
  {
    id: text('id').primaryKey(),
    seedLotId: text('seed_lot_id').notNull(),
    testedOn: text('tested_on').notNull(),
    seedsSown: integer('seeds_sown').notNull(),
    germinated: integer('germinated').notNull(),
    method: text('method').notNull(),
    notes: text('notes'),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'string' }).notNull(),
    recordedBy: text('recorded_by').notNull(),
  },
  (t) => [index('germination_tests_lot_idx').on(t.seedLotId, t.testedOn, t.id)],
);

/**
 * Every change of a lot's quantity, its first amount included: the ledger of the inventory that lending, returns
 * and sowing will add to (docs/seed-lots.md).
 */
export const seedLotQuantityChanges = plantsSchema.table(
  'seed_lot_quantity_changes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    seedLotId: text('seed_lot_id').notNull(),
    /** recorded (the first amount) or adjusted (an update); lending and returns will add theirs. */
    reason: text('reason').notNull(),
    amount: doublePrecision('amount').notNull(),
    delta: doublePrecision('delta').notNull(),
    unit: text('unit').notNull(),
    note: text('note'),
    at: timestamp('at', { withTimezone: true, mode: 'string' }).notNull(),
    by: text('by').notNull(),
  },
  (t) => [index('seed_lot_quantity_changes_lot_idx').on(t.seedLotId, t.id)],
);

/**
 * Ownership transfers (docs/transfers.md): proposed by the giving side, answered by the recipient or cancelled by
 * the giver. At most one is pending per record (a partial unique index), so two recipients never compete.
 */
export const ownershipTransfers = plantsSchema.table(
  'ownership_transfers',
  {
    id: text('id').primaryKey(),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    subjectName: text('subject_name').notNull(),
    status: text('status').notNull().default('pending'),
    fromId: text('from_id').notNull(),
    fromName: text('from_name').notNull(),
    toId: text('to_id').notNull(),
    toName: text('to_name').notNull(),
    message: text('message'),
    givenBy: jsonb('given_by').$type<TransferSigner>().notNull(),
    acceptedBy: jsonb('accepted_by').$type<TransferSigner>(),
    decidedBy: text('decided_by'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'string' }),
  },
  (t) => [
    index('ownership_transfers_to_idx').on(t.toId, t.createdAt),
    index('ownership_transfers_from_idx').on(t.fromId, t.createdAt),
    uniqueIndex('ownership_transfers_one_pending_idx')
      .on(t.subjectType, t.subjectId)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * Accepted transfers as the ledger recorded them (`ownership.transfer`), one row per transfer: a record's ownership
 * history. Inserted by the ledger's store with the owner change, on the transfer id (a second store fails).
 */
export const ownershipRecords = plantsSchema.table(
  'ownership_records',
  {
    transferId: text('transfer_id').primaryKey(),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    fromId: text('from_id').notNull(),
    fromName: text('from_name').notNull(),
    toId: text('to_id').notNull(),
    toName: text('to_name').notNull(),
    givenBy: jsonb('given_by').$type<TransferSigner>().notNull(),
    acceptedBy: jsonb('accepted_by').$type<TransferSigner>().notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'string' }).notNull(),
    blockIndex: integer('block_index').notNull(),
    blockHash: text('block_hash').notNull(),
    txId: text('tx_id').notNull(),
  },
  (t) => [index('ownership_records_subject_idx').on(t.subjectType, t.subjectId, t.recordedAt)],
);

/**
 * CSV imports (docs/imports.md, ADR 297): one row per job, its file in storage until it is read. A worker claims a
 * queued job (or one whose claim is older than its lease: a replica died) and reads the file from the start;
 * the keys make reading it again harmless.
 */
export const imports = plantsSchema.table(
  'imports',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    createdBy: text('created_by').notNull(),
    kind: text('kind').notNull(),
    dryRun: integer('dry_run').notNull(),
    state: text('state').notNull(),
    filename: text('filename').notNull(),
    uploadKey: text('upload_key').notNull(),
    keyColumn: text('key_column').notNull(),
    mapping: jsonb('mapping').$type<Record<string, string>>().notNull(),
    totalBytes: integer('total_bytes').notNull(),
    bytesRead: integer('bytes_read').notNull().default(0),
    rowsRead: integer('rows_read').notNull().default(0),
    created: integer('created').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    problemsKept: integer('problems_kept').notNull().default(0),
    problemsTruncated: integer('problems_truncated').notNull().default(0),
    /** The owner's name as plants are recorded with it (plant imports; the gateway binds it to the account). */
    ownerName: text('owner_name'),
    /** Who started it (the call's actor): the rows are written on their behalf. */
    actor: jsonb('actor').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'string' }),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'string' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'string' }),
  },
  (t) => [
    index('imports_state_idx').on(t.state, t.createdAt),
    // An owner's imports, newest first (GET /api/imports).
    index('imports_owner_idx').on(t.ownerId, t.createdAt),
  ],
);

/** The problems of an import's rows, by line (at most IMPORT_LIMITS.maxProblems per import). */
export const importProblems = plantsSchema.table(
  'import_problems',
  {
    importId: text('import_id').notNull(),
    seq: integer('seq').notNull(),
    line: integer('line').notNull(),
    column: text('column'),
    field: text('field'),
    reason: text('reason').notNull(),
    message: text('message').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.seq] }),
    index('import_problems_line_idx').on(t.importId, t.line, t.seq),
  ],
);

/**
 * The key each imported record was created under, per owner and kind: a row with a key already here is the same
 * record, never a second one. The key is unique for an owner and kind; the record id is found by it.
 */
export const importKeys = plantsSchema.table(
  'import_keys',
  {
    ownerId: text('owner_id').notNull(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    recordId: text('record_id').notNull(),
    importId: text('import_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.kind, t.key] }), uniqueIndex('import_keys_record_idx').on(t.recordId)],
);

export const outbox = outboxTable(plantsSchema);

/** Plants being recorded: written before the ledger transaction, deleted with the plant's row (see the recorder). */
export const ledgerIntents = ledgerIntentsTable(plantsSchema);

/**
 * Loans of seed from a lot (docs/seed-lots.md, Lending; ADR 293, 294): a library lends a quantity of a lot to a
 * borrower until the end of a season; the borrower returns seed saved from the plants grown from it as a new lot.
 */
export const seedLotLoans = plantsSchema.table(
  'seed_lot_loans',
  {
    id: text('id').primaryKey(),
    seedLotId: text('seed_lot_id').notNull(),
    /** The lot's holder when lent (an account or an organization): the library. */
    lenderId: text('lender_id').notNull(),
    lenderName: text('lender_name').notNull(),
    borrowerId: text('borrower_id').notNull(),
    borrowerName: text('borrower_name').notNull(),
    amount: doublePrecision('amount').notNull(),
    unit: text('unit').notNull(),
    /** `YYYY-season`, e.g. 2027-autumn. */
    dueSeason: text('due_season').notNull(),
    /** The last instant of the due season: overdue after it while not returned. */
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'string' }).notNull(),
    notes: text('notes'),
    lentAt: timestamp('lent_at', { withTimezone: true, mode: 'string' }).notNull(),
    lentBy: text('lent_by').notNull(),
    /** The seed-sharing journey event that records the loan on the ledger; null until recorded. */
    lendEventId: text('lend_event_id'),
    returnedAt: timestamp('returned_at', { withTimezone: true, mode: 'string' }),
    returnedBy: text('returned_by'),
    /** The lot the returned seed became (held by the lender). */
    returnLotId: text('return_lot_id'),
    /** The seed-saving journey event that records the return on the ledger. */
    returnEventId: text('return_event_id'),
  },
  (t) => [
    index('seed_lot_loans_lender_idx').on(t.lenderId, t.id),
    index('seed_lot_loans_borrower_idx').on(t.borrowerId, t.id),
    index('seed_lot_loans_lot_idx').on(t.seedLotId),
  ],
);

/**
 * Seed handed across nodes (docs/federation.md; ADR 309, 310), both directions: an outgoing handoff took seed from a
 * lot here for a grower on a peer; an incoming one made a lot here from a peer's verified seed-sharing transaction,
 * and keeps the proof it was accepted on. One handoff id per peer and direction.
 */
export const seedLotHandoffs = plantsSchema.table(
  'seed_lot_handoffs',
  {
    /** The handoff's `urn:uuid`, the same on both nodes. */
    handoffId: text('handoff_id').notNull(),
    direction: text('direction').notNull(),
    /** The peer's name in PEERS: where it went (outgoing) or came from (incoming). */
    peer: text('peer').notNull(),
    /** The lot here: the one handed from, or the one received into. */
    seedLotId: text('seed_lot_id').notNull(),
    amount: doublePrecision('amount').notNull(),
    unit: text('unit').notNull(),
    /** Outgoing: the recipient as stated; incoming: the claimant's account id. */
    recipient: text('recipient').notNull(),
    /** This node's seed-sharing journey event of the handoff and its ledger transaction; null until recorded. */
    eventId: text('event_id'),
    transactionId: text('transaction_id'),
    // Incoming only: the peer's lot and the proof its transaction was accepted on.
    peerUrl: text('peer_url'),
    remoteSeedLotId: text('remote_seed_lot_id'),
    remoteTransactionId: text('remote_transaction_id'),
    blockHash: text('block_hash'),
    bundleDigest: text('bundle_digest'),
    checkpointSize: integer('checkpoint_size'),
    checkpointRoot: text('checkpoint_root'),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'string' }).notNull(),
    createdBy: text('created_by').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.peer, t.handoffId, t.direction] }),
    index('seed_lot_handoffs_lot_idx').on(t.seedLotId, t.createdAt),
  ],
);
