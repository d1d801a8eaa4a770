import { type Static, Type } from '@sinclair/typebox';
import { PrefixedId, Text, Timestamp } from './common.js';
import { defineEvent, defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { PlantId, StringEnum } from './plants.js';

/**
 * Environment records: what a grower measured around one plant, in the spec's nine categories. Every category
 * and every field is optional (a plant without any record stays valid); each number is bounded by what is
 * physically possible, so a typo (pH 70, 250 °C) is refused as VALIDATION_ERROR.
 */

const Num = (minimum: number, maximum: number, description: string) =>
  Type.Optional(Type.Number({ minimum, maximum, description }));
const Label = (maxLength: number, description: string) => Text({ minLength: 1, maxLength, description });
const Labels = (maxItems: number, description: string) =>
  Type.Optional(Type.Array(Label(100, 'One entry'), { maxItems, description }));
const Ppm = (description: string, maximum = 10_000) => Num(0, maximum, `${description}, mg/L (ppm), 0–${maximum}`);

export const SOIL_TYPES = ['clay', 'loam', 'sand', 'silt', 'peat', 'chalk', 'potting-mix', 'soilless'] as const;
export const DRAINAGE_LEVELS = ['poor', 'moderate', 'good', 'excessive'] as const;
export const LIGHT_SOURCES = ['natural', 'artificial', 'mixed'] as const;
export const AIRFLOW_LEVELS = ['still', 'light', 'moderate', 'strong'] as const;
export const GROWING_SETTINGS = ['indoor', 'outdoor', 'greenhouse'] as const;
export const CONTAINER_TYPES = ['pot', 'raised-bed', 'ground', 'grow-bag', 'hydroponic', 'hanging-basket'] as const;
export const CONTAINER_MATERIALS = ['plastic', 'terracotta', 'ceramic', 'wood', 'fabric', 'metal', 'concrete'] as const;
export const WATERING_METHODS = ['hand', 'drip', 'sprinkler', 'bottom', 'self-watering', 'hydroponic', 'rain'] as const;
export const WATER_SOURCES = ['tap', 'rain', 'well', 'filtered', 'distilled', 'reverse-osmosis', 'recycled'] as const;
export const VIGOR_LEVELS = ['poor', 'fair', 'good', 'excellent'] as const;

const Npk = Type.Object(
  {
    n: Type.Number({ minimum: 0, maximum: 100, description: 'Nitrogen, % by weight' }),
    p: Type.Number({ minimum: 0, maximum: 100, description: 'Phosphate (P2O5), % by weight' }),
    k: Type.Number({ minimum: 0, maximum: 100, description: 'Potash (K2O), % by weight' }),
  },
  { additionalProperties: false },
);

export const Soil = Type.Object(
  {
    type: Type.Optional(StringEnum(SOIL_TYPES)),
    ph: Num(0, 14, 'Soil pH, 0–14'),
    texture: Type.Optional(Label(60, 'Texture as described, e.g. "sandy loam"')),
    drainage: Type.Optional(StringEnum(DRAINAGE_LEVELS)),
    organicMatterPercent: Num(0, 100, 'Organic matter, % of dry weight'),
    amendments: Labels(20, 'Amendments added, e.g. compost, perlite'),
  },
  { additionalProperties: false },
);

export const Nutrients = Type.Object(
  {
    nitrogenPpm: Ppm('Nitrogen (N)'),
    phosphorusPpm: Ppm('Phosphorus (P)'),
    potassiumPpm: Ppm('Potassium (K)'),
    secondary: Type.Optional(
      Type.Object(
        { calciumPpm: Ppm('Calcium'), magnesiumPpm: Ppm('Magnesium'), sulfurPpm: Ppm('Sulfur') },
        { additionalProperties: false },
      ),
    ),
    micronutrients: Type.Optional(
      Type.Object(
        {
          ironPpm: Ppm('Iron', 1000),
          manganesePpm: Ppm('Manganese', 1000),
          zincPpm: Ppm('Zinc', 1000),
          copperPpm: Ppm('Copper', 1000),
          boronPpm: Ppm('Boron', 1000),
          molybdenumPpm: Ppm('Molybdenum', 1000),
        },
        { additionalProperties: false },
      ),
    ),
    ecMsCm: Num(0, 20, 'Electrical conductivity of the root-zone solution, mS/cm'),
    tdsPpm: Ppm('Total dissolved solids', 20_000),
    fertilizerApplications: Type.Optional(
      Type.Array(
        Type.Object(
          {
            type: Label(100, 'Fertilizer, e.g. "fish emulsion", "10-10-10 granular"'),
            schedule: Label(100, 'How often, e.g. "every 2 weeks"'),
            npk: Type.Optional(Npk),
            appliedAt: Type.Optional(Timestamp),
          },
          { additionalProperties: false },
        ),
        { maxItems: 20 },
      ),
    ),
  },
  { additionalProperties: false },
);

export const Lighting = Type.Object(
  {
    source: Type.Optional(StringEnum(LIGHT_SOURCES)),
    hoursPerDay: Num(0, 24, 'Hours of light per day'),
    spectrum: Type.Optional(Label(60, 'e.g. "full spectrum", "red-blue LED", "sunlight"')),
    ppfd: Num(0, 3000, 'Photosynthetic photon flux density, µmol/m²/s (full sun is about 2000)'),
    dli: Num(0, 100, 'Daily light integral, mol/m²/day'),
  },
  { additionalProperties: false },
);

export const Climate = Type.Object(
  {
    temperatureC: Num(-60, 60, 'Air temperature, °C'),
    humidityPercent: Num(0, 100, 'Relative humidity, %'),
    airflow: Type.Optional(StringEnum(AIRFLOW_LEVELS)),
    co2Ppm: Num(0, 10_000, 'CO2, ppm (outdoor air is about 420)'),
    hardinessZone: Type.Optional(
      Type.String({ pattern: '^(1[0-3]|[1-9])[ab]?$', description: 'USDA hardiness zone, 1–13 with a or b' }),
    ),
  },
  { additionalProperties: false },
);

export const GrowingLocation = Type.Object(
  {
    setting: Type.Optional(StringEnum(GROWING_SETTINGS)),
    details: Type.Optional(Text({ maxLength: 500, description: 'Free description, e.g. "south-facing balcony"' })),
    greenhouse: Type.Optional(
      Type.Object(
        {
          heated: Type.Optional(Type.Boolean()),
          ventilated: Type.Optional(Type.Boolean()),
          covering: Type.Optional(Label(60, 'e.g. glass, polycarbonate, polyethylene')),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const Container = Type.Object(
  {
    type: Type.Optional(StringEnum(CONTAINER_TYPES)),
    material: Type.Optional(StringEnum(CONTAINER_MATERIALS)),
    volumeLiters: Num(0, 100_000, 'Volume, litres'),
    hasDrainage: Type.Optional(Type.Boolean({ description: 'Drainage holes or equivalent' })),
  },
  { additionalProperties: false },
);

export const Watering = Type.Object(
  {
    method: Type.Optional(StringEnum(WATERING_METHODS)),
    frequencyPerWeek: Num(0, 100, 'Waterings per week'),
    source: Type.Optional(StringEnum(WATER_SOURCES, { description: 'Water quality by source' })),
    ph: Num(0, 14, 'Water pH, 0–14'),
    tdsPpm: Ppm('Total dissolved solids of the water', 20_000),
    chlorinePpm: Num(0, 50, 'Chlorine, mg/L'),
  },
  { additionalProperties: false },
);

export const Surroundings = Type.Object(
  {
    companionPlants: Labels(50, 'Plants growing beside it'),
    pests: Labels(50, 'Pests seen'),
    diseases: Labels(50, 'Diseases seen'),
    ecosystem: Type.Optional(Text({ maxLength: 500, description: 'e.g. "urban balcony, pollinators present"' })),
  },
  { additionalProperties: false },
);

export const GrowthMetrics = Type.Object(
  {
    heightCm: Num(0, 20_000, 'Height, cm'),
    stemDiameterMm: Num(0, 5000, 'Stem diameter, mm'),
    leafCount: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    growthRateCmPerWeek: Num(0, 500, 'Height gained per week, cm'),
    healthScore: Num(0, 100, "The grower's own health rating, 0–100"),
    vigor: Type.Optional(StringEnum(VIGOR_LEVELS)),
  },
  { additionalProperties: false },
);

/** The nine categories of the spec, as they appear in a record. */
export const EnvironmentCategories = {
  soil: Type.Optional(Soil),
  nutrients: Type.Optional(Nutrients),
  lighting: Type.Optional(Lighting),
  climate: Type.Optional(Climate),
  location: Type.Optional(GrowingLocation),
  container: Type.Optional(Container),
  watering: Type.Optional(Watering),
  surroundings: Type.Optional(Surroundings),
  growth: Type.Optional(GrowthMetrics),
};
export const ENVIRONMENT_CATEGORIES = [
  'soil',
  'nutrients',
  'lighting',
  'climate',
  'location',
  'container',
  'watering',
  'surroundings',
  'growth',
] as const satisfies readonly (keyof typeof EnvironmentCategories)[];
export type EnvironmentCategory = (typeof ENVIRONMENT_CATEGORIES)[number];
export const EnvironmentCategorySchema = StringEnum(ENVIRONMENT_CATEGORIES);

export const EnvironmentData = Type.Object(EnvironmentCategories, { additionalProperties: false });
export type EnvironmentData = Static<typeof EnvironmentData>;

/** POST /api/environment/records: one observation of a plant, in one or more categories. */
export const EnvironmentRecordInput = Type.Object(
  {
    plantId: PlantId,
    recordedAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'When the values were measured, ISO 8601 (default: now); not in the future',
      }),
    ),
    ...EnvironmentCategories,
  },
  { additionalProperties: false },
);
export type EnvironmentRecordInput = Static<typeof EnvironmentRecordInput>;

export const EnvironmentRecordId = PrefixedId('env', 'Environment record identifier');

export const EnvironmentRecord = Named(
  'EnvironmentRecord',
  Type.Object({
    id: EnvironmentRecordId,
    plantId: PlantId,
    recordedAt: Timestamp,
    recordedBy: Type.String({ description: 'The account that wrote the record (the owner or an ADMIN)' }),
    ...EnvironmentCategories,
  }),
);
export type EnvironmentRecord = Static<typeof EnvironmentRecord>;

export const EnvironmentHistoryQuery = Type.Object({ plantId: PlantId, ...PageQuery.properties });

/** What a page of a plant's records carries about the plant (`meta` of the HTTP answer). */
export const EnvironmentHistoryMeta = Type.Object(
  {
    plantId: PlantId,
    current: Type.Object(EnvironmentCategories, {
      description: 'The newest value of each category (by recordedAt); categories never recorded are absent',
    }),
  },
  { description: 'The plant and its current environment, over all its records' },
);

export const EnvironmentHistory = Type.Object({
  items: Type.Array(EnvironmentRecord, { description: 'A page of the records, newest first' }),
  pagination: Pagination,
  meta: EnvironmentHistoryMeta,
});
export type EnvironmentHistory = Static<typeof EnvironmentHistory>;

export const environmentRecordAdd = defineSubject({
  subject: 'environment.record.add',
  request: EnvironmentRecordInput,
  reply: EnvironmentRecord,
  summary: 'Add an environment record to a plant (its owner or an ADMIN)',
});

export const environmentRecordList = defineSubject({
  subject: 'environment.record.list',
  request: EnvironmentHistoryQuery,
  reply: EnvironmentHistory,
  summary: "A plant's current environment and its record history",
});

export const environmentRecorded = defineEvent({
  subject: 'evt.environment.record.added',
  payload: Type.Object({
    recordId: Type.String(),
    plantId: Type.String(),
    recordedAt: Type.String(),
    categories: Type.Array(Type.String()),
  }),
});
