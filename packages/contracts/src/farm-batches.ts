import { type Static, Type } from '@sinclair/typebox';
import { PrefixedId, Text, Timestamp } from './common.js';
import { defineEvent, defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { FARM_CROPS, FarmId, PhaseTargets, RECIPE_PHASES, RecipeId, ZoneId } from './farm.js';
import { PlantId, StringEnum } from './plants.js';

export const CropBatchId = PrefixedId('bat', 'FarmCrop batch identifier');
export const HarvestId = PrefixedId('hvt', 'FarmHarvest identifier');

/** Stored states; germinating, growing and ready of an open batch follow from its age (docs/farm.md). */
export const CROP_BATCH_STATES = ['germinating', 'growing', 'ready', 'harvested', 'failed'] as const;
export type CropBatchState = (typeof CROP_BATCH_STATES)[number];

export const BatchSeedSource = Type.Union(
  [
    Type.Object(
      { type: Type.Literal('plant'), plantId: PlantId },
      { additionalProperties: false, description: 'A registered plant: links the batch into its lineage' },
    ),
    Type.Object(
      {
        type: Type.Literal('seed-lot'),
        seedLot: Text({ minLength: 1, maxLength: 120, description: 'Supplier lot number' }),
        supplier: Type.Optional(Text({ minLength: 1, maxLength: 200 })),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'Where the seed or mother plant came from' },
);
export type BatchSeedSource = Static<typeof BatchSeedSource>;

export const CropBatchStartInput = Type.Object(
  {
    farmId: FarmId,
    zoneId: ZoneId,
    recipeId: RecipeId,
    crop: StringEnum(FARM_CROPS),
    variety: Text({ minLength: 1, maxLength: 120 }),
    plantCount: Type.Integer({ minimum: 1, maximum: 10_000_000 }),
    seedSource: BatchSeedSource,
    startedAt: Type.Optional(
      Type.String({
        format: 'date-time',
        maxLength: 40,
        description:
          'When the batch began (ISO 8601 with offset), to record a batch started earlier; its state follows from ' +
          'it. Omitted: now. At most 5 minutes ahead of the service clock, and no earlier than the recipe’s cycle ' +
          'plus 365 days ago (400 VALIDATION_ERROR, `details.field` startedAt)',
        examples: ['2026-11-16T08:00:00Z'],
      }),
    ),
  },
  { additionalProperties: false },
);
export type CropBatchStartInput = Static<typeof CropBatchStartInput>;

/** Physical bounds of a reading: a value outside is a broken sensor, refused (VALIDATION_ERROR). */
export const FARM_READING_BOUNDS = {
  temperatureC: [-40, 70],
  humidityPct: [0, 100],
  co2Ppm: [0, 40_000],
  ppfd: [0, 3000],
  ecMsCm: [0, 20],
  ph: [0, 14],
  waterTemperatureC: [0, 50],
  dissolvedOxygenMgL: [0, 25],
} as const;
export type FarmReadingMetric = keyof typeof FARM_READING_BOUNDS;
export const FARM_READING_METRICS = Object.keys(FARM_READING_BOUNDS) as FarmReadingMetric[];

const bounded = (m: FarmReadingMetric, description: string) =>
  Type.Optional(Type.Number({ minimum: FARM_READING_BOUNDS[m][0], maximum: FARM_READING_BOUNDS[m][1], description }));

/**
 * A reading's time: RFC 3339 with its offset (the `date-time` format, checked by the gateway and on the bus).
 * Omitted, the time the server receives the reading.
 */
const ReadingTime = Type.String({
  format: 'date-time',
  maxLength: 40,
  description:
    'When the reading was taken: ISO 8601 time with offset, e.g. 2026-11-23T08:00:00Z. Omitted, the time the ' +
    'server receives it (a sensor sending each reading as it takes it needs no clock of its own)',
  examples: ['2026-11-23T08:00:00Z'],
});

export const FarmReading = Type.Object(
  {
    at: Type.Optional(ReadingTime),
    temperatureC: bounded('temperatureC', 'Air temperature, °C'),
    humidityPct: bounded('humidityPct', 'Relative humidity, %'),
    co2Ppm: bounded('co2Ppm', 'CO2, ppm'),
    ppfd: bounded('ppfd', 'PPFD at canopy, µmol/m²/s (0 = lights off, not compared)'),
    ecMsCm: bounded('ecMsCm', 'EC of the nutrient solution, mS/cm'),
    ph: bounded('ph', 'pH of the nutrient solution'),
    waterTemperatureC: bounded('waterTemperatureC', 'Nutrient solution temperature, °C'),
    dissolvedOxygenMgL: bounded('dissolvedOxygenMgL', 'Dissolved oxygen in the solution, mg/L'),
  },
  { additionalProperties: false },
);
export type FarmReading = Static<typeof FarmReading>;
/** A reading with its time: the one sent, or the server's when it was omitted. */
export type TimedFarmReading = FarmReading & { at: string };

/** Most readings per request: a batch of readings is stored all or nothing, in one statement. */
export const MAX_FARM_READINGS_PER_REQUEST = 1000;

export const FarmReadingsInput = Type.Object(
  {
    readings: Type.Array(FarmReading, { minItems: 1, maxItems: MAX_FARM_READINGS_PER_REQUEST }),
  },
  { additionalProperties: false },
);

export const FarmDeviation = Type.Object({
  at: Timestamp,
  metric: Type.String(),
  value: Type.Number(),
  min: Type.Number(),
  max: Type.Number(),
});
export type FarmDeviation = Static<typeof FarmDeviation>;

export const FarmReadingsResult = Type.Object({
  accepted: Type.Integer({ minimum: 0, description: 'Readings stored by this request' }),
  duplicates: Type.Integer({
    minimum: 0,
    description:
      'Readings not stored because the batch holds them already (same instant `at`, same values), e.g. from an ' +
      'earlier or concurrent copy of the request, or repeated within it; they are stored and counted once',
  }),
  inTarget: Type.Integer({
    minimum: 0,
    description: 'Readings stored by this request with every metric within the phase’s targets',
  }),
  deviations: Type.Array(FarmDeviation, {
    description: 'Metrics outside the targets of the phase at their time, of the readings stored by this request',
  }),
});

export const FarmReadingsSummary = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  inTarget: Type.Integer({ minimum: 0 }),
  compliance: Type.Union([Type.Number(), Type.Null()], { description: 'inTarget ÷ count' }),
  lastAt: Type.Union([Timestamp, Type.Null()]),
  mean: Type.Record(Type.String(), Type.Union([Type.Number(), Type.Null()]), { description: 'Mean of each metric' }),
});

export const HARVEST_QUALITY_GRADES = ['premium', 'grade-a', 'grade-b', 'processing'] as const;

export const FarmHarvestInput = Type.Object(
  {
    yieldKg: Type.Number({ minimum: 0, maximum: 1_000_000 }),
    qualityGrade: StringEnum(HARVEST_QUALITY_GRADES),
    notes: Type.Optional(Text({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

export const FarmHarvest = Named(
  'Harvest',
  Type.Object({
    id: HarvestId,
    yieldKg: Type.Number(),
    qualityGrade: StringEnum(HARVEST_QUALITY_GRADES),
    notes: Type.Union([Type.String(), Type.Null()]),
    harvestedAt: Timestamp,
    early: Type.Boolean({ description: 'Harvested before the recipe’s expected harvest date' }),
    block: Type.Object({ index: Type.Integer(), hash: Type.String(), txId: Type.String() }),
  }),
);

export const CropBatch = Named(
  'Batch',
  Type.Object({
    id: CropBatchId,
    farmId: FarmId,
    zoneId: ZoneId,
    recipeId: RecipeId,
    crop: StringEnum(FARM_CROPS),
    variety: Type.String(),
    plantCount: Type.Integer(),
    seedSource: Type.Object({
      type: StringEnum(['plant', 'seed-lot'] as const),
      plantId: Type.Union([PlantId, Type.Null()]),
      plantName: Type.Union([Type.String(), Type.Null()]),
      plantBlockHash: Type.Union([Type.String(), Type.Null()], { description: 'Block that recorded the plant' }),
      seedLot: Type.Union([Type.String(), Type.Null()]),
      supplier: Type.Union([Type.String(), Type.Null()]),
    }),
    state: StringEnum(CROP_BATCH_STATES),
    phase: Type.Union([StringEnum(RECIPE_PHASES), Type.Null()], {
      description: 'GrowingRecipe phase today; null once closed',
    }),
    daysInPhase: Type.Union([Type.Integer(), Type.Null()]),
    targets: Type.Union([PhaseTargets, Type.Null()], { description: 'Targets of the current phase' }),
    startedAt: Timestamp,
    expectedHarvestAt: Timestamp,
    closedAt: Type.Union([Timestamp, Type.Null()]),
    failureReason: Type.Union([Type.String(), Type.Null()]),
    readings: FarmReadingsSummary,
    harvest: Type.Union([FarmHarvest, Type.Null()]),
  }),
);
export type CropBatch = Static<typeof CropBatch>;

export const batchStart = defineSubject({
  subject: 'farm.batch.start',
  request: CropBatchStartInput,
  reply: CropBatch,
  summary: 'Start a crop batch in a zone of the caller’s farm',
});

export const batchGet = defineSubject({
  subject: 'farm.batch.get',
  request: Type.Object({ batchId: CropBatchId }),
  reply: CropBatch,
  summary: 'Read a batch with its phase and readings summary',
});

export const batchList = defineSubject({
  subject: 'farm.batch.list',
  request: Type.Object({ farmId: FarmId, ...PageQuery.properties }),
  reply: Type.Object({ items: Type.Array(CropBatch), pagination: Pagination }),
  summary: 'The batches of a farm, newest first',
});

/** A metric's band under the phase of a reading (`max` null: no upper bound). */
export const FarmTargetBand = Type.Object({
  min: Type.Number(),
  max: Type.Union([Type.Number(), Type.Null()]),
});

const nullableMetric = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

/** A stored reading with the phase it was compared under and that phase's bands: what a chart draws. */
export const FarmReadingPoint = Type.Object({
  at: Timestamp,
  temperatureC: nullableMetric('Air temperature, °C'),
  humidityPct: nullableMetric('Relative humidity, %'),
  co2Ppm: nullableMetric('CO2, ppm'),
  ppfd: nullableMetric('PPFD at canopy, µmol/m²/s'),
  ecMsCm: nullableMetric('EC of the nutrient solution, mS/cm'),
  ph: nullableMetric('pH of the nutrient solution'),
  waterTemperatureC: nullableMetric('Nutrient solution temperature, °C'),
  dissolvedOxygenMgL: nullableMetric('Dissolved oxygen, mg/L'),
  inTarget: Type.Boolean(),
  phase: StringEnum(RECIPE_PHASES),
  targets: Type.Record(Type.String(), FarmTargetBand, {
    description: 'The band of each metric under the phase at the reading’s time (docs/farm.md)',
  }),
});
export type FarmReadingPoint = Static<typeof FarmReadingPoint>;

/** Most readings one answer carries: the latest ones. */
export const MAX_FARM_READINGS_LISTED = 1000;

export const FarmBatchReadings = Type.Object({
  readings: Type.Array(FarmReadingPoint, { description: 'The latest readings, oldest first' }),
  total: Type.Integer({ minimum: 0, description: 'Readings the batch holds' }),
  alerts: Type.Array(FarmDeviation, { description: 'The latest deviations (at most 100), newest first' }),
});

export const batchReadingsList = defineSubject({
  subject: 'farm.batch.list-readings',
  request: Type.Object({
    batchId: CropBatchId,
    limit: Type.Integer({
      minimum: 1,
      maximum: MAX_FARM_READINGS_LISTED,
      default: 500,
      description: 'How many of the latest readings',
      examples: [200],
    }),
  }),
  reply: FarmBatchReadings,
  summary: 'The readings of a batch with their target bands, and its latest deviations',
});

export const batchReadingsRecord = defineSubject({
  subject: 'farm.batch.record-readings',
  request: Type.Object({ batchId: CropBatchId, ...FarmReadingsInput.properties }, { additionalProperties: false }),
  reply: FarmReadingsResult,
  summary: 'Record environment readings of a batch, all or nothing',
});

export const batchHarvest = defineSubject({
  subject: 'farm.batch.harvest',
  request: Type.Object({ batchId: CropBatchId, ...FarmHarvestInput.properties }, { additionalProperties: false }),
  reply: CropBatch,
  summary: 'Complete a batch with its harvest, recorded on the ledger',
});

export const batchFail = defineSubject({
  subject: 'farm.batch.fail',
  request: Type.Object(
    { batchId: CropBatchId, reason: Text({ minLength: 1, maxLength: 500 }) },
    { additionalProperties: false },
  ),
  reply: CropBatch,
  summary: 'Close a batch as failed',
});

export const batchStarted = defineEvent({
  subject: 'evt.farm.batch.started',
  payload: Type.Object({
    batchId: Type.String(),
    farmId: Type.String(),
    zoneId: Type.String(),
    recipeId: Type.String(),
    crop: Type.String(),
    plantId: Type.Union([Type.String(), Type.Null()]),
    expectedHarvestAt: Type.String(),
  }),
});

/**
 * Readings outside the targets of their phase (one event per request that had any). Internal (no public kind): a
 * batch's readings are its farm manager's business data (docs/privacy.md); notify tells the manager.
 */
export const farmAlerted = defineEvent({
  subject: 'evt.farm.batch.alerted',
  payload: Type.Object({
    batchId: Type.String(),
    farmId: Type.String(),
    farmName: Type.String(),
    ownerId: Type.String({ description: "The farm's owner, who is told" }),
    deviationCount: Type.Integer(),
    deviations: Type.Array(FarmDeviation, { description: 'The first 20' }),
  }),
});

/** A batch reached its harvest window. Internal, like alerts: notify tells the farm's manager. */
export const harvestReady = defineEvent({
  subject: 'evt.farm.batch.ready',
  payload: Type.Object({
    batchId: Type.String(),
    farmId: Type.String(),
    farmName: Type.String(),
    ownerId: Type.String({ description: "The farm's owner, who is told" }),
    crop: Type.String(),
    expectedHarvestAt: Type.String(),
  }),
});

export const batchHarvested = defineEvent({
  subject: 'evt.farm.batch.harvested',
  kind: 'farm.harvest',
  payload: Type.Object({
    batchId: Type.String(),
    harvestId: Type.String(),
    farmId: Type.String(),
    crop: Type.String(),
    recipeId: Type.String(),
    plantId: Type.Union([Type.String(), Type.Null()]),
    yieldKg: Type.Number(),
    qualityGrade: Type.String(),
    early: Type.Boolean({ description: 'Harvested before the recipe’s expected harvest date' }),
  }),
});

export const batchFailed = defineEvent({
  subject: 'evt.farm.batch.failed',
  payload: Type.Object({ batchId: Type.String(), farmId: Type.String(), reason: Type.String() }),
});
