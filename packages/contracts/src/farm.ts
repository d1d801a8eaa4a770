import { type Static, Type } from '@sinclair/typebox';
import { Location, PrefixedId, Text, Timestamp } from './common.js';
import { defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { StringEnum } from './plants.js';

export const FarmId = PrefixedId('frm', 'Farm identifier');
export const ZoneId = PrefixedId('zon', 'FarmZone identifier');
export const RecipeId = PrefixedId('rcp', 'Growing recipe identifier');

export const LIGHTING_SYSTEMS = ['led', 'hps', 'fluorescent', 'induction', 'hybrid'] as const;
export const CLIMATE_SYSTEMS = ['hvac', 'hvac-dehumidification', 'heat-pump', 'evaporative', 'passive'] as const;
/** Hydroponic and soilless methods of a zone. */
export const ZONE_GROWING_METHODS = ['nft', 'deep-water-culture', 'aeroponics', 'ebb-and-flow', 'substrate'] as const;
export type ZoneGrowingMethod = (typeof ZONE_GROWING_METHODS)[number];

export const FarmInput = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 200 }),
    location: Location,
    floorAreaM2: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'Floor area in m²' }),
    levels: Type.Integer({ minimum: 1, maximum: 100, description: 'Growing levels (tiers) stacked in the farm' }),
    lightingSystem: StringEnum(LIGHTING_SYSTEMS, { description: 'Main grow-light technology' }),
    climateSystem: StringEnum(CLIMATE_SYSTEMS, { description: 'Main climate-control system' }),
  },
  { additionalProperties: false },
);
export type FarmInput = Static<typeof FarmInput>;

export const Farm = Named(
  'Farm',
  Type.Object({
    id: FarmId,
    name: Type.String(),
    location: Location,
    floorAreaM2: Type.Number(),
    levels: Type.Integer(),
    lightingSystem: StringEnum(LIGHTING_SYSTEMS),
    climateSystem: StringEnum(CLIMATE_SYSTEMS),
    ownerId: Type.String({
      description:
        'The account that registered the farm, or the organization it was registered for (run by its owners and managers)',
    }),
    zoneCount: Type.Integer({ minimum: 0 }),
    growingAreaM2: Type.Number({ minimum: 0, description: 'Sum of the zones’ areas' }),
    createdAt: Timestamp,
  }),
);
export type Farm = Static<typeof Farm>;

const Setpoint = (unit: string, minimum: number, maximum: number) =>
  Type.Optional(Type.Number({ minimum, maximum, description: unit }));

export const FarmZoneSetpoints = Type.Object(
  {
    temperatureC: Setpoint('Air temperature, °C', -10, 50),
    humidityPct: Setpoint('Relative humidity, %', 0, 100),
    co2Ppm: Setpoint('CO2, ppm', 0, 5000),
    ppfd: Setpoint('Photosynthetic photon flux density at canopy, µmol/m²/s', 0, 2500),
    photoperiodHours: Setpoint('Light hours per day', 0, 24),
  },
  { additionalProperties: false },
);

export const ZoneInput = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 200 }),
    level: Type.Integer({ minimum: 1, maximum: 100, description: 'Tier of the farm the zone is on (1 = lowest)' }),
    areaM2: Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description: 'Growing area in m²' }),
    growingMethod: StringEnum(ZONE_GROWING_METHODS, {
      description:
        'nft (nutrient film technique), deep-water-culture (rafts on aerated solution), aeroponics (roots misted), ' +
        'ebb-and-flow (flood and drain), substrate (rockwool, coco or peat)',
    }),
    capacity: Type.Integer({ minimum: 1, maximum: 10_000_000, description: 'Plant sites in the zone' }),
    setpoints: Type.Optional(FarmZoneSetpoints),
  },
  { additionalProperties: false },
);
export type ZoneInput = Static<typeof ZoneInput>;

export const FarmZone = Named(
  'Zone',
  Type.Object({
    id: ZoneId,
    farmId: FarmId,
    name: Type.String(),
    level: Type.Integer(),
    areaM2: Type.Number(),
    growingMethod: StringEnum(ZONE_GROWING_METHODS),
    capacity: Type.Integer(),
    plantsGrowing: Type.Integer({ minimum: 0, description: 'Plants of the zone’s open batches' }),
    setpoints: FarmZoneSetpoints,
    createdAt: Timestamp,
  }),
);
export type FarmZone = Static<typeof FarmZone>;

export const FARM_CROPS = [
  'lettuce',
  'basil',
  'kale',
  'microgreens',
  'strawberry',
  'spinach',
  'herbs',
  'other',
] as const;
export type FarmCrop = (typeof FARM_CROPS)[number];
export const RECIPE_PHASES = ['germination', 'seedling', 'vegetative', 'flowering', 'fruiting'] as const;
export type RecipePhaseName = (typeof RECIPE_PHASES)[number];

const Range = (unit: string, minimum: number, maximum: number) =>
  Type.Object(
    {
      min: Type.Number({ minimum, maximum }),
      max: Type.Number({ minimum, maximum }),
    },
    { additionalProperties: false, description: unit },
  );

/** Targets of one phase; a reading is compared with them (docs/farm.md, "Compliance"). */
export const PhaseTargets = Type.Object(
  {
    ppfd: Range('PPFD while the lights are on, µmol/m²/s', 0, 2500),
    photoperiodHours: Type.Number({ minimum: 0, maximum: 24, description: 'Light hours per day' }),
    dayTemperatureC: Type.Number({ minimum: -10, maximum: 50 }),
    nightTemperatureC: Type.Number({ minimum: -10, maximum: 50 }),
    humidityPct: Range('Relative humidity, %', 0, 100),
    co2Ppm: Range('CO2, ppm', 0, 5000),
    ecMsCm: Range('Electrical conductivity of the nutrient solution, mS/cm', 0, 20),
    ph: Range('pH of the nutrient solution', 0, 14),
  },
  { additionalProperties: false },
);
export type PhaseTargets = Static<typeof PhaseTargets>;

export const RecipePhaseInput = Type.Object(
  {
    phase: StringEnum(RECIPE_PHASES),
    days: Type.Integer({ minimum: 1, maximum: 365 }),
    targets: PhaseTargets,
  },
  { additionalProperties: false },
);

export const RecipePhase = Type.Object({
  phase: StringEnum(RECIPE_PHASES),
  days: Type.Integer(),
  targets: PhaseTargets,
  dli: Type.Number({ description: 'Daily light integral, mol/m²/day: mean PPFD × photoperiod hours × 0.0036' }),
});
export type RecipePhase = Static<typeof RecipePhase>;

export const RecipeOutcomes = Type.Object({
  batches: Type.Integer({ minimum: 0, description: 'Batches started with this version' }),
  harvested: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0 }),
  successRate: Type.Union([Type.Number(), Type.Null()], { description: 'harvested ÷ (harvested + failed)' }),
  yieldPerM2: Type.Union([Type.Number(), Type.Null()], { description: 'Mean kg per m² occupied, harvested batches' }),
  cycleDays: Type.Union([Type.Number(), Type.Null()], { description: 'Mean days from start to harvest' }),
});
export type RecipeOutcomes = Static<typeof RecipeOutcomes>;

export const GrowingRecipe = Named(
  'Recipe',
  Type.Object({
    id: RecipeId,
    name: Type.String(),
    crop: StringEnum(FARM_CROPS),
    version: Type.Integer({ minimum: 1 }),
    parentId: Type.Union([RecipeId, Type.Null()], { description: 'The recipe this one was derived from' }),
    authorId: Type.Union([Type.String(), Type.Null()], { description: 'null for the recipes Rootline ships' }),
    phases: Type.Array(RecipePhase),
    cycleDays: Type.Integer({ description: 'Sum of the phases’ days: start to expected harvest' }),
    sources: Type.Array(Type.String(), { description: 'Where the figures come from' }),
    outcomes: RecipeOutcomes,
    createdAt: Timestamp,
  }),
);
export type GrowingRecipe = Static<typeof GrowingRecipe>;

export const RecipeInput = Type.Object(
  {
    parentId: RecipeId,
    name: Text({ minLength: 1, maxLength: 200 }),
    phases: Type.Array(RecipePhaseInput, { minItems: 1, maxItems: 5 }),
    sources: Type.Array(Text({ minLength: 1, maxLength: 500 }), { maxItems: 20 }),
  },
  { additionalProperties: false },
);
export type RecipeInput = Static<typeof RecipeInput>;

export const RecipeQuery = Type.Object({
  crop: Type.Optional(StringEnum(FARM_CROPS)),
  ...PageQuery.properties,
});

export const farmRegister = defineSubject({
  subject: 'farm.farm.register',
  request: FarmInput,
  reply: Farm,
  summary: 'Register a vertical farm owned by the caller',
});

export const farmGet = defineSubject({
  subject: 'farm.farm.get',
  request: Type.Object({ farmId: FarmId }),
  reply: Farm,
  summary: 'Read one farm',
});

export const farmListOwned = defineSubject({
  subject: 'farm.farm.list-owned',
  request: Type.Object({}),
  reply: Type.Object({ items: Type.Array(Farm) }),
  summary: 'The farms the caller owns, newest first',
});

export const zoneAdd = defineSubject({
  subject: 'farm.zone.add',
  request: Type.Object({ farmId: FarmId, ...ZoneInput.properties }, { additionalProperties: false }),
  reply: FarmZone,
  summary: 'Add a zone to a farm',
});

export const zoneList = defineSubject({
  subject: 'farm.zone.list',
  request: Type.Object({ farmId: FarmId }),
  reply: Type.Object({ items: Type.Array(FarmZone) }),
  summary: 'The zones of a farm',
});

export const recipeList = defineSubject({
  subject: 'farm.recipe.list',
  request: RecipeQuery,
  reply: Type.Object({ items: Type.Array(GrowingRecipe), pagination: Pagination }),
  summary: 'Growing recipes, optionally of one crop',
});

export const recipeCreate = defineSubject({
  subject: 'farm.recipe.create',
  request: RecipeInput,
  reply: GrowingRecipe,
  summary: 'A new recipe version derived from a parent recipe',
});
