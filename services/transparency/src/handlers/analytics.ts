import {
  ANALYTICS_MAX_KEYS,
  ANALYTICS_TOP_USERS,
  type AnalyticsDataset,
  AppError,
  analyticsExportGet,
  analyticsFarmsGet,
  analyticsOverviewGet,
  analyticsPlantsGet,
  analyticsSustainabilityGet,
  analyticsTransportGet,
  type CallContext,
  isOwnerOrAdmin,
} from '@rootline/contracts';
import { actingUser } from '@rootline/domain';
import { handle, type ServiceContext } from '@rootline/host';
import { type Dimension, readRollups, readTopEmitters } from '../db/analytics.repo.js';
import { exportFile } from '../domain/analytics-export.js';
import {
  type AnalyticsRange,
  farmsReport,
  overviewReport,
  plantsReport,
  resolveRange,
  sustainabilityScope,
  transportReport,
} from '../domain/analytics-report.js';

const PLANT_KEYS = { none: [], species: ['d1'], privacyLevel: ['d2'] } as const;
const TRANSPORT_KEYS = { none: [], kind: ['d1'], mode: ['d2'] } as const;
const FARM_KEYS = { none: [], crop: ['d1'] } as const;
/** The dimensions each dataset can be split by (as its own endpoint takes). */
const EXPORT_DIMENSIONS: Record<AnalyticsDataset, readonly string[]> = {
  plants: Object.keys(PLANT_KEYS),
  transport: Object.keys(TRANSPORT_KEYS),
  farms: Object.keys(FARM_KEYS),
  sustainability: ['none', 'mode'],
};

/** What a report reads with: the database `ctx.reads` chose (a replica when one serves) and the clock. */
type Ctx = Pick<ServiceContext, 'db' | 'clock'>;

/** Runs a report's reads where `ctx.reads` sends them: a read replica when one serves, else the primary. */
const onReads = <T>(ctx: ServiceContext, caller: CallContext, report: (r: Ctx) => Promise<T>): Promise<T> =>
  ctx.reads.run(caller, (db) => report({ db, clock: ctx.clock }));

const plants = async (ctx: Ctx, range: AnalyticsRange, by: keyof typeof PLANT_KEYS) => {
  const [registered, propagated] = await Promise.all([
    readRollups(ctx.db, { ...range, series: ['plants'], keys: PLANT_KEYS[by], limitKeys: ANALYTICS_MAX_KEYS }),
    readRollups(ctx.db, { ...range, series: ['propagations'] }),
  ]);
  return plantsReport(range, by, [...registered, ...propagated]);
};

const transport = (ctx: Ctx, range: AnalyticsRange, by: keyof typeof TRANSPORT_KEYS) =>
  readRollups(ctx.db, {
    ...range,
    series: ['transport'],
    keys: TRANSPORT_KEYS[by],
    limitKeys: ANALYTICS_MAX_KEYS,
  }).then((rows) => transportReport(range, by, rows));

const farms = (ctx: Ctx, range: AnalyticsRange, by: keyof typeof FARM_KEYS) =>
  readRollups(ctx.db, {
    ...range,
    series: ['farm-batches', 'farm-harvests', 'farm-failures'],
    keys: FARM_KEYS[by],
    limitKeys: ANALYTICS_MAX_KEYS,
  }).then((rows) => farmsReport(range, by, rows));

/** Journey rows keyed [kind, mode]: network-wide, or of the events one user handled. */
const journeys = (ctx: Ctx, range: AnalyticsRange, userId?: string) =>
  userId === undefined
    ? readRollups(ctx.db, { ...range, series: ['transport'], keys: ['d1', 'd2'] })
    : readRollups(ctx.db, { ...range, series: ['transport-user'], keys: ['d2', 'd3'] as Dimension[], d1: userId });

const scope = (s: ReturnType<typeof sustainabilityScope>) => ({ totals: s.totals, byMode: s.byMode, series: s.series });

/** analytics.overview.get: network totals of every dataset over the range, per period. */
export const getOverview = (ctx: ServiceContext) =>
  handle(analyticsOverviewGet, async (input, caller) =>
    onReads(ctx, caller, async (r) => {
      const range = resolveRange(input, r.clock.now());
      const [rows, trips] = await Promise.all([
        readRollups(r.db, {
          ...range,
          series: ['plants', 'propagations', 'farm-batches', 'farm-harvests', 'farm-failures'],
        }),
        journeys(r, range),
      ]);
      return overviewReport(range, rows, trips);
    }),
  );

/** analytics.plants.get */
export const getPlantAnalytics = (ctx: ServiceContext) =>
  handle(analyticsPlantsGet, async (input, caller) =>
    onReads(ctx, caller, (r) => plants(r, resolveRange(input, r.clock.now()), input.by)),
  );

/** analytics.transport.get */
export const getTransportAnalytics = (ctx: ServiceContext) =>
  handle(analyticsTransportGet, async (input, caller) =>
    onReads(ctx, caller, (r) => transport(r, resolveRange(input, r.clock.now()), input.by)),
  );

/** analytics.farms.get */
export const getFarmAnalytics = (ctx: ServiceContext) =>
  handle(analyticsFarmsGet, async (input, caller) =>
    onReads(ctx, caller, (r) => farms(r, resolveRange(input, r.clock.now()), input.by)),
  );

/**
 * analytics.sustainability.get: network figures for anyone with the permission; a user's own figures only for
 * that user or an ADMIN; the users with most kg CO2e only for an ADMIN.
 */
export const getSustainability = (ctx: ServiceContext) =>
  handle(analyticsSustainabilityGet, async (input, caller: CallContext) => {
    const range = resolveRange(input, ctx.clock.now());
    if (input.userId !== undefined && !isOwnerOrAdmin(actingUser(caller), input.userId)) {
      throw new AppError('FORBIDDEN', "Only the user or an administrator may read a user's figures", {
        field: 'userId',
        reason: 'not-self',
      });
    }
    const admin = caller.actor?.role === 'ADMIN';
    const [network, own, top] = await onReads(ctx, caller, (r) =>
      Promise.all([
        journeys(r, range),
        input.userId === undefined ? undefined : journeys(r, range, input.userId),
        admin ? readTopEmitters(r.db, range.from, range.to, ANALYTICS_TOP_USERS) : undefined,
      ]),
    );
    return {
      ...range,
      network: scope(sustainabilityScope(network)),
      user: own && input.userId ? { userId: input.userId, ...scope(sustainabilityScope(own)) } : null,
      topUsers: top ?? null,
    };
  });

/** analytics.export.get: a dataset's rows as CSV or JSON (network-wide figures only). */
export const exportAnalytics = (ctx: ServiceContext) =>
  handle(analyticsExportGet, async (input, caller) => {
    const range = resolveRange(input, ctx.clock.now());
    const by = input.by ?? 'none';
    if (!EXPORT_DIMENSIONS[input.dataset].includes(by)) {
      throw new AppError(
        'VALIDATION_ERROR',
        `by: ${input.dataset} is split by ${EXPORT_DIMENSIONS[input.dataset].join(', ')}`,
        { field: 'by' },
      );
    }
    const rows = await onReads(ctx, caller, (r) => datasetRows(r, input.dataset, range, by));
    return exportFile(input.dataset, input.format, range, by, rows);
  });

async function datasetRows(
  ctx: Ctx,
  dataset: AnalyticsDataset,
  range: AnalyticsRange,
  by: string,
): Promise<readonly object[]> {
  switch (dataset) {
    case 'plants':
      return (await plants(ctx, range, by as keyof typeof PLANT_KEYS)).series;
    case 'transport':
      return (await transport(ctx, range, by as keyof typeof TRANSPORT_KEYS)).series;
    case 'farms':
      return (await farms(ctx, range, by as keyof typeof FARM_KEYS)).series;
    case 'sustainability': {
      const s = sustainabilityScope(await journeys(ctx, range));
      return by === 'mode' ? s.seriesByMode : s.series;
    }
  }
}
