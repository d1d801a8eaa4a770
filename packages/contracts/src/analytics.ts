import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { UserId } from './auth.js';
import { PrefixedId } from './common.js';
import { Defaulted, defineSubject } from './define.js';
import { StringEnum } from './plants.js';

/** Longest period one analytics request may cover, in days (both ends included). */
export const ANALYTICS_MAX_DAYS = 366;
/** Days covered when `from` is absent: `to` and the 29 days before it. */
export const ANALYTICS_DEFAULT_DAYS = 30;
/**
 * Dimension values a split answer lists one by one (the largest by count over the range); the rest are summed
 * under the key ANALYTICS_OTHER_KEY, so an answer stays small (a year by day is at most 366 × 13 rows).
 */
export const ANALYTICS_MAX_KEYS = 12;
export const ANALYTICS_OTHER_KEY = '(other)';
/** Users listed in the sustainability answer's `topUsers` (ADMIN only). */
export const ANALYTICS_TOP_USERS = 20;

export const ANALYTICS_GROUPINGS = ['day', 'week', 'month'] as const;
export type AnalyticsGrouping = (typeof ANALYTICS_GROUPINGS)[number];
export const ANALYTICS_PLANT_DIMENSIONS = ['none', 'species', 'privacyLevel'] as const;
export const ANALYTICS_TRANSPORT_DIMENSIONS = ['none', 'kind', 'mode'] as const;
export const ANALYTICS_FARM_DIMENSIONS = ['none', 'crop'] as const;
export const ANALYTICS_DATASETS = ['plants', 'transport', 'farms', 'sustainability'] as const;
export type AnalyticsDataset = (typeof ANALYTICS_DATASETS)[number];
export const ANALYTICS_EXPORT_FORMATS = ['csv', 'json'] as const;

/** A calendar day in UTC, `YYYY-MM-DD`. */
const Day = (description: string) =>
  Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description, examples: ['2026-11-01'] });

/** The period and grouping every analytics request takes. */
export const AnalyticsRangeQuery = Type.Object({
  from: Type.Optional(
    Day(
      'First day (UTC, included); default: `to` − 29 days, so 30 days. Must not be after `to` (else 400 VALIDATION_ERROR)',
    ),
  ),
  to: Type.Optional(Day(`Last day (UTC, included); default: today. At most ${ANALYTICS_MAX_DAYS} days from \`from\``)),
  groupBy: Defaulted(
    StringEnum(ANALYTICS_GROUPINGS, {
      default: 'day',
      description: 'Length of a period: day, week (from Monday) or month; periods are named by their first day',
    }),
  ),
});

const Period = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  description: 'First day of the period (a Monday for weeks, the 1st for months); edges may be partial',
});
const Key = Type.Union([Type.String(), Type.Null()], {
  description:
    'Value of the dimension `by` names (species, kind, mode, crop); null when `by` is none or the value is unknown; ' +
    '`(other)` sums the values beyond the 12 largest over the range',
});
const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Amount = (description: string) => Type.Number({ description });

const RangeEcho = {
  from: Day('First day covered'),
  to: Day('Last day covered'),
  groupBy: StringEnum(ANALYTICS_GROUPINGS),
};

/** A dataset's answer: the range, totals over it, and one row per period (and dimension value). */
function Report<T extends TSchema, R extends TSchema>(by: readonly string[], totals: T, row: R, example: unknown) {
  return Type.Object(
    {
      ...RangeEcho,
      by: StringEnum(by, { description: 'The dimension the rows are split by' }),
      totals,
      series: Type.Array(row, { description: 'Periods with activity, oldest first; empty periods are absent' }),
    },
    { examples: [example] },
  );
}

export const AnalyticsPlantRow = Type.Object({
  period: Period,
  key: Key,
  registered: Count('Plants registered (originals and offspring)'),
});
export const AnalyticsPlantTotals = Type.Object({
  registered: Count('Plants registered in the range'),
  propagated: Count('Of which offspring (clone, seed, cutting…) of a plant on the network'),
});
export const AnalyticsPlants = Report(ANALYTICS_PLANT_DIMENSIONS, AnalyticsPlantTotals, AnalyticsPlantRow, {
  from: '2026-11-01',
  to: '2026-11-30',
  groupBy: 'week',
  by: 'species',
  totals: { registered: 42, propagated: 9 },
  series: [
    { period: '2026-10-27', key: 'Solanum lycopersicum', registered: 12 },
    { period: '2026-10-27', key: 'Ocimum basilicum', registered: 5 },
    { period: '2026-11-03', key: 'Solanum lycopersicum', registered: 25 },
  ],
});
export type AnalyticsPlants = Static<typeof AnalyticsPlants>;

const TransportFigures = {
  events: Count('Journey events in force (a corrected event is replaced by its correction)'),
  distanceKm: Amount('Kilometres travelled'),
  kgCo2e: Amount('kg CO2e emitted (emission factors: docs/transport.md)'),
};
export const AnalyticsTransportRow = Type.Object({ period: Period, key: Key, ...TransportFigures });
export const AnalyticsTransportTotals = Type.Object(TransportFigures);
export const AnalyticsTransport = Report(
  ANALYTICS_TRANSPORT_DIMENSIONS,
  AnalyticsTransportTotals,
  AnalyticsTransportRow,
  {
    from: '2026-11-01',
    to: '2026-11-03',
    groupBy: 'day',
    by: 'mode',
    totals: { events: 6, distanceKm: 118.4, kgCo2e: 1.21 },
    series: [
      { period: '2026-11-01', key: 'bicycle', events: 2, distanceKm: 12.5, kgCo2e: 0 },
      { period: '2026-11-02', key: 'diesel-van', events: 1, distanceKm: 4.6, kgCo2e: 1.15 },
      { period: '2026-11-03', key: 'hgv-refrigerated', events: 3, distanceKm: 101.3, kgCo2e: 0.06 },
    ],
  },
);
export type AnalyticsTransport = Static<typeof AnalyticsTransport>;

const FarmFigures = {
  batchesStarted: Count('Crop batches started'),
  harvests: Count('Batches harvested'),
  yieldKg: Amount('kg harvested'),
  batchesFailed: Count('Batches closed as failed (their event names no crop: key null when by=crop)'),
};
export const AnalyticsFarmRow = Type.Object({ period: Period, key: Key, ...FarmFigures });
export const AnalyticsFarmTotals = Type.Object(FarmFigures);
export const AnalyticsFarms = Report(ANALYTICS_FARM_DIMENSIONS, AnalyticsFarmTotals, AnalyticsFarmRow, {
  from: '2026-09-01',
  to: '2026-11-30',
  groupBy: 'month',
  by: 'crop',
  totals: { batchesStarted: 14, harvests: 9, yieldKg: 312.5, batchesFailed: 1 },
  series: [
    { period: '2026-09-01', key: 'lettuce', batchesStarted: 6, harvests: 0, yieldKg: 0, batchesFailed: 0 },
    { period: '2026-10-01', key: 'lettuce', batchesStarted: 8, harvests: 6, yieldKg: 201.5, batchesFailed: 0 },
    { period: '2026-10-01', key: null, batchesStarted: 0, harvests: 0, yieldKg: 0, batchesFailed: 1 },
    { period: '2026-11-01', key: 'basil', batchesStarted: 0, harvests: 3, yieldKg: 111, batchesFailed: 0 },
  ],
});
export type AnalyticsFarms = Static<typeof AnalyticsFarms>;

const SustainabilityFigures = {
  ...TransportFigures,
  seedSavingEvents: Count('seed-saving events: seed kept for the next season'),
  seedSharingEvents: Count('seed-sharing events: seed passed on to another grower'),
};
export const AnalyticsSustainabilityFigures = Type.Object(SustainabilityFigures);
export const AnalyticsSustainabilityRow = Type.Object({ period: Period, ...SustainabilityFigures });
export const AnalyticsModeRow = Type.Object({ mode: Type.String(), ...TransportFigures });
const SustainabilityScope = Type.Object({
  totals: AnalyticsSustainabilityFigures,
  byMode: Type.Array(AnalyticsModeRow, { description: 'Per transport mode, most kg CO2e first' }),
  series: Type.Array(AnalyticsSustainabilityRow, { description: 'Per period with activity, oldest first' }),
});
export const AnalyticsSustainability = Type.Object(
  {
    ...RangeEcho,
    network: SustainabilityScope,
    user: Type.Union([Type.Object({ userId: UserId, ...SustainabilityScope.properties }), Type.Null()], {
      description: 'The same for the events `userId` handled; null without `userId`',
    }),
    topUsers: Type.Union(
      [
        Type.Array(Type.Object({ userId: Type.String(), ...TransportFigures }), {
          description: `The ${ANALYTICS_TOP_USERS} users with most kg CO2e in the range`,
        }),
        Type.Null(),
      ],
      { description: 'ADMIN only; null for everyone else' },
    ),
  },
  {
    examples: [
      {
        from: '2026-11-01',
        to: '2026-11-30',
        groupBy: 'month',
        network: {
          totals: { events: 40, distanceKm: 612.3, kgCo2e: 8.4, seedSavingEvents: 6, seedSharingEvents: 4 },
          byMode: [
            { mode: 'diesel-van', events: 9, distanceKm: 33.1, kgCo2e: 8.28 },
            { mode: 'bicycle', events: 20, distanceKm: 80.2, kgCo2e: 0 },
          ],
          series: [
            {
              period: '2026-11-01',
              events: 40,
              distanceKm: 612.3,
              kgCo2e: 8.4,
              seedSavingEvents: 6,
              seedSharingEvents: 4,
            },
          ],
        },
        user: null,
        topUsers: null,
      },
    ],
  },
);
export type AnalyticsSustainability = Static<typeof AnalyticsSustainability>;

export const AnalyticsOverviewTotals = Type.Object({
  plantsRegistered: Count('Plants registered'),
  plantsPropagated: Count('Of which offspring'),
  transportEvents: Count('Journey events in force'),
  distanceKm: Amount('Kilometres travelled'),
  kgCo2e: Amount('kg CO2e of the journeys'),
  seedSavingEvents: Count('seed-saving events'),
  seedSharingEvents: Count('seed-sharing events'),
  batchesStarted: Count('Farm crop batches started'),
  harvests: Count('Farm batches harvested'),
  yieldKg: Amount('kg harvested on farms'),
  batchesFailed: Count('Farm batches failed'),
});
// One month of the network, the example of the overview (a single period, so its row equals the totals).
const OVERVIEW_MONTH = {
  plantsRegistered: 42,
  plantsPropagated: 9,
  transportEvents: 40,
  distanceKm: 612.3,
  kgCo2e: 8.4,
  seedSavingEvents: 6,
  seedSharingEvents: 4,
  batchesStarted: 14,
  harvests: 9,
  yieldKg: 312.5,
  batchesFailed: 1,
};
export const AnalyticsOverviewRow = Type.Object({ period: Period, ...AnalyticsOverviewTotals.properties });
export const AnalyticsOverview = Type.Object(
  {
    ...RangeEcho,
    totals: AnalyticsOverviewTotals,
    series: Type.Array(AnalyticsOverviewRow, { description: 'Per period with activity, oldest first' }),
  },
  {
    examples: [
      {
        from: '2026-11-01',
        to: '2026-11-30',
        groupBy: 'month',
        totals: OVERVIEW_MONTH,
        series: [{ period: '2026-11-01', ...OVERVIEW_MONTH }],
      },
    ],
  },
);
export type AnalyticsOverview = Static<typeof AnalyticsOverview>;

export const analyticsOverviewGet = defineSubject({
  subject: 'analytics.overview.get',
  request: AnalyticsRangeQuery,
  reply: AnalyticsOverview,
  summary: 'Network-wide totals of plants, journeys, sustainability and farms over a period, per period',
});

export const analyticsPlantsGet = defineSubject({
  subject: 'analytics.plants.get',
  request: Type.Object({
    ...AnalyticsRangeQuery.properties,
    by: Defaulted(
      StringEnum(ANALYTICS_PLANT_DIMENSIONS, {
        default: 'none',
        description: 'Split rows by species (scientific name, else common name) or by location privacy level',
      }),
    ),
  }),
  reply: AnalyticsPlants,
  summary: 'Plants registered per period, by species or privacy level',
});

export const analyticsTransportGet = defineSubject({
  subject: 'analytics.transport.get',
  request: Type.Object({
    ...AnalyticsRangeQuery.properties,
    by: Defaulted(
      StringEnum(ANALYTICS_TRANSPORT_DIMENSIONS, {
        default: 'none',
        description: 'Split rows by event kind or transport mode',
      }),
    ),
  }),
  reply: AnalyticsTransport,
  summary: 'Journey events, distance and kg CO2e per period, by kind or mode',
});

export const analyticsFarmsGet = defineSubject({
  subject: 'analytics.farms.get',
  request: Type.Object({
    ...AnalyticsRangeQuery.properties,
    by: Defaulted(StringEnum(ANALYTICS_FARM_DIMENSIONS, { default: 'none', description: 'Split rows by crop' })),
  }),
  reply: AnalyticsFarms,
  summary: 'Crop batches started, harvested and failed, and yield, per period, by crop',
});

export const analyticsSustainabilityGet = defineSubject({
  subject: 'analytics.sustainability.get',
  request: Type.Object({
    ...AnalyticsRangeQuery.properties,
    userId: Type.Optional(PrefixedId('usr', 'Also the figures of this user (only the user or an ADMIN)')),
  }),
  reply: AnalyticsSustainability,
  summary: 'kg CO2e by transport mode and seed saving, network-wide and for one user',
});

export const AnalyticsExport = Type.Object(
  {
    filename: Type.String({ description: 'Suggested file name' }),
    contentType: Type.String({ description: '`text/csv; charset=utf-8` or `application/json; charset=utf-8`' }),
    rows: Type.Integer({ minimum: 0, description: 'Data rows in the body' }),
    body: Type.String({ description: 'The file: CSV with a header line, or a JSON array of the rows' }),
  },
  {
    examples: [
      {
        filename: 'rootline-transport-2026-11-01-2026-11-30.csv',
        contentType: 'text/csv; charset=utf-8',
        rows: 1,
        body: 'period,key,events,distanceKm,kgCo2e\n2026-11-01,,40,612.3,8.4\n',
      },
    ],
  },
);
export type AnalyticsExport = Static<typeof AnalyticsExport>;

export const analyticsExportGet = defineSubject({
  subject: 'analytics.export.get',
  request: Type.Object({
    dataset: StringEnum(ANALYTICS_DATASETS, {
      description: 'plants, transport, farms or sustainability (network-wide, by mode)',
      examples: ['plants'],
    }),
    format: Defaulted(StringEnum(ANALYTICS_EXPORT_FORMATS, { default: 'csv', description: 'csv (default) or json' })),
    ...AnalyticsRangeQuery.properties,
    by: Type.Optional(
      StringEnum(['none', 'species', 'privacyLevel', 'kind', 'mode', 'crop'] as const, {
        description: 'A dimension of the dataset (as its own endpoint takes); `mode` for sustainability',
      }),
    ),
  }),
  reply: AnalyticsExport,
  summary: 'A dataset as a CSV or JSON file',
});
