import {
  type Crop,
  demandSignalGenerated,
  forecastGet,
  recommendationsGet,
  type Signal,
  signalGenerate,
} from '@rootline/contracts';
import { actingUser } from '@rootline/domain';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import { findSignal, historyOf, insertSignal, recordHistory } from '../db/signals.repo.js';
import { addDays, isoDate, weekStarts } from '../domain/calendar.js';
import { aggregateDemand } from '../domain/demand.js';
import {
  backtest,
  backtestNaive,
  fitHolt,
  forecastAhead,
  methodFor,
  naiveAhead,
  weeklySeries,
} from '../domain/forecast.js';
import { assertEnoughHouseholds, withoutSmallGroups } from '../domain/privacy.js';
import { recommendCrops } from '../domain/recommend.js';
import { dateField, inRegion, nearby, regionKey } from './regions.js';

/** Days after the start date within which supplies are read for recommendations (longest crop + harvest weeks). */
const RECOMMENDATION_SPAN_DAYS = 300;

/**
 * Aggregates the preferences of a region into weekly demand per crop, net of committed supply, stores the signal,
 * records its first week as demand history (regions by name: the forecast's series) and emits `demand.signal`.
 * A region of fewer than MIN_HOUSEHOLDS households is refused, and crops fewer of them ask for are left out
 * (domain/privacy.ts), so neither the signal nor the history it records describes a household on its own.
 */
export const generateSignal = (ctx: ServiceContext) =>
  handle(signalGenerate, async (input, caller) => {
    const actor = actingUser(caller);
    const now = ctx.clock.now();
    const id = ctx.newId('sig', caller);
    const done = caller.idempotencyRef ? await findSignal(ctx.db, id) : undefined;
    if (done) return done;
    const start = input.from === undefined ? now : dateField(input.from, 'body/from');
    const weeks = weekStarts(start, input.horizonWeeks);
    const first = weeks[0] as Date;
    const last = addDays(weeks.at(-1) as Date, 6);
    const { households, supplies } = await inRegion(ctx.db, input.region, isoDate(first), isoDate(last));
    assertEnoughHouseholds(households);
    const shown = withoutSmallGroups(households);
    const key = 'country' in input.region ? regionKey(input.region.country, input.region.city) : null;
    const signal: Signal = {
      id,
      region: input.region,
      regionKey: key,
      from: isoDate(first),
      horizonWeeks: input.horizonWeeks,
      consumers: households.length,
      crops: aggregateDemand(shown.households, supplies, weeks),
      suppressedCrops: shown.suppressed.length,
      createdAt: now.toISOString(),
    };
    await ctx.db.transaction(async (tx) => {
      await insertSignal(tx, signal, actor.id);
      if (key !== null) {
        await recordHistory(
          tx,
          signal.crops.map((c) => ({
            crop: c.crop,
            regionKey: key,
            weekStart: signal.from,
            demandKg: c.weeks[0]?.demandKg ?? 0,
            signalId: id,
          })),
        );
      }
      await ctx.outbox.enqueue(
        tx,
        demandSignalGenerated,
        {
          signalId: id,
          regionKey: key,
          crops: signal.crops.map((c) => ({ crop: c.crop, demandKg: c.demandKg, gapKg: c.gapKg })),
        },
        caller,
      );
    });
    return signal;
  });

export const recommendCropsHandler = (ctx: ServiceContext) =>
  handle(recommendationsGet, async (input) => {
    // Without a start date: today, by the service's clock (UTC).
    const startDate =
      input.startDate === undefined
        ? dateField(isoDate(ctx.clock.now()), 'querystring/startDate')
        : dateField(input.startDate, 'querystring/startDate');
    const center = { latitude: input.lat, longitude: input.lon };
    const { households, supplies } = await nearby(
      ctx.db,
      center,
      input.radius,
      isoDate(startDate),
      isoDate(addDays(startDate, RECOMMENDATION_SPAN_DAYS)),
    );
    const shown = withoutSmallGroups(households);
    return recommendCrops(
      { ...center, areaM2: input.areaM2, method: input.method, startDate },
      shown.households,
      supplies,
      new Set(shown.suppressed),
    )
      .slice(0, input.limit)
      .map((advice, i) => ({ ...advice, rank: i + 1 }));
  });

/**
 * A crop's weekly demand in a region forecast from whatever history it has: Holt's method from HOLT_MIN_WEEKS weeks,
 * the naive forecast below, each with its intervals and back-test. NOT_FOUND only when the region's history never
 * recorded the crop.
 */
export const forecastHandler = (ctx: ServiceContext) =>
  handle(forecastGet, async (input) => {
    const [country, city] = input.region.split('/') as [string, string | undefined];
    const key = regionKey(country, city);
    const series = weeklySeries(await historyOf(ctx.db, input.crop, key));
    if (series.length === 0) {
      throw notFound(`Demand history of ${input.crop} in region`, key);
    }
    const y = series.map((p) => p.demandKg);
    const method = methodFor(series.length);
    const fit = method === 'holt' ? fitHolt(y) : null;
    const ahead = fit ? forecastAhead(fit, input.weeks) : naiveAhead(y, input.weeks);
    const next = addDays(new Date(`${(series.at(-1) as { weekStart: string }).weekStart}T00:00:00Z`), 7);
    return {
      crop: input.crop as Crop,
      region: key,
      method,
      basedOnWeeks: series.length,
      parameters: fit && { alpha: fit.alpha, beta: fit.beta },
      history: series,
      forecast: ahead.map((p, i) => ({ weekStart: isoDate(addDays(next, 7 * i)), ...p })),
      backtest: fit ? backtest(y) : backtestNaive(y),
    };
  });
