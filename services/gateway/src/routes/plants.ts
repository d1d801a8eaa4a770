import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AppError,
  groupedDigits,
  LINEAGE_LIMITS,
  NEARBY_EXACT_TOTAL_MAX,
  NEARBY_LIMITS,
  NearbyPagination,
  NearbyPlant,
  OwnedPlant,
  PAGE_DEFAULTS,
  plantClone,
  plantGet,
  plantLineageGet,
  plantListOwned,
  plantListRecent,
  plantNearby,
  plantNetworkGet,
  plantRegister,
  plantRegisterAnonymous,
  plantSearch,
  SEARCH_EXACT_TOTAL_MAX,
  SearchHit,
  SearchPagination,
} from '@rootline/contracts';
import type { FastifyRequest } from 'fastify';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';
import {
  type AccountName,
  type AccountNames,
  boundParty,
  type GivenParty,
  withAccountNames,
} from '../http/party-names.js';

const TAGS = ['Plants'];
const RETRIES =
  'Send an `Idempotency-Key` header (a fresh UUID per new request, the same one for its retries): a retry with ' +
  'the same key and body gets the first answer for 24 h (`Idempotent-Replayed: true`) and is recorded once; the ' +
  'key with another body is 422 IDEMPOTENCY_KEY_REUSED, a retry while the first is in flight 409. 503 ' +
  'UNAVAILABLE (with Retry-After) means the ledger did not answer: retry with the same key.';
const PAGING = `\`page\` from 1 (default ${PAGE_DEFAULTS.page}); \`limit\` default ${PAGE_DEFAULTS.limit}, at most ${PAGE_DEFAULTS.maxLimit}.`;
const PRIVACY =
  '`privacyLevel` is applied before the location is stored or written to the ledger, so no answer, export or ' +
  'block ever holds the exact point of a non-exact plant: exact (unchanged), fuzzy (moved 1 to 5 km in a random ' +
  'direction), city (centre of a grid cell of about 10 km), country (centre of a grid cell of about 100 km, city ' +
  'dropped), hidden (no location; never listed by nearby).';

const OWNER_NAME =
  '`owner.name` may be left out: it is the display name of the owner’s account, filled in and written to the ' +
  'ledger as the account has it when the plant is recorded. A name other than the account’s is 400 ' +
  'VALIDATION_ERROR (`details: { field: owner.name, reason: not-account-name }`); the account’s own name is ' +
  'accepted. An owner id of no account (only an ADMIN may name another owner) keeps the name stated, and reads ' +
  'show who stated it (`owner.statedBy`: the registering account, by id and current name). Reads show an ' +
  'account’s current name beside a recorded one that differs (`owner.accountName`).';

/** What the lists of plants say about the photo each row shows. */
const COVER_PHOTO =
  ' Each plant carries `coverPhoto`: its newest photo as square WebP thumbnails with URLs valid 15 minutes (null ' +
  'without one), asked of the media service once for the whole page (ADR 203).';

/** Route dependencies of writes and reads that name people: the bus, and the names of the gateway's accounts. */
export interface NamingRouteDeps extends BusRouteDeps {
  accountName: AccountName;
  accountNames: AccountNames;
}

/** The caller's account name, recorded as who stated the name of a party without an account. */
export function stater(req: FastifyRequest): string {
  const user = req.principal?.user;
  if (!user) throw new AppError('UNAUTHORIZED', 'This action needs a signed-in user', { reason: 'sign-in-required' });
  return user.name;
}

/** The plant registry under /api/plants: registration, propagation, lineage and discovery. */
export const plantRoutes: FastifyPluginAsyncTypebox<NamingRouteDeps> = async (app, deps) => {
  // Reads show the owners' current account names beside the recorded ones (ADR 194).
  const names = (data: unknown) => withAccountNames(data, deps.accountNames);
  // Anonymous registration must leave no trace of the caller: its request lines (which carry the client address)
  // are not logged. The rate limiter still counts per address, in memory, for its one-minute window.
  app.addHook('onRoute', (route) => {
    if (route.url.endsWith('/register-anonymous')) route.logLevel = 'warn';
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/register',
    summary: 'Register a plant',
    description:
      'Registers a plant and records it on the ledger (transaction `plant.register`); answers once its block is ' +
      'mined, with the plant id, the block hash and the registration time, and emits `plant.registered`.\n\n' +
      'Required: `commonName` (1–200 characters), `location.latitude` (−90 to 90), `location.longitude` (−180 to ' +
      '180) and `owner.id` (1–120 characters). Optional: `owner.name` (1–200 characters), `scientificName` (1–200), ' +
      '`location.city` and `location.country` (up to 120 each), `privacyLevel` (default `exact`). Unknown fields ' +
      `are refused.\n\nThe owner is the caller: \`owner.id\` must be the caller's own id (403 FORBIDDEN otherwise), ` +
      `except for an ADMIN registering for someone else (recorded as the registering user). Acting for an ` +
      `organization (\`Rootline-Act-As\`, role member or above), \`owner.id\` may be the organization's id: it owns ` +
      `the plant, by its name. ${OWNER_NAME}\n\n` +
      'Grown from a recorded seed lot, `seedLotId` names it (docs/seed-lots.md): the plant is then a seedling of ' +
      'the lot’s first parent plant (generation + 1, propagation `seed`, ledger transaction `plant.clone` naming ' +
      'the lot), or a root plant naming the lot when the lot has no parent; its lineage shows the lot between ' +
      'the generations. 404 NOT_FOUND for an unknown lot, 409 CONFLICT for a discarded one.\n\n' +
      `${PRIVACY}\n\n${RETRIES}`,
    tags: TAGS,
    policy: {
      permission: 'plants:write',
      idempotent: true,
      object: [
        { rule: 'self', field: 'owner.id' },
        {
          rule: 'public',
          field: 'seedLotId',
          record: 'seed lot',
          why: 'anyone may grow seed of a lot they were given',
        },
      ],
    },
    subject: plantRegister,
    status: 201,
    errors: ['DUPLICATE', 'NOT_FOUND', 'CONFLICT', 'CHAIN_ERROR', 'IDEMPOTENCY_KEY_REUSED'],
    example: {
      commonName: 'Tomato',
      scientificName: 'Solanum lycopersicum',
      location: { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' },
      owner: { id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD' },
      privacyLevel: 'city',
    },
    input: async (req) => {
      const body = req.body as { owner: GivenParty };
      return { ...body, owner: await boundParty(body.owner, 'owner', deps.accountName, stater(req)) } as never;
    },
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/register-anonymous',
    summary: 'Register a plant anonymously',
    description:
      'Needs no account and stores no personal information: no user, no e-mail, no address, and the request ' +
      'itself (client address included) is not logged. The plant is owned by a fresh anonymous identifier; a fresh ' +
      'Ed25519 key pair is generated and its wallet address (`rlw_` + the first 40 hex digits of SHA-256 over the ' +
      'raw public key) is written to the ledger with the plant. The answer also carries the optional pseudonym and ' +
      'encryption public key, and a random contact handle that Rootline keeps only encrypted (to the encryption ' +
      'key when given, otherwise under a key derived from the wallet private key).\n\n' +
      '**Keep `privateKey`** (with `anonymousId` and the plant `id`): it is returned once and never stored, and it ' +
      'is the only way to prove ownership later, by signing a challenge that anyone can check against `publicKey` ' +
      'and the wallet address on the ledger. Lost, it cannot be recovered.\n\n' +
      'To keep the private key off the network entirely, make the Ed25519 key pair on your device and send only ' +
      '`publicKey` (32 raw bytes, base64url): the wallet address is derived from it, the answer’s `privateKey` is ' +
      'null, and the contact is encrypted to `encryptionPublicKey` or, without one, to the X25519 form of your ' +
      'wallet key (RFC 7748 map; its private key is the first 32 bytes of SHA-512 of your Ed25519 seed). This is ' +
      'what the web page /plants/register-anonymous does.\n\n' +
      'To let Rootline make the key pair and still survive a lost answer, send `keyEncryptionPublicKey` (a fresh ' +
      'X25519 public key, 32 bytes base64url): the answer’s `privateKey` is null and `encryptedPrivateKey` holds ' +
      'the seed sealed to it (ECDH X25519 with `ephemeralPublicKey`, HKDF-SHA256 with that ephemeral key as salt ' +
      'and info "rootline anonymous private key", AES-256-GCM; WebCrypto opens it). Rootline keeps the sealed key ' +
      'and cannot open it.\n\n' +
      'With an `Idempotency-Key` a retry is answered with the same plant, `anonymousId`, `publicKey` and ' +
      '`encryptedPrivateKey`, also when the first answer was lost with the server that was giving it (the answer ' +
      'is then rebuilt from what is stored, with `anonymousContact.handle` null: open `encrypted`). Anyone else ' +
      'sending the same key and body gets nothing secret: a sealed key only its requester can open, never a ' +
      'private key in clear. Without either key, the private key comes once in clear (`privateKey`): a replay ' +
      'answers `privateKey: null`, and a retry after a lost first answer is 409 DUPLICATE, the key being stored ' +
      'nowhere; prefer `publicKey` or `keyEncryptionPublicKey`.\n\n' +
      `Required: \`commonName\`, \`location\`. \`privacyLevel\` defaults to \`fuzzy\` here. ${PRIVACY}`,
    tags: TAGS,
    policy: {
      public: true,
      idempotent: true,
      replayWithout: ['privateKey'],
      object: { rule: 'none', why: 'a new plant of a new anonymous owner' },
    },
    subject: plantRegisterAnonymous,
    status: 201,
    errors: ['DUPLICATE', 'CHAIN_ERROR', 'IDEMPOTENCY_KEY_REUSED'],
    example: {
      commonName: 'Basil',
      location: { latitude: 48.8566, longitude: 2.3522, country: 'FR' },
      pseudonym: 'green-thumb-42',
      keyEncryptionPublicKey: '2iX1OmbhL-Ouomzvk5_7n12mGH_qqcdPaavVFjimBUw',
    },
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/clone',
    summary: 'Propagate a plant',
    description:
      'Registers an offspring of `parentPlantId`: it inherits the parent’s common and scientific names, its ' +
      'generation is the parent’s + 1, and its ledger transaction (`plant.clone`) names the parent and the ' +
      'parent’s block. Emits `plant.registered`. Answers like registration; 404 NOT_FOUND for an unknown parent.\n\n' +
      'Propagation types: `clone` (genetically identical copy), `seed` (sexual reproduction), `cutting` (rooted ' +
      'stem, leaf or root piece), `graft` (scion joined to a rootstock), `division` (clump split into parts), ' +
      '`layering` (stem rooted while still attached to the parent), `tissue-culture` (grown from cells in a ' +
      `sterile medium).\n\n${PRIVACY} It defaults to \`exact\` and applies to the new plant only.\n\n` +
      `\`newPlant.owner.id\` must be the caller's own id unless the caller is an ADMIN (403 FORBIDDEN). ` +
      `${OWNER_NAME.replaceAll('owner.', 'newPlant.owner.')} ${RETRIES}\n\n` +
      'A parent on another node: give `remoteParent: { peer, plantId }` instead of `parentPlantId` (one of the ' +
      'two, else 400 with `details.reason` `one-parent`), `peer` being the node’s name in this node’s `PEERS`. ' +
      'Before anything is written, the parent’s proof bundle is fetched from the peer and verified through the ' +
      'peer mirror: the ledger transaction, block and proof of work, the audit proof, the peer’s signature and the ' +
      'consistency of its checkpoint with the mirrored one. The offspring takes the names and generation the ' +
      'bundle’s transaction gives, and the link is stored with the bundle’s digest and the checkpoint. Refusals, ' +
      'each with `details.reason`: 404 `unknown-peer` or `not-on-peer`, 409 `peer-forked` (the peer’s log forked), ' +
      '422 `bundle-unverified`, 503 `peer-unreachable` (nothing written). docs/federation.md, “Lineage across nodes”.',
    tags: TAGS,
    policy: {
      permission: 'plants:write',
      idempotent: true,
      object: [
        { rule: 'public', field: 'parentPlantId', record: 'plant' },
        { rule: 'self', field: 'newPlant.owner.id' },
      ],
    },
    subject: plantClone,
    status: 201,
    errors: ['NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE', 'UNAVAILABLE', 'CHAIN_ERROR', 'IDEMPOTENCY_KEY_REUSED'],
    example: {
      parentPlantId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
      propagationType: 'cutting',
      newPlant: {
        location: { latitude: 52.09, longitude: 5.12, city: 'Utrecht', country: 'NL' },
        owner: { id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD' },
      },
    },
    input: async (req) => {
      const body = req.body as { newPlant: { owner: GivenParty } };
      const owner = await boundParty(body.newPlant.owner, 'newPlant.owner', deps.accountName, stater(req));
      return { ...body, newPlant: { ...body.newPlant, owner } } as never;
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/lineage/:plantId',
    summary: 'Lineage of a plant',
    description:
      'The plant, its ancestors (parent first, up to the root) and its descendants (breadth first), each with id, ' +
      'names, generation, propagation type, parent, owner and depth. Depths work like BrAPI’s: `pedigreeDepth` ' +
      `levels up (default ${LINEAGE_LIMITS.defaultPedigreeDepth}, which reaches the root; at most ` +
      `${LINEAGE_LIMITS.maxPedigreeDepth}), \`progenyDepth\` levels down (default ${LINEAGE_LIMITS.defaultProgenyDepth}, ` +
      `at most ${LINEAGE_LIMITS.maxProgenyDepth}); at most ${LINEAGE_LIMITS.maxDescendants} descendants, with ` +
      '`truncated` set when there are more. A plant gets its one parent when it is created and the parent already ' +
      'exists then, so a lineage can never contain a cycle. A plant grown from a recorded seed lot carries it as ' +
      '`seedLot` (id, crop, variety, harvest year and the lot’s parent plants, mother first): the lot stands ' +
      'between the plant and its parent, the lot’s mother (docs/seed-lots.md). Parents on other nodes of the plants ' +
      'returned are listed in `remoteRelatives`, each with its node (peer name and base URL), its id there, the ' +
      'names its proof bundle gives, the plant here it is the parent of (`childId`) and its verification: the ' +
      'checkpoint and bundle digest it was accepted on, and its state now: `verified`, or `fork` once the peer’s ' +
      'log has forked (`unknown` when the peers’ state cannot be read).',
    tags: TAGS,
    policy: { public: true, identifiesCaller: true, object: { rule: 'public', field: 'plantId', record: 'plant' } },
    subject: plantLineageGet,
    answer: names,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/nearby',
    summary: 'Plants near a point',
    description:
      `Plants within \`radius\` km (default ${NEARBY_LIMITS.defaultRadiusKm}, at most ${NEARBY_LIMITS.maxRadiusKm}) ` +
      'of `lat`/`lon`, nearest first (ties by id), each with its haversine `distanceKm` (mean Earth radius ' +
      '6371.0088 km). Distances are measured to the stored location, which for non-exact plants is the obfuscated ' +
      'one; hidden plants never appear. `pagination.total` is exact up to ' +
      `${groupedDigits(NEARBY_EXACT_TOTAL_MAX)} plants within the radius; beyond, it is an estimate (the ` +
      'density near the centre scaled to the whole circle) and `pagination.totalIsEstimate` is true; the pages ' +
      `themselves are always exact. ${PAGING} Served from a latitude-band index, not a scan of the table.` +
      COVER_PHOTO,
    tags: TAGS,
    policy: {
      public: true,
      identifiesCaller: true,
      object: { rule: 'none', why: 'public plants, locations after their privacy level' },
    },
    subject: plantNearby,
    answer: names,
    page: { item: NearbyPlant, pagination: NearbyPagination },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/search',
    summary: 'Search plants',
    description:
      '`q` is compared ignoring case, accents and punctuation (é = e, ß = ss) with the species (common and ' +
      'scientific name), the location (city and country) or the owner name; `type` picks one of them, all three ' +
      'by default. Relevance order: exact (the whole field equals q), then prefix (the field starts with q), then ' +
      'word (a later word starts with q), then substring; between equals, species before location before owner, ' +
      'then by the matched text and id. A `q` of one or two letters or digits matches a field or a word of it ' +
      'that starts with it (exact, prefix, word), not letters inside a word. Each hit says which field matched ' +
      'and how. `pagination.total` is exact up to ' +
      `${groupedDigits(SEARCH_EXACT_TOTAL_MAX)} matches; beyond, it is an estimate and ` +
      `\`pagination.totalIsEstimate\` is true. The same search (text, fields and page) within 2 seconds may be ` +
      'answered from the answer computed for an earlier caller (`SEARCH_CACHE_MS`); your own searches within 5 ' +
      `seconds of a write of yours are always computed afresh. ${PAGING}` +
      COVER_PHOTO,
    tags: TAGS,
    policy: { public: true, identifiesCaller: true, object: { rule: 'none', why: 'public plants' } },
    subject: plantSearch,
    answer: names,
    page: { item: SearchHit, pagination: SearchPagination },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/owned/:ownerId',
    summary: 'Plants of an owner',
    description:
      'The plants `ownerId` holds (registered or propagated by them), newest first (ties by id), with their ' +
      'stored locations. `ownerId` must be your own id (403 FORBIDDEN otherwise; an ADMIN may read anyone’s), so ' +
      `this is "my plants". ${PAGING}` +
      COVER_PHOTO,
    tags: TAGS,
    policy: { permission: 'plants:read', object: { rule: 'self', field: 'ownerId' } },
    subject: plantListOwned,
    answer: names,
    page: { item: OwnedPlant },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/recent',
    summary: 'The newest plants',
    description:
      'The plants of the whole network, newest first (ties by id), each in its public form: the location as stored ' +
      `after its privacy level. What the web app's landing page shows. ${PAGING}`,
    tags: TAGS,
    policy: { public: true, identifiesCaller: true, object: { rule: 'none', why: 'public plants' } },
    subject: plantListRecent,
    answer: names,
    page: { item: OwnedPlant },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/network',
    summary: 'Network statistics',
    description:
      'totalPlants, chainLength and difficulty (from the ledger), activeGrowers (distinct owners with a plant ' +
      'registered or propagated in the last 90 days) and countriesRepresented (distinct countries among disclosed ' +
      'locations, case-insensitive).',
    tags: TAGS,
    policy: { public: true, identifiesCaller: true, object: { rule: 'none', why: 'network-wide statistics' } },
    subject: plantNetworkGet,
    errors: ['CHAIN_ERROR'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/:plantId',
    summary: 'Read a plant',
    description:
      'The plant with its generation, parent, propagation type, privacy level, stored (possibly obfuscated) ' +
      'location and the block that recorded it.',
    tags: TAGS,
    policy: { public: true, identifiesCaller: true, object: { rule: 'public', field: 'plantId', record: 'plant' } },
    subject: plantGet,
    answer: names,
    errors: ['NOT_FOUND'],
  });
};
