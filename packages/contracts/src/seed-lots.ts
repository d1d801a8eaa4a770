import { type Static, Type } from '@sinclair/typebox';
import { PrefixedId, SeedLotId, Text, Timestamp } from './common.js';
import { Defaulted, defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { PlantId, PlantName, StringEnum } from './plants.js';
import { HandoffId } from './transport.js';

/**
 * Seed lots as inventory records (docs/seed-lots.md, ADR 270): a lot of seed saved or obtained by a person or an
 * organization, with the plants it was saved from, its quantity, storage and germination tests. The plants service
 * owns them, beside the lineage they extend.
 */

export const GerminationTestId = PrefixedId('gmt', 'Germination test identifier');

export const SEED_LOT_UNITS = ['seeds', 'grams', 'packets'] as const;
export type SeedLotUnit = (typeof SEED_LOT_UNITS)[number];

/** How a germination test was done (ISTA's between-paper and in-sand methods, and what growers do at home). */
export const GERMINATION_METHODS = ['paper-towel', 'between-paper', 'sand', 'soil', 'tetrazolium', 'other'] as const;
export type GerminationMethod = (typeof GERMINATION_METHODS)[number];

/** How an expected viability was found: from the last test and the lot's age, from age alone, or not at all. */
export const VIABILITY_BASES = ['test', 'age', 'none'] as const;
export type ViabilityBasis = (typeof VIABILITY_BASES)[number];

/** Below this expected viability a lot counts as low (the inventory's `lowViability` filter, its warning). */
export const LOW_VIABILITY = 0.5;

/** Harvest years a lot may have: from the oldest seed a gene bank still holds to the coming year. */
export const SEED_LOT_YEARS = { min: 1900, max: 2100 } as const;

/** Most parent plants a lot names (a cross, or a bulk of a population saved together). */
export const MAX_SEED_LOT_PARENTS = 50;

/** A calendar day, YYYY-MM-DD (a pattern: the bus knows no `date` format; the day itself is checked by the service). */
const DAY = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';

const Quantity = Type.Object(
  {
    amount: Type.Number({ minimum: 0, maximum: 1_000_000_000, description: 'How much is left, in `unit`' }),
    unit: StringEnum(SEED_LOT_UNITS, { description: 'seeds (a count), grams, or packets' }),
  },
  { additionalProperties: false },
);

const Storage = Type.Object(
  {
    place: Type.Optional(Text({ maxLength: 200, description: 'Where the lot is kept, e.g. "cellar, shelf 2"' })),
    temperatureC: Type.Optional(
      Type.Number({ minimum: -196, maximum: 60, description: 'Storage temperature, °C (−196: liquid nitrogen)' }),
    ),
    humidityPct: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'Relative humidity, %' })),
    container: Type.Optional(Text({ maxLength: 120, description: 'e.g. "glass jar with silica gel"' })),
  },
  { additionalProperties: false },
);

const Crop = Text({
  minLength: 1,
  maxLength: 120,
  description:
    'The crop in English, e.g. "tomato": its expected viability by age is looked up by this name (docs/seed-lots.md)',
  examples: ['tomato'],
});

const LotFields = {
  crop: Crop,
  variety: Type.Optional(Text({ minLength: 1, maxLength: 120, description: 'e.g. "Brandywine"' })),
  parentPlantIds: Type.Array(PlantId, {
    maxItems: MAX_SEED_LOT_PARENTS,
    uniqueItems: true,
    description:
      'The registered plants the seed was saved from (mother first); each must exist (404 NOT_FOUND, ' +
      '`details.field` parentPlantIds). Empty for bought or received seed of unknown plants.',
  }),
  harvestYear: Type.Integer({ minimum: SEED_LOT_YEARS.min, maximum: SEED_LOT_YEARS.max }),
  quantity: Quantity,
  storage: Type.Optional(Storage),
  notes: Type.Optional(Text({ maxLength: 2000 })),
};

export const SeedLotCreateInput = Type.Object(
  { ...LotFields, parentPlantIds: Type.Optional(LotFields.parentPlantIds) },
  { additionalProperties: false },
);
export type SeedLotCreateInput = Static<typeof SeedLotCreateInput>;

export const SeedLotUpdateInput = Type.Object(
  {
    crop: Type.Optional(Crop),
    variety: Type.Optional(Type.Union([LotFields.variety, Type.Null()])),
    harvestYear: Type.Optional(LotFields.harvestYear),
    quantity: Type.Optional(Quantity),
    quantityNote: Type.Optional(
      Text({ minLength: 1, maxLength: 200, description: 'Why the quantity changed, kept with the change' }),
    ),
    storage: Type.Optional(Type.Union([Storage, Type.Null()])),
    notes: Type.Optional(Type.Union([Text({ maxLength: 2000 }), Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type SeedLotUpdateInput = Static<typeof SeedLotUpdateInput>;

export const GerminationTestInput = Type.Object(
  {
    testedOn: Type.String({
      pattern: DAY,
      description: 'The day the test was read (YYYY-MM-DD); not in the future, not before the harvest year',
      examples: ['2026-11-20'],
    }),
    seedsSown: Type.Integer({ minimum: 1, maximum: 100_000 }),
    germinated: Type.Integer({ minimum: 0, maximum: 100_000, description: 'At most seedsSown' }),
    method: Defaulted(StringEnum(GERMINATION_METHODS, { default: 'paper-towel' })),
    notes: Type.Optional(Text({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type GerminationTestInput = Static<typeof GerminationTestInput>;

export const GerminationTest = Named(
  'GerminationTest',
  Type.Object({
    id: GerminationTestId,
    seedLotId: SeedLotId,
    testedOn: Type.String({ pattern: DAY, description: 'YYYY-MM-DD' }),
    seedsSown: Type.Integer(),
    germinated: Type.Integer(),
    rate: Type.Number({ minimum: 0, maximum: 1, description: 'germinated ÷ seedsSown' }),
    method: StringEnum(GERMINATION_METHODS),
    notes: Type.Union([Type.String(), Type.Null()]),
    recordedAt: Timestamp,
  }),
);
export type GerminationTest = Static<typeof GerminationTest>;

export const SeedLotViability = Named(
  'SeedLotViability',
  Type.Object({
    expected: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
      description: 'The share of seeds expected to germinate today; null when neither a test nor the crop tells',
    }),
    basis: StringEnum(VIABILITY_BASES, {
      description:
        'test: the last germination test carried to today by the crop’s decline; age: an assumed 90 % at harvest ' +
        'carried to today; none: no test and a crop not in the longevity table',
    }),
    low: Type.Boolean({ description: `expected below ${LOW_VIABILITY}` }),
    ageYears: Type.Number({ description: 'Years since the middle of the harvest year' }),
    longevityYears: Type.Union([Type.Number(), Type.Null()], {
      description: 'The crop’s life expectancy under favourable storage (Knott’s Handbook), null when not listed',
    }),
    lastTest: Type.Union([GerminationTest, Type.Null()]),
  }),
);
export type SeedLotViability = Static<typeof SeedLotViability>;

const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$' });

/** What an incoming handoff was accepted on: the giving node's lot and the proof of its transaction. */
export const HandoffSource = Named(
  'HandoffSource',
  Type.Object(
    {
      peer: Type.String({ description: 'The giving node: its name in PEERS' }),
      url: Type.String({ description: 'Its base URL' }),
      seedLotId: Type.String({ description: 'The lot on the giving node the seed came from' }),
      handoffId: HandoffId,
      transactionId: Type.String({ description: 'The giving node’s ledger transaction of its seed-sharing event' }),
      blockHash: Type.String({ description: 'The giving node’s block holding that transaction' }),
      bundleDigest: Type.String({
        pattern: '^[0-9a-f]{64}$',
        description: 'SHA-256 of the proof bundle as canonical JSON (RFC 8785)',
      }),
      checkpoint: Type.Object(
        { treeSize: Type.Integer({ minimum: 1 }), rootHash: Sha256 },
        { description: 'The mirrored checkpoint of the giving node’s log the bundle was verified against' },
      ),
      verifiedAt: Timestamp,
    },
    { description: 'Where an incoming lot came from, and the proof it was accepted on' },
  ),
);
export type HandoffSource = Static<typeof HandoffSource>;

export const SeedLot = Named(
  'SeedLot',
  Type.Object({
    id: SeedLotId,
    ownerId: Type.String({ description: 'The account or organization that holds the lot' }),
    crop: Type.String(),
    variety: Type.Union([Type.String(), Type.Null()]),
    parentPlantIds: Type.Array(PlantId, { description: 'The plants the seed was saved from, mother first' }),
    parents: Type.Optional(
      Type.Array(PlantName, {
        description:
          'On the read of one lot: its parent plants with their names, in `parentPlantIds` order, so that a page ' +
          'names them without a read per plant',
      }),
    ),
    harvestYear: Type.Integer(),
    access: StringEnum(['holder', 'public'] as const, {
      description:
        'holder: the caller holds the lot (or reads for its organization): every field; public: the fields ' +
        'below are null',
    }),
    quantity: Type.Union([Quantity, Type.Null()]),
    storage: Type.Union([Storage, Type.Null()]),
    notes: Type.Union([Type.String(), Type.Null()]),
    viability: Type.Union([SeedLotViability, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    discardedAt: Type.Union([Timestamp, Type.Null()], {
      description: 'When the lot was discarded: kept for the lineage and journeys that name it, no longer listed',
    }),
    receivedFrom: Type.Union([HandoffSource, Type.Null()], {
      description:
        'A lot received from a peer node (`POST /api/seed-lots/incoming`): the lot there, the handoff and the proof ' +
        'it was accepted on; public like the lot. Null for a lot recorded here',
    }),
  }),
);
export type SeedLot = Static<typeof SeedLot>;

export const SeedLotListQuery = Type.Object({
  ownerId: Type.Optional(
    Text({
      minLength: 1,
      maxLength: 120,
      description: 'Your own account id, or the organization you act for (the default: the one you act for, else you)',
      examples: ['usr_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
    }),
  ),
  crop: Type.Optional(Text({ minLength: 1, maxLength: 120, description: 'Equal to the crop, case ignored' })),
  harvestYear: Type.Optional(Type.Integer({ minimum: SEED_LOT_YEARS.min, maximum: SEED_LOT_YEARS.max })),
  lowViability: Type.Optional(
    Type.Boolean({ description: `Only lots whose expected viability is below ${LOW_VIABILITY}` }),
  ),
  ...PageQuery.properties,
});

const ByLot = Type.Object({ seedLotId: SeedLotId });

export const seedLotCreate = defineSubject({
  subject: 'plants.seed-lot.create',
  request: SeedLotCreateInput,
  reply: SeedLot,
  summary: 'Record a seed lot for the caller or the organization it acts for',
});

export const seedLotGet = defineSubject({
  subject: 'plants.seed-lot.get',
  request: ByLot,
  reply: SeedLot,
  summary: 'Read a seed lot: every field to its holder, the public ones to anyone',
});

export const seedLotList = defineSubject({
  subject: 'plants.seed-lot.list',
  request: SeedLotListQuery,
  reply: Type.Object({ items: Type.Array(SeedLot), pagination: Pagination }),
  summary: 'The seed lots an owner holds, newest harvest first',
});

export const seedLotUpdate = defineSubject({
  subject: 'plants.seed-lot.update',
  request: Type.Object({ ...ByLot.properties, ...SeedLotUpdateInput.properties }, { additionalProperties: false }),
  reply: SeedLot,
  summary: 'Change a seed lot; a quantity change is recorded',
});

export const seedLotDiscard = defineSubject({
  subject: 'plants.seed-lot.discard',
  request: ByLot,
  reply: SeedLot,
  summary: 'Discard a seed lot: kept for what names it, no longer listed or changed',
});

export const germinationTestRecord = defineSubject({
  subject: 'plants.seed-lot.record-test',
  request: Type.Object({ ...ByLot.properties, ...GerminationTestInput.properties }, { additionalProperties: false }),
  reply: GerminationTest,
  summary: 'Record a germination test of a seed lot',
});

export const germinationTestList = defineSubject({
  subject: 'plants.seed-lot.list-tests',
  request: Type.Object({ ...ByLot.properties, ...PageQuery.properties }),
  reply: Type.Object({ items: Type.Array(GerminationTest), pagination: Pagination }),
  summary: 'The germination tests of a seed lot, latest first',
});
