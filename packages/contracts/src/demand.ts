import { type Static, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import { Location, PrefixedId, Text, Timestamp } from './common.js';
import { Defaulted, defineEvent, defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { StringEnum } from './plants.js';

/**
 * The published precision of a household's location, km (docs/privacy.md): households are placed on a fixed grid
 * of cells this size, radii are rounded up to multiples of it, and distances shown to anyone but the household
 * are rounded up to it.
 */
export const LOCATION_PRECISION_KM = 5;

/** A distance (or radius) rounded up to the next multiple of LOCATION_PRECISION_KM: 0.02 km reads 5 km, 12 km 15. */
export function distanceBandKm(km: number): number {
  return Math.max(1, Math.ceil(km / LOCATION_PRECISION_KM - 1e-9)) * LOCATION_PRECISION_KM;
}

/** Crops of the demand model; their agronomic figures are in the demand service's crop table (docs/demand.md). */
export const CROPS = [
  'tomato',
  'lettuce',
  'spinach',
  'kale',
  'carrot',
  'beetroot',
  'radish',
  'potato',
  'onion',
  'garlic',
  'cucumber',
  'zucchini',
  'pepper',
  'green-bean',
  'pea',
  'strawberry',
  'basil',
  'microgreens',
] as const;
export type Crop = (typeof CROPS)[number];
export const CropSchema = StringEnum(CROPS, { description: 'A crop of the demand model', examples: ['tomato'] });

export const UNITS = ['kg', 'piece', 'bunch'] as const;
export type Unit = (typeof UNITS)[number];
const UnitSchema = StringEnum(UNITS, {
  description: 'kg, piece or bunch; converted to kg with the crop table’s typical weight of a piece or bunch',
});
export const SEASONS = ['spring', 'summer', 'autumn', 'winter'] as const;
export type Season = (typeof SEASONS)[number];
export const GROWING_METHODS = ['open-field', 'greenhouse', 'vertical'] as const;
export type GrowingMethod = (typeof GROWING_METHODS)[number];

export const PreferenceId = PrefixedId('prf', 'Preference identifier');
export const SupplyId = PrefixedId('sup', 'Supply commitment identifier');
export const SignalId = PrefixedId('sig', 'Demand signal identifier');
export const MatchId = PrefixedId('mch', 'Match identifier');

/** A calendar date, `YYYY-MM-DD` (checked to be a real date by the service). */
const DATE_ONLY_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
export const DateOnly = Type.String({ pattern: DATE_ONLY_PATTERN, description: 'YYYY-MM-DD' });
const MinorUnits = Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'Minor units (cents) per unit' });
const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code', examples: ['EUR'] });
const RadiusKm = (def: number, description: string) =>
  Type.Number({ exclusiveMinimum: 0, maximum: 500, default: def, description });
const Quantity = Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description: 'Amount in `unit`' });

export const PreferenceItem = Type.Object(
  {
    crop: CropSchema,
    quantityPerWeek: Quantity,
    unit: UnitSchema,
    maxPrice: Type.Optional(MinorUnits),
    currency: Defaulted(Type.String({ pattern: '^[A-Z]{3}$', default: 'EUR', description: 'ISO 4217 code' })),
    organicOnly: Defaulted(Type.Boolean({ default: false })),
    localOnly: Defaulted(Type.Boolean({ default: false, description: 'Only from growers within the radius' })),
    seasons: Defaulted(
      Type.Array(StringEnum(SEASONS), {
        minItems: 1,
        maxItems: 4,
        uniqueItems: true,
        default: [...SEASONS],
        description: 'Meteorological seasons (northern hemisphere months, mirrored south of the equator)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PreferenceInput = Type.Object(
  {
    location: Location,
    radiusKm: Defaulted(RadiusKm(25, 'How far the household would fetch food (default 25 km)')),
    householdSize: Type.Integer({ minimum: 1, maximum: 50 }),
    items: Type.Array(PreferenceItem, { minItems: 1, maxItems: 50 }),
  },
  { additionalProperties: false },
);
export type PreferenceInput = Static<typeof PreferenceInput>;

export const Preference = Named(
  'Preference',
  Type.Object({
    id: PreferenceId,
    consumerId: Type.String(),
    location: Location,
    radiusKm: Type.Number(),
    householdSize: Type.Integer(),
    items: Type.Array(Type.Unsafe<Static<typeof PreferenceItem>>(PreferenceItem)),
    updatedAt: Timestamp,
  }),
);
export type Preference = Static<typeof Preference>;

const Region = Type.Union(
  [
    Type.Object(
      {
        latitude: Type.Number({ minimum: -90, maximum: 90 }),
        longitude: Type.Number({ minimum: -180, maximum: 180 }),
        radiusKm: RadiusKm(
          50,
          'Kilometres around the point, rounded up to a multiple of 5 km; the region is the 5 km grid cells whose centres lie within it of the centre of the point’s cell',
        ),
      },
      { additionalProperties: false, title: 'Point and radius' },
    ),
    Type.Object(
      {
        country: Text({ minLength: 1, maxLength: 120 }),
        city: Type.Optional(Text({ minLength: 1, maxLength: 120 })),
      },
      { additionalProperties: false, title: 'Country, optionally a city' },
    ),
  ],
  { description: 'A point and radius, or a country (and city) matched by the stated location names' },
);
export type Region = Static<typeof Region>;

export const SignalInput = Type.Object(
  {
    region: Region,
    from: Type.Optional(
      Type.String({
        pattern: DATE_ONLY_PATTERN,
        description: 'First day of the horizon (its week’s Monday); default today',
      }),
    ),
    horizonWeeks: Defaulted(Type.Integer({ minimum: 1, maximum: 26, default: 4, description: 'Weeks (default 4)' })),
  },
  { additionalProperties: false },
);

const CropWeek = Type.Object({
  weekStart: Type.String({ description: 'Monday of the week' }),
  demandKg: Type.Number({
    description:
      'Published demand: settled households’ weekly kg (each clipped to 2 kg) with Laplace noise fixed per area, crop, season and publication week (docs/privacy.md)',
  }),
  supplyKg: Type.Number({ description: 'Committed supply in the region that week' }),
  gapKg: Type.Number({ description: 'demandKg − supplyKg, never below 0' }),
});

export const Signal = Named(
  'DemandSignal',
  Type.Object({
    id: SignalId,
    region: Region,
    regionKey: Type.Union([Type.String(), Type.Null()], { description: 'COUNTRY or COUNTRY/city; forecast history' }),
    from: Type.String(),
    horizonWeeks: Type.Integer(),
    consumers: Type.Integer({
      description:
        'Settled households (preferences unmoved from their 5 km cell for 14 days) in the region (at least 5); households newer than that are not counted',
    }),
    suppressedCrops: Type.Integer({
      minimum: 0,
      description: 'Crops left out of `crops` because fewer than 5 households (a noisy count) ask for them',
    }),
    crops: Type.Array(
      Type.Object({
        crop: Type.String(),
        consumers: Type.Integer({ description: 'Households asking for the crop: a noisy count, at least 5' }),
        demandKg: Type.Number(),
        supplyKg: Type.Number(),
        gapKg: Type.Number(),
        weeks: Type.Array(CropWeek),
      }),
    ),
    createdAt: Timestamp,
  }),
);
export type Signal = Static<typeof Signal>;

export const RecommendationQuery = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90, examples: [52.37] }),
  lon: Type.Number({ minimum: -180, maximum: 180, examples: [4.9] }),
  areaM2: Defaulted(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: 1_000_000,
      default: 10,
      description: 'Area available, m² (default 10, a household plot)',
    }),
  ),
  method: Defaulted(
    StringEnum(GROWING_METHODS, {
      default: 'open-field',
      description: 'open-field (default, the most common), greenhouse or vertical (indoor, lit)',
    }),
  ),
  startDate: Type.Optional(
    Type.String({ pattern: DATE_ONLY_PATTERN, description: 'YYYY-MM-DD, when sowing starts; default today (UTC)' }),
  ),
  radius: Defaulted(RadiusKm(50, 'Demand counted within this radius (default 50 km)')),
  limit: Defaulted(Type.Integer({ minimum: 1, maximum: 18, default: 10 })),
});

const reason = <C extends string, P extends TProperties>(code: C, params: P, description: string) =>
  Type.Object({ code: Type.Literal(code), params: Type.Object(params) }, { description });
const Kg = (description: string) => Type.Number({ description: `${description}, kg (one decimal)` });
const PricePerKg = Type.Number({ description: 'Price per kg in currency units (EUR 2.5, not cents)' });

/**
 * Why a crop is recommended, as a stable code with the values its sentence uses: `reasons[i]` in English is
 * `reasonCodes[i]` in words. An app words each code in its reader's language (docs/languages.md, ADR 255).
 */
export const CropReason = Named(
  'CropReason',
  Type.Union(
    [
      reason(
        'not-grown',
        { crop: CropSchema, method: StringEnum(GROWING_METHODS) },
        'The method does not grow the crop (e.g. no microgreens in the open field)',
      ),
      reason(
        'not-sowable',
        { month: Type.Integer({ minimum: 1, maximum: 12 }), method: StringEnum(GROWING_METHODS) },
        'The start month (mirrored south of the equator) is not a sowing month of the crop with the method',
      ),
      reason(
        'sowable',
        { month: Type.Integer({ minimum: 1, maximum: 12 }), method: StringEnum(GROWING_METHODS) },
        'The crop can be sown in the start month with the method',
      ),
      reason(
        'first-harvest',
        { date: Type.String({ pattern: DATE_ONLY_PATTERN }), days: Type.Integer({ minimum: 0 }) },
        'The first harvest date, days after the start',
      ),
      reason(
        'unmet-demand',
        {
          unmetKg: Kg('Nearby demand not covered by committed supply'),
          weeks: Type.Integer({ minimum: 1, description: 'Harvest weeks counted' }),
          wantedKg: Kg('Nearby demand'),
          committedKg: Kg('Committed nearby supply'),
        },
        'Unmet nearby demand over the harvest weeks',
      ),
      reason(
        'withheld',
        { minHouseholds: Type.Integer({ minimum: 1 }) },
        'Fewer households than minHouseholds nearby ask for the crop: their demand is not counted',
      ),
      reason(
        'expected-yield',
        { yieldKg: Kg('Expected yield'), areaM2: Type.Number(), kgPerM2: Type.Number() },
        'The expected yield: area × yield per m² of the method',
      ),
      reason(
        'reference-price',
        { pricePerKg: PricePerKg, currency: Type.String() },
        'Priced at the crop table’s reference price (too few households state one)',
      ),
      reason(
        'median-price',
        { pricePerKg: PricePerKg, currency: Type.String() },
        'Priced at the median maximum price nearby households accept',
      ),
    ],
    {
      examples: [
        { code: 'sowable', params: { month: 4, method: 'open-field' } },
        { code: 'first-harvest', params: { date: '2026-07-13', days: 80 } },
        { code: 'unmet-demand', params: { unmetKg: 16, weeks: 4, wantedKg: 20, committedKg: 4 } },
      ],
    },
  ),
);
export type CropReason = Static<typeof CropReason>;
/** Every code a crop recommendation's reasons may carry, read from the schema. */
export const CROP_REASON_CODES = CropReason.anyOf.map((s) => s.properties.code.const) as readonly CropReason['code'][];

export const CropRecommendation = Type.Object({
  crop: Type.String(),
  rank: Type.Integer({ minimum: 1 }),
  score: Type.Number(),
  suitable: Type.Boolean({ description: 'Sowable at startDate with this method' }),
  harvestDate: Type.String(),
  daysToHarvest: Type.Integer(),
  expectedYieldKg: Type.Number(),
  unmetDemandKg: Type.Number({ description: 'Nearby demand in the harvest weeks not covered by committed supply' }),
  expectedRevenue: Type.Object({ amount: Type.Integer(), currency: Type.String() }),
  reasons: Type.Array(Type.String(), { description: 'Why, in English: the sentences of `reasonCodes`' }),
  reasonCodes: Type.Array(CropReason, { description: 'The reasons as codes with their values, in the same order' }),
});

export const ForecastQuery = Type.Object({
  crop: CropSchema,
  region: Type.String({
    pattern: '^[^/\\u0000-\\u001f\\uD800-\\uDFFF]{1,120}(/[^/\\u0000-\\u001f\\uD800-\\uDFFF]{1,120})?$',
    description: 'COUNTRY or COUNTRY/city as signals by name record it (e.g. NL or NL/amsterdam); case does not matter',
    examples: ['NL/amsterdam'],
  }),
  weeks: Defaulted(Type.Integer({ minimum: 1, maximum: 26, default: 4 })),
});

const Interval = Type.Object({ lower: Type.Number(), upper: Type.Number() });
/** Forecasting methods, by the history they need (docs/demand.md). */
export const FORECAST_METHODS = ['naive', 'holt'] as const;
export const Forecast = Named(
  'Forecast',
  Type.Object({
    crop: Type.String(),
    region: Type.String(),
    method: StringEnum(FORECAST_METHODS, {
      description:
        'The method the history allows: `holt` (Holt’s linear exponential smoothing) from 4 weeks, `naive` (the last ' +
        'week carried on) below',
    }),
    basedOnWeeks: Type.Integer({
      minimum: 1,
      description: 'Weeks of history the forecast rests on (weeks without a record carry the week before)',
    }),
    parameters: Type.Union([Type.Object({ alpha: Type.Number(), beta: Type.Number() }), Type.Null()], {
      description: 'Holt’s smoothing parameters; null for the naive forecast',
    }),
    history: Type.Array(Type.Object({ weekStart: Type.String(), demandKg: Type.Number() })),
    forecast: Type.Array(
      Type.Object({ weekStart: Type.String(), demandKg: Type.Number(), pi80: Interval, pi95: Interval }),
    ),
    backtest: Type.Object({
      points: Type.Integer({ description: 'One-step-ahead forecasts scored' }),
      mape: Type.Union([Type.Number(), Type.Null()], { description: 'Mean absolute percentage error, %' }),
      mase: Type.Union([Type.Number(), Type.Null()], { description: 'Mean absolute scaled error (naive = 1)' }),
    }),
  }),
);

export const SupplyInput = Type.Object(
  {
    crop: CropSchema,
    quantity: Quantity,
    unit: UnitSchema,
    window: Type.Object({ from: DateOnly, to: DateOnly }, { additionalProperties: false }),
    price: MinorUnits,
    currency: Currency,
    location: Location,
    organic: Defaulted(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

export const Supply = Named(
  'Supply',
  Type.Object({
    id: SupplyId,
    growerId: Type.String(),
    crop: Type.String(),
    quantity: Type.Number(),
    unit: Type.String(),
    quantityKg: Type.Number(),
    matchedKg: Type.Number(),
    window: Type.Object({ from: Type.String(), to: Type.String() }),
    price: Type.Integer(),
    currency: Type.String(),
    location: Location,
    organic: Type.Boolean(),
    createdAt: Timestamp,
  }),
);

export const MatchInput = Type.Object(
  {
    crop: Type.Optional(CropSchema),
    maxDistanceKm: Defaulted(
      RadiusKm(
        50,
        'Farthest consumer from the grower (default 50 km), rounded up to a multiple of 5 km (0.02 reads 5); distances are between 5 km grid cells',
      ),
    ),
  },
  { additionalProperties: false },
);

export const Match = Named(
  'Match',
  Type.Object({
    id: MatchId,
    supplyId: SupplyId,
    growerId: Type.String(),
    consumerId: Type.Union([Type.String(), Type.Null()], {
      description:
        'The household; shown to that consumer and an ADMIN only, null to the grower (the match id is the handle)',
    }),
    crop: Type.String(),
    quantityKg: Type.Number(),
    distanceKm: Type.Number({
      description:
        'Between the 5 km grid cells of grower and household, km; rounded up to a multiple of 5 km for anyone but the consumer and an ADMIN',
      examples: [10],
    }),
    price: Type.Integer(),
    currency: Type.String(),
    createdAt: Timestamp,
  }),
);

const paged = <T extends TSchema>(item: T) => Type.Object({ items: Type.Array(item), pagination: Pagination });

export const preferenceSave = defineSubject({
  subject: 'demand.preference.save',
  request: PreferenceInput,
  reply: Preference,
  summary: "Store the caller's preferences",
});
export const preferenceList = defineSubject({
  subject: 'demand.preference.list',
  request: Type.Object({
    scope: Defaulted(
      StringEnum(['mine', 'all'] as const, { default: 'mine', description: 'all: everyone (ADMIN only)' }),
    ),
    ...PageQuery.properties,
  }),
  reply: paged(Preference),
  summary: 'Preferences: the caller’s, or everyone’s for an ADMIN',
});
export const preferenceGet = defineSubject({
  subject: 'demand.preference.get',
  request: Type.Object({
    consumerId: Text({ minLength: 1, maxLength: 120, examples: ['usr_01HZX3K6Q2W8N4B7T5R9V0C1MD'] }),
  }),
  reply: Preference,
  summary: 'Preferences of one consumer',
});
export const signalGenerate = defineSubject({
  subject: 'demand.signal.generate',
  request: SignalInput,
  reply: Signal,
  summary: 'Aggregate preferences in a region into weekly demand per crop (settled households, noisy figures)',
});
export const recommendationsGet = defineSubject({
  subject: 'demand.recommendation.list',
  request: RecommendationQuery,
  reply: Type.Array(CropRecommendation),
  summary: 'Crops to plant, ranked',
});
export const forecastGet = defineSubject({
  subject: 'demand.forecast.get',
  request: ForecastQuery,
  reply: Forecast,
  summary: 'Weekly demand forecast of a crop in a region',
});
/** Most households and history rows one import carries. */
export const MAX_DEMAND_IMPORT = 1000;

export const DemandImportInput = Type.Object(
  {
    households: Type.Optional(
      Type.Array(
        Type.Object(
          {
            consumerId: Text({ minLength: 1, maxLength: 120, description: 'An account with stored preferences' }),
            settledSince: Type.String({
              format: 'date-time',
              maxLength: 40,
              description:
                'Since when the household has lived where its preferences place it, with those items (from the ' +
                'system it comes from); in the past. It counts in aggregates 14 days after (ADR 174)',
              examples: ['2026-09-01T00:00:00Z'],
            }),
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_DEMAND_IMPORT },
      ),
    ),
    history: Type.Optional(
      Type.Array(
        Type.Object(
          {
            crop: CropSchema,
            region: ForecastQuery.properties.region,
            weekStart: Type.String({
              pattern: DATE_ONLY_PATTERN,
              description: 'Monday of a past publication week (UTC), YYYY-MM-DD',
              examples: ['2026-10-05'],
            }),
            demandKg: Type.Number({ minimum: 0, maximum: 10_000_000 }),
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_DEMAND_IMPORT },
      ),
    ),
  },
  { additionalProperties: false },
);
export type DemandImportInput = Static<typeof DemandImportInput>;

export const DemandImportResult = Type.Object({
  households: Type.Integer({ minimum: 0, description: 'Households whose settled date was set' }),
  missing: Type.Array(Type.String(), { description: 'Accounts named that have no stored preferences: left out' }),
  weeks: Type.Integer({ minimum: 0, description: 'Weeks of history stored (a week already recorded is kept)' }),
});

export const demandImport = defineSubject({
  subject: 'demand.history.import',
  request: DemandImportInput,
  reply: DemandImportResult,
  summary: 'Import households’ settled dates and past weekly demand from another system (ADMIN)',
});
export const supplyCommit = defineSubject({
  subject: 'demand.supply.commit',
  request: SupplyInput,
  reply: Supply,
  summary: 'Register a supply commitment',
});
export const supplyList = defineSubject({
  subject: 'demand.supply.list',
  request: Type.Object({
    scope: Defaulted(
      StringEnum(['mine', 'all'] as const, { default: 'mine', description: 'all: every grower’s (ADMIN only)' }),
    ),
    ...PageQuery.properties,
  }),
  reply: paged(Supply),
  summary: 'Supply commitments: the caller’s, or every grower’s for an ADMIN, newest first',
});
export const supplyMatchList = defineSubject({
  subject: 'demand.supply.list-matches',
  request: Type.Object({ supplyId: SupplyId, ...PageQuery.properties }),
  reply: paged(Match),
  summary: 'The matches of one supply commitment, nearest household first',
});
export const matchCreate = defineSubject({
  subject: 'demand.match.create',
  request: MatchInput,
  reply: Type.Object({ matches: Type.Array(Match), created: Type.Integer({ minimum: 0 }) }),
  summary: 'Match the caller’s open supply to nearby demand (at most 10 runs per crop a day)',
});

export const demandSignalGenerated = defineEvent({
  subject: 'evt.demand.signal.generated',
  kind: 'demand.signal',
  payload: Type.Object({
    signalId: Type.String(),
    regionKey: Type.Union([Type.String(), Type.Null()]),
    crops: Type.Array(Type.Object({ crop: Type.String(), demandKg: Type.Number(), gapKg: Type.Number() })),
  }),
});
export const supplyCommitted = defineEvent({
  subject: 'evt.demand.supply.committed',
  kind: 'supply.committed',
  payload: Type.Object({
    supplyId: Type.String(),
    growerId: Type.String(),
    crop: Type.String(),
    quantityKg: Type.Number(),
  }),
});
/**
 * A grower probed the demand near its supply (docs/privacy.md): a run of matching, or a supply commitment refused
 * for the day's limit. Without a kind it is internal: recorded in the audit log only, where an ADMIN sees probing.
 */
export const demandProbeRecorded = defineEvent({
  subject: 'evt.demand.probe.recorded',
  payload: Type.Object({
    growerId: Type.String(),
    what: StringEnum(['match', 'supply'] as const),
    crop: Type.Union([Type.String(), Type.Null()], { description: 'null: a run of matching over every crop' }),
    requestedKm: Type.Union([Type.Number(), Type.Null()], { description: 'maxDistanceKm asked for (matching)' }),
    appliedKm: Type.Union([Type.Number(), Type.Null()], { description: 'The radius applied, at the precision' }),
    refused: Type.Boolean({ description: 'Refused for the limit of the day (429 RATE_LIMITED)' }),
    today: Type.Integer({
      minimum: 0,
      description: 'Probes of this kind and crop by the grower in 24 hours, this one included',
    }),
    limit: Type.Integer({ minimum: 1 }),
  }),
});
/**
 * An ADMIN imported households' settled dates and past weekly demand (ADR 207). It lets households count before the
 * 14 days of ADR 174, so every import is recorded: internal, in the audit log only, where it can be questioned.
 */
export const demandHistoryImported = defineEvent({
  subject: 'evt.demand.history.imported',
  payload: Type.Object({
    adminId: Type.String(),
    households: Type.Array(Type.String(), { description: 'The households whose settled date was set' }),
    weeks: Type.Integer({ minimum: 0, description: 'Past weeks of demand stored (weeks already recorded are kept)' }),
  }),
});
export const demandMatched = defineEvent({
  subject: 'evt.demand.match.created',
  kind: 'demand.match',
  payload: Type.Object({
    matchId: Type.String(),
    supplyId: Type.String(),
    growerId: Type.String(),
    consumerId: Type.String(),
    crop: Type.String(),
    quantityKg: Type.Number(),
    distanceKm: Type.Number(),
  }),
  // The household is not public (ADR 102): the public form names neither the consumer nor the distance.
  publicFields: ['matchId', 'supplyId', 'growerId', 'crop', 'quantityKg'],
});
