import { Kind, type SchemaOptions, type Static, Type, TypeRegistry } from '@sinclair/typebox';
import {
  groupedDigits,
  Location,
  PartyInput,
  PeerName,
  PrefixedId,
  RecordedParty,
  SeedLotId,
  Text,
  Timestamp,
} from './common.js';
import { Defaulted, defineEvent, defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { CoverPhoto } from './photos.js';

TypeRegistry.Set<{ enum: readonly string[] }>(
  'StringEnum',
  (schema, value) => typeof value === 'string' && schema.enum.includes(value),
);

/**
 * A string limited to a list of values. JSON Schema `enum` (so HTTP validation says "must be equal to one of
 * the allowed values" and OpenAPI lists them), checked on the bus by the `StringEnum` kind registered above.
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ [Kind]: 'StringEnum', type: 'string', enum: [...values], ...options });
}

export const PlantId = PrefixedId('plt', 'Plant identifier');

/** A plant named where a record lists plants (a lot's parents, the plants grown from a loan): never a bare id. */
export const PlantName = Named(
  'PlantName',
  Type.Object({
    id: PlantId,
    commonName: Type.String({ description: 'The plant’s common name, as registered' }),
    scientificName: Type.Union([Type.String(), Type.Null()], { description: 'Its species, when known' }),
  }),
);
export type PlantName = Static<typeof PlantName>;

/**
 * Location privacy levels, applied before a location is stored or written to the ledger:
 * exact (unchanged), fuzzy (random offset of 1 to 5 km), city (centre of a ~10 km grid cell),
 * country (centre of a ~100 km grid cell, city dropped), hidden (no location at all).
 */
export const PRIVACY_LEVELS = ['exact', 'fuzzy', 'city', 'country', 'hidden'] as const;
export type PrivacyLevel = (typeof PRIVACY_LEVELS)[number];
const PRIVACY_DESCRIPTION =
  'How much of the location is disclosed, applied before it is stored or written to the ledger: exact (unchanged), ' +
  'fuzzy (moved 1 to 5 km in a random direction), city (centre of a grid cell of about 10 km), country (centre of a ' +
  'grid cell of about 100 km; the city is dropped), hidden (no location at all; the plant never appears in nearby ' +
  'results).';
export const PrivacyLevelSchema = StringEnum(PRIVACY_LEVELS, { description: PRIVACY_DESCRIPTION });

/** How an offspring plant was obtained from its parent. */
export const PROPAGATION_TYPES = [
  'clone',
  'seed',
  'cutting',
  'graft',
  'division',
  'layering',
  'tissue-culture',
] as const;
export type PropagationType = (typeof PROPAGATION_TYPES)[number];
export const PropagationTypeSchema = StringEnum(PROPAGATION_TYPES, {
  description:
    'clone (genetically identical copy), seed (sexual reproduction), cutting (rooted stem, leaf or root piece), ' +
    'graft (scion joined to a rootstock), division (clump split into parts), layering (stem rooted while still ' +
    'attached), tissue-culture (grown from cells in a sterile medium)',
});

const CommonName = Text({ minLength: 1, maxLength: 200, examples: ['Tomato'] });
const ScientificName = Text({ minLength: 1, maxLength: 200, examples: ['Solanum lycopersicum'] });

/**
 * The spec's Plant registration input. Required: commonName, location (latitude, longitude) and owner.id (its name
 * is the account's).
 * Optional: scientificName, location.city, location.country, privacyLevel (default exact).
 */
export const PlantInput = Type.Object(
  {
    commonName: CommonName,
    scientificName: Type.Optional(ScientificName),
    location: Location,
    owner: PartyInput,
    privacyLevel: Defaulted(
      StringEnum(PRIVACY_LEVELS, { default: 'exact', description: `${PRIVACY_DESCRIPTION} Default: exact.` }),
    ),
    seedLotId: Type.Optional(
      Type.String({
        pattern: SeedLotId.pattern,
        examples: ['lot_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
        description:
          'The recorded seed lot the plant was grown from: the plant becomes a seedling of the lot’s first parent ' +
          'plant (generation + 1, propagation seed), or a root plant when the lot names no parent; 404 NOT_FOUND for ' +
          'an unknown lot, 409 CONFLICT for a discarded one',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PlantInput = Static<typeof PlantInput>;

export const RegistrationResult = Named(
  'RegistrationResult',
  Type.Object({
    id: PlantId,
    blockHash: Type.String({ description: 'Hash of the block that recorded the plant' }),
    timestamp: Timestamp,
  }),
);
export type RegistrationResult = Static<typeof RegistrationResult>;

/** Where a plant's scientific name comes from, and what the bundled checklist or the identification adds to it. */
export const ScientificNameSource = Named(
  'ScientificNameSource',
  Type.Object({
    source: StringEnum(['checklist', 'identification'] as const, {
      description:
        'checklist: the name given was checked against the bundled checklist (an accepted name, or a synonym ' +
        'replaced by it); identification: a candidate of a photo identification was accepted',
    }),
    author: Type.Union([Type.String(), Type.Null()], { description: 'Authorship of the accepted name' }),
    family: Type.Union([Type.String(), Type.Null()]),
    givenName: Type.Union([Type.String(), Type.Null()], {
      description: 'The name as given, when the checklist replaced a synonym by its accepted name',
    }),
    identificationId: Type.Union([Type.String(), Type.Null()]),
    provider: Type.Union([Type.String(), Type.Null()]),
    score: Type.Union([Type.Number(), Type.Null()], { description: 'The identification’s confidence, 0 to 1' }),
    recordedAt: Timestamp,
  }),
);
export type ScientificNameSource = Static<typeof ScientificNameSource>;

export const Plant = Named(
  'Plant',
  Type.Object({
    id: PlantId,
    commonName: Type.String(),
    scientificName: Type.Union([Type.String(), Type.Null()]),
    scientificNameSource: Type.Optional(ScientificNameSource),
    location: Type.Union([Location, Type.Null()], {
      description: 'The location as stored, after the privacy level was applied; null when hidden',
    }),
    privacyLevel: PrivacyLevelSchema,
    owner: RecordedParty,
    walletAddress: Type.Union([Type.String(), Type.Null()], {
      description: 'Anonymous wallet address of an anonymously registered plant; null otherwise',
    }),
    generation: Type.Integer({ minimum: 0, description: '0 for a registered plant, parent + 1 for offspring' }),
    parentId: Type.Union([PlantId, Type.Null()]),
    propagationType: Type.Union([PropagationTypeSchema, Type.Null()], {
      description: 'How the plant was obtained from its parent; null for a registered (root) plant',
    }),
    block: Type.Object({ index: Type.Integer(), hash: Type.String(), txId: Type.String() }),
    registeredAt: Timestamp,
  }),
);
export type Plant = Static<typeof Plant>;

/** A parent on another node: a plant of one of this node's peers (PEERS), named by the peer's name and its id. */
export const RemoteParentInput = Type.Object(
  {
    peer: PeerName,
    plantId: Type.String({
      pattern: '^plt_[A-Za-z0-9]{10,40}$',
      description: 'The plant’s id on that node',
      examples: ['plt_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
    }),
  },
  {
    additionalProperties: false,
    description:
      'A parent on another node: the peer’s name in this node’s PEERS and the plant’s id there. Its proof bundle is ' +
      'fetched and verified through the peer mirror before the offspring is recorded (docs/federation.md, ' +
      '“Lineage across nodes”). Give either this or `parentPlantId`',
  },
);
export type RemoteParentInput = Static<typeof RemoteParentInput>;

/** POST /api/plants/clone: an offspring of an existing plant; it inherits the parent's species. */
export const CloneInput = Type.Object(
  {
    parentPlantId: Type.Optional(PrefixedId('plt', 'The parent on this node; give either this or `remoteParent`')),
    remoteParent: Type.Optional(RemoteParentInput),
    propagationType: PropagationTypeSchema,
    newPlant: Type.Object(
      {
        location: Location,
        owner: PartyInput,
        privacyLevel: Defaulted(
          StringEnum(PRIVACY_LEVELS, { default: 'exact', description: `${PRIVACY_DESCRIPTION} Default: exact.` }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type CloneInput = Static<typeof CloneInput>;

/** Anonymous registration: no account and no personal information. */
export const AnonymousRegistrationInput = Type.Object(
  {
    commonName: CommonName,
    scientificName: Type.Optional(ScientificName),
    location: Location,
    privacyLevel: Defaulted(
      StringEnum(PRIVACY_LEVELS, {
        default: 'fuzzy',
        description: `${PRIVACY_DESCRIPTION} Default here: fuzzy.`,
      }),
    ),
    pseudonym: Type.Optional(
      Text({
        minLength: 1,
        maxLength: 60,
        description: 'Name shown as the owner; "Anonymous grower" when absent. Do not use your real name.',
      }),
    ),
    encryptionPublicKey: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{43}$',
        description:
          'Your X25519 public key, 32 bytes in base64url; when given, the anonymous contact is encrypted to it',
      }),
    ),
    publicKey: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{43}$',
        description:
          'Your own Ed25519 public key, 32 raw bytes in base64url, made on your device: Rootline never sees the ' +
          'private key (the answer’s `privateKey` is null). Absent: Rootline makes the key pair (see ' +
          '`keyEncryptionPublicKey`)',
      }),
    ),
    keyEncryptionPublicKey: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{43}$',
        description:
          'When Rootline makes the key pair: your X25519 public key (32 bytes, base64url; a fresh one per ' +
          'registration), to which the new private key is encrypted (`encryptedPrivateKey`; `privateKey` is ' +
          'null). The sealed key is kept, so a retry after a lost answer gets it again, and only you can open it. ' +
          'Not with `publicKey`. Absent too: the private key comes once in clear (`privateKey`), and is lost if ' +
          'that answer is',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AnonymousRegistrationInput = Static<typeof AnonymousRegistrationInput>;

export const EncryptedContact = Type.Object({
  algorithm: StringEnum(['x25519-hkdf-sha256-aes-256-gcm', 'ed25519-seed-hkdf-sha256-aes-256-gcm'] as const, {
    description:
      'x25519-…: ECDH between ephemeralPublicKey and your encryption key; ed25519-seed-…: key derived from the ' +
      'wallet private key. Either way HKDF-SHA256 (info "rootline anonymous contact") gives the AES-256-GCM key.',
  }),
  ephemeralPublicKey: Type.Union([Type.String(), Type.Null()], { description: 'X25519, base64url; x25519 only' }),
  iv: Type.String({ description: '12 bytes, base64url' }),
  ciphertext: Type.String({ description: 'base64url' }),
  tag: Type.String({ description: 'GCM tag, 16 bytes, base64url' }),
});
export type EncryptedContact = Static<typeof EncryptedContact>;

/** HKDF `info` of the key that seals a server-made anonymous private key to the client's X25519 key. */
export const PRIVATE_KEY_SEAL_INFO = 'rootline anonymous private key';

export const SealedPrivateKey = Type.Object(
  {
    algorithm: Type.Literal('x25519-hkdf-sha256-aes-256-gcm', {
      description:
        'ECDH (X25519) between ephemeralPublicKey and your keyEncryptionPublicKey; HKDF-SHA256 with the ephemeral ' +
        `public key as salt and info "${PRIVATE_KEY_SEAL_INFO}" gives the AES-256-GCM key; the plaintext is the ` +
        '32-byte Ed25519 seed',
    }),
    ephemeralPublicKey: Type.String({ description: 'X25519, 32 bytes, base64url' }),
    iv: Type.String({ description: '12 bytes, base64url' }),
    ciphertext: Type.String({ description: 'base64url' }),
    tag: Type.String({ description: 'GCM tag, 16 bytes, base64url' }),
  },
  { description: 'The Ed25519 private key sealed to your keyEncryptionPublicKey' },
);
export type SealedPrivateKey = Static<typeof SealedPrivateKey>;

export const AnonymousRegistrationResult = Named(
  'AnonymousRegistrationResult',
  Type.Object({
    id: PlantId,
    blockHash: Type.String({ description: 'Hash of the block that recorded the plant' }),
    timestamp: Timestamp,
    anonymousId: Type.String({ description: 'Anonymous identifier: the owner id of the plant' }),
    walletAddress: Type.String({
      description: '"rlw_" + the first 40 hex digits of SHA-256 over the raw Ed25519 public key; on the ledger',
    }),
    publicKey: Type.String({ description: 'Ed25519 public key, 32 raw bytes in base64url (kept by Rootline)' }),
    privateKey: Type.Union([Type.String(), Type.Null()], {
      description:
        'Ed25519 private key (seed), 32 raw bytes in base64url. Shown once; a replay answers without it (null), and ' +
        'so does a registration that brought its own `publicKey` or a `keyEncryptionPublicKey`. Never stored: keep ' +
        'it, it is the only proof that the plant is yours',
    }),
    encryptedPrivateKey: Type.Union([SealedPrivateKey, Type.Null()], {
      description:
        'With `keyEncryptionPublicKey`: the new private key sealed to it, the same in every answer to the ' +
        'registration (first, replayed or rebuilt after a lost answer). Null otherwise',
    }),
    pseudonym: Type.Union([Type.String(), Type.Null()]),
    encryptionPublicKey: Type.Union([Type.String(), Type.Null()]),
    anonymousContact: Type.Object({
      handle: Type.Union([Type.String(), Type.Null()], {
        description:
          'Random contact handle; Rootline keeps only its encrypted form, so an answer rebuilt after a lost first ' +
          'answer (a retry with the same Idempotency-Key) has null here: open `encrypted` instead',
      }),
      encrypted: EncryptedContact,
    }),
  }),
);
export type AnonymousRegistrationResult = Static<typeof AnonymousRegistrationResult>;

/** Depth bounds of lineage queries, in the manner of BrAPI's pedigreeDepth and progenyDepth. */
export const LINEAGE_LIMITS = {
  /** Ancestor levels returned by default: enough to reach the root of any lineage. */
  defaultPedigreeDepth: 1000,
  maxPedigreeDepth: 1000,
  defaultProgenyDepth: 10,
  maxProgenyDepth: 100,
  /** Most descendants returned; `truncated` says when more exist. */
  maxDescendants: 1000,
} as const;

export const LineageQuery = Type.Object({
  pedigreeDepth: Defaulted(
    Type.Integer({
      minimum: 0,
      maximum: LINEAGE_LIMITS.maxPedigreeDepth,
      default: LINEAGE_LIMITS.defaultPedigreeDepth,
      description: `Ancestor levels to include (1 = parent, 2 = grandparent…); default ${LINEAGE_LIMITS.defaultPedigreeDepth}, which reaches the root; at most ${LINEAGE_LIMITS.maxPedigreeDepth}`,
    }),
  ),
  progenyDepth: Defaulted(
    Type.Integer({
      minimum: 0,
      maximum: LINEAGE_LIMITS.maxProgenyDepth,
      default: LINEAGE_LIMITS.defaultProgenyDepth,
      description: `Descendant levels to include (1 = children…); default ${LINEAGE_LIMITS.defaultProgenyDepth}, at most ${LINEAGE_LIMITS.maxProgenyDepth}; at most ${LINEAGE_LIMITS.maxDescendants} descendants are returned`,
    }),
  ),
});

/** A seed lot as a plant's lineage shows it, between the plants it was saved from and the plant grown from it. */
export const LineageSeedLot = Named(
  'LineageSeedLot',
  Type.Object({
    id: SeedLotId,
    crop: Type.String(),
    variety: Type.Union([Type.String(), Type.Null()]),
    harvestYear: Type.Integer(),
    parentPlantIds: Type.Array(PlantId, { description: 'The plants the seed was saved from, mother first' }),
  }),
);
export type LineageSeedLot = Static<typeof LineageSeedLot>;

export const LineageNode = Named(
  'LineageNode',
  Type.Object({
    id: PlantId,
    commonName: Type.String(),
    scientificName: Type.Union([Type.String(), Type.Null()]),
    generation: Type.Integer({ minimum: 0 }),
    propagationType: Type.Union([PropagationTypeSchema, Type.Null()]),
    parentId: Type.Union([PlantId, Type.Null()]),
    owner: RecordedParty,
    seedLot: Type.Union([LineageSeedLot, Type.Null()], {
      description:
        'The seed lot the plant was grown from (its parent is the lot’s first parent plant), null for none: the ' +
        'lot stands between this generation and the one before',
    }),
    depth: Type.Integer({ minimum: 0, description: 'Levels away from the requested plant' }),
  }),
);
export type LineageNode = Static<typeof LineageNode>;

const Sha256Hex = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256, 64 lowercase hex digits' });

/** The checkpoint of a peer's log a remote plant's registration was proven in, and the proof bundle's digest. */
export const RemoteProof = Type.Object({
  checkpoint: Type.Object(
    { treeSize: Type.Integer({ minimum: 1 }), rootHash: Sha256Hex },
    { description: 'The mirrored checkpoint of the peer’s log the bundle was verified against' },
  ),
  bundleDigest: Type.String({
    pattern: '^[0-9a-f]{64}$',
    description: 'SHA-256 of the proof bundle as canonical JSON (RFC 8785)',
  }),
  blockHash: Type.String({ description: 'The hash of the peer’s ledger block holding the registration' }),
  verifiedAt: Timestamp,
});

/** States of a remote relative's verification, read when the lineage is answered. */
export const REMOTE_VERIFICATION_STATES = ['verified', 'fork', 'unknown'] as const;
export type RemoteVerificationState = (typeof REMOTE_VERIFICATION_STATES)[number];

/** A relative on another node: the remote parent of a plant of this lineage, with the proof it was accepted on. */
export const RemoteRelative = Named(
  'RemoteRelative',
  Type.Object({
    childId: PlantId,
    plantId: Type.String({ description: 'The relative’s id on its node' }),
    commonName: Type.Union([Type.String(), Type.Null()], { description: 'From the proof bundle, when it names one' }),
    scientificName: Type.Union([Type.String(), Type.Null()]),
    generation: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    propagationType: PropagationTypeSchema,
    node: Type.Object({
      peer: Type.String({ description: 'The node’s name in this node’s PEERS' }),
      url: Type.String({ description: 'The node’s base URL' }),
    }),
    verification: Type.Object({
      state: StringEnum(REMOTE_VERIFICATION_STATES, {
        description:
          '`verified`: the bundle verified against the checkpoint named and the peer has not forked since; `fork`: ' +
          'the peer has since shown a checkpoint inconsistent with its mirror (the proof stands on a history it ' +
          'also contradicted); `unknown`: the peer’s state could not be read now',
      }),
      ...RemoteProof.properties,
    }),
  }),
);
export type RemoteRelative = Static<typeof RemoteRelative>;

export const Lineage = Named(
  'Lineage',
  Type.Object({
    plant: LineageNode,
    ancestors: Type.Array(LineageNode, { description: 'Parent first, then up towards the root' }),
    descendants: Type.Array(LineageNode, { description: 'Breadth first: children, then grandchildren…' }),
    remoteRelatives: Type.Array(RemoteRelative, {
      description:
        'Parents on other nodes of the plant and of its ancestors and descendants returned here, each with the ' +
        'plant on this node it is the parent of (`childId`)',
    }),
    pedigreeDepth: Type.Integer(),
    progenyDepth: Type.Integer(),
    reachedRoot: Type.Boolean({ description: 'The last ancestor (or the plant itself) has no parent' }),
    truncated: Type.Boolean({
      description: `More descendants exist than the ${LINEAGE_LIMITS.maxDescendants} returned`,
    }),
  }),
);
export type Lineage = Static<typeof Lineage>;

/** Radius and result bounds of nearby search. */
export const NEARBY_LIMITS = { defaultRadiusKm: 50, maxRadiusKm: 500 } as const;

export const NearbyQuery = Type.Object({
  lat: Type.Number({
    minimum: -90,
    maximum: 90,
    description: 'Latitude of the centre, decimal degrees',
    examples: [52.37],
  }),
  lon: Type.Number({
    minimum: -180,
    maximum: 180,
    description: 'Longitude of the centre, decimal degrees',
    examples: [4.9],
  }),
  radius: Defaulted(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: NEARBY_LIMITS.maxRadiusKm,
      default: NEARBY_LIMITS.defaultRadiusKm,
      description: `Radius in kilometres (default ${NEARBY_LIMITS.defaultRadiusKm}, at most ${NEARBY_LIMITS.maxRadiusKm})`,
    }),
  ),
  ...PageQuery.properties,
});
export type NearbyQuery = Static<typeof NearbyQuery>;

export const NearbyPlant = Named(
  'NearbyPlant',
  Type.Object({
    ...Plant.properties,
    coverPhoto: CoverPhoto,
    distanceKm: Type.Number({ description: 'Haversine distance from the centre to the stored (obfuscated) location' }),
  }),
);
export type NearbyPlant = Static<typeof NearbyPlant>;

/** Plants within the radius counted exactly by a nearby query; past it the total is an estimate (docs/plants.md). */
export const NEARBY_EXACT_TOTAL_MAX = 100;

export const NearbyPagination = Type.Object(
  {
    ...Pagination.properties,
    total: Type.Integer({
      minimum: 0,
      description: `Plants within the radius: exact up to ${groupedDigits(NEARBY_EXACT_TOTAL_MAX)}, an estimate beyond (see totalIsEstimate)`,
    }),
    totalIsEstimate: Type.Boolean({
      description: `true when more than ${groupedDigits(NEARBY_EXACT_TOTAL_MAX)} plants are within the radius: total (and totalPages) is then an estimate from the density near the centre, never below ${groupedDigits(NEARBY_EXACT_TOTAL_MAX + 1)}`,
    }),
  },
  { $id: 'NearbyPagination' },
);
export type NearbyPagination = Static<typeof NearbyPagination>;

export const SEARCH_TYPES = ['species', 'location', 'owner'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
export const MATCH_KINDS = ['exact', 'prefix', 'word', 'substring'] as const;

export const SearchQuery = Type.Object({
  q: Text({
    minLength: 1,
    maxLength: 200,
    examples: ['tomato'],
    // At least one letter or digit: punctuation and spaces alone are ignored by the comparison, so match nothing.
    format: 'letter-or-digit',
    description:
      'Text to find, with at least one letter or digit of any script (format `letter-or-digit`); case, accents and ' +
      'punctuation are ignored',
  }),
  type: Type.Optional(
    StringEnum(SEARCH_TYPES, {
      description:
        'species (common and scientific name), location (city and country) or owner (owner name); all three by default',
    }),
  ),
  ...PageQuery.properties,
});
export type SearchQuery = Static<typeof SearchQuery>;

export const SearchHit = Named(
  'SearchHit',
  Type.Object({
    ...Plant.properties,
    coverPhoto: CoverPhoto,
    match: Type.Object({
      field: StringEnum(SEARCH_TYPES),
      kind: StringEnum(MATCH_KINDS, {
        description:
          'exact (the whole field), prefix (the field starts with q), word (a word starts with q), substring',
      }),
    }),
  }),
);
export type SearchHit = Static<typeof SearchHit>;

export const NetworkStats = Named(
  'NetworkStats',
  Type.Object({
    totalPlants: Type.Integer({ minimum: 0 }),
    chainLength: Type.Integer({ minimum: 0 }),
    difficulty: Type.Integer({ minimum: 0 }),
    activeGrowers: Type.Integer({
      minimum: 0,
      description: 'Distinct owners with a plant registered or propagated in the last 90 days',
    }),
    countriesRepresented: Type.Integer({ minimum: 0, description: 'Distinct countries among disclosed locations' }),
  }),
);
export type NetworkStats = Static<typeof NetworkStats>;

export const plantRegister = defineSubject({
  subject: 'plants.plant.register',
  request: PlantInput,
  reply: RegistrationResult,
  summary: 'Register a plant and record it on the ledger',
});

export const plantRegisterAnonymous = defineSubject({
  subject: 'plants.plant.register-anonymous',
  request: AnonymousRegistrationInput,
  reply: AnonymousRegistrationResult,
  summary: 'Register a plant without an account and record it on the ledger',
});

export const plantClone = defineSubject({
  subject: 'plants.plant.clone',
  request: CloneInput,
  reply: RegistrationResult,
  summary: 'Register an offspring of a plant and record it on the ledger with its parent link',
});

export const plantGet = defineSubject({
  subject: 'plants.plant.get',
  request: Type.Object({ plantId: PlantId }),
  reply: Plant,
  summary: 'Read one plant',
});

export const plantLineageGet = defineSubject({
  subject: 'plants.lineage.get',
  request: Type.Object({ plantId: PlantId, ...LineageQuery.properties }),
  reply: Lineage,
  summary: 'Ancestors and descendants of a plant',
});

export const plantNearby = defineSubject({
  subject: 'plants.plant.nearby',
  request: NearbyQuery,
  reply: Type.Object({ items: Type.Array(NearbyPlant), pagination: NearbyPagination }),
  summary: 'Plants within a radius, nearest first',
});

/** Matches counted exactly by a search; past it the total is an estimate (docs/plants.md). */
export const SEARCH_EXACT_TOTAL_MAX = 1000;

export const SearchPagination = Type.Object(
  {
    ...Pagination.properties,
    total: Type.Integer({
      minimum: 0,
      description: `Plants matching: exact up to ${groupedDigits(SEARCH_EXACT_TOTAL_MAX)}, an estimate beyond (see totalIsEstimate)`,
    }),
    totalIsEstimate: Type.Boolean({
      description: `true when more than ${groupedDigits(SEARCH_EXACT_TOTAL_MAX)} plants match: total (and totalPages) is then PostgreSQL's estimate, never below ${groupedDigits(SEARCH_EXACT_TOTAL_MAX + 1)}`,
    }),
  },
  { $id: 'SearchPagination' },
);
export type SearchPagination = Static<typeof SearchPagination>;

export const plantSearch = defineSubject({
  subject: 'plants.plant.search',
  request: SearchQuery,
  reply: Type.Object({ items: Type.Array(SearchHit), pagination: SearchPagination }),
  summary: 'Plants matching a text, most relevant first',
});

/** The plants an owner holds, newest first: `ownerId` is the caller's own id (the gateway fills it in). */
export const OwnedQuery = Type.Object({
  ownerId: Text({
    minLength: 1,
    maxLength: 120,
    description: 'The owner: the caller',
    examples: ['usr_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
  }),
  ...PageQuery.properties,
});
export type OwnedQuery = Static<typeof OwnedQuery>;

/** A plant in a list of plants (an owner's, the network's newest): the plant and the photo shown for it. */
export const OwnedPlant = Named('OwnedPlant', Type.Object({ ...Plant.properties, coverPhoto: CoverPhoto }));
export type OwnedPlant = Static<typeof OwnedPlant>;

export const plantListOwned = defineSubject({
  subject: 'plants.plant.list-owned',
  request: OwnedQuery,
  reply: Type.Object({ items: Type.Array(OwnedPlant), pagination: Pagination }),
  summary: 'The plants an owner holds, newest first',
});

/** The newest plants of the whole network, for the landing page: a page of them, newest first. */
export const RecentQuery = Type.Object({ ...PageQuery.properties });
export type RecentQuery = Static<typeof RecentQuery>;

export const plantListRecent = defineSubject({
  subject: 'plants.plant.list-recent',
  request: RecentQuery,
  reply: Type.Object({ items: Type.Array(OwnedPlant), pagination: Pagination }),
  summary: 'The newest plants of the network, newest first',
});

export const plantNetworkGet = defineSubject({
  subject: 'plants.network.get',
  request: Type.Object({}),
  reply: NetworkStats,
  summary: 'Network statistics',
});

export const plantRegistered = defineEvent({
  subject: 'evt.plants.plant.registered',
  kind: 'plant.registered',
  payload: Type.Object({
    plantId: Type.String(),
    commonName: Type.String(),
    ownerId: Type.Optional(Type.String({ description: 'The owning account; absent for anonymous plants' })),
    scientificName: Type.Optional(Type.String({ description: 'Species, when the registration named it' })),
    privacyLevel: Type.Optional(
      StringEnum(PRIVACY_LEVELS, { description: 'The location privacy level it was registered with' }),
    ),
    location: Type.Optional(
      Type.Union([Location, Type.Null()], {
        description:
          "As stored, after the privacy level (the plant's public location); null when hidden. Absent on events " +
          'recorded before it was carried.',
      }),
    ),
  }),
});

/** A plant was propagated from a parent (it is also announced as plant.registered). */
export const plantCloned = defineEvent({
  subject: 'evt.plants.plant.cloned',
  payload: Type.Object({
    plantId: Type.String(),
    parentPlantId: Type.String(),
    propagationType: Type.String(),
    generation: Type.Integer(),
  }),
});
