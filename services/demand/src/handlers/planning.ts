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
import {
  backtest,
  backtestNaive,
  fitHolt,
  forecastAhead,
  methodFor,
  naiveAhead,
  weeklySeries,
} from '../domain/forecast.js';
import { MIN_HOUSEHOLDS, publicationWeek, tooFewHouseholds } from '../domain/privacy.js';
import { keyedNoiseSource, publishDemand, signalCrops } from '../domain/published-demand.js';
import { recommendCrops } from '../domain/recommend.js';
import { dateField, inRegion, nearby, regionKey } from './regions.js';

/** Days after the start date within which supplies are read for recommendations (longest crop + harvest weeks). */
const RECOMMENDATION_SPAN_DAYS = 300;

/**
 * Aggregates the preferences of a region into weekly demand per crop, net of committed supply, stores the signal,
 * records its first week as demand history (regions by name: the forecast's series) and emits `demand.signal`.
 * Its figures are published ones (domain/published-demand.ts): households counted only once settled in their cell,
 * a point region made of whole grid cells, each cell's figures noisy and fixed for the publication week. A region
 * of fewer than MIN_HOUSEHOLDS (noisy) households is refused, and crops fewer of them ask for are left out.
 */
export const generateSignal = (ctx: ServiceContext, noiseKey: string) =>
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
    const { areas, supplies } = await inRegion(ctx.db, input.region, isoDate(first), isoDate(last), now);
    const published = publishDemand(areas, weeks, keyedNoiseSource(noiseKey, publicationWeek(now)));
    if (published.households < MIN_HOUSEHOLDS) throw tooFewHouseholds();
    const shown = signalCrops(published, supplies, weeks);
    const key = 'country' in input.region ? regionKey(input.region.country, input.region.city) : null;
    const signal: Signal = {
      id,
      region: input.region,
      regionKey: key,
      from: isoDate(first),
      horizonWeeks: input.horizonWeeks,
      consumers: published.households,
      crops: shown.crops,
      suppressedCrops: shown.suppressed,
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

/**
 * Crops ranked for a grower's plot from the published demand around it (the same noisy, cell-made figures a signal
 * shows) and the committed supply there.
 */
export const recommendCropsHandler = (ctx: ServiceContext, noiseKey: string) =>
  handle(recommendationsGet, async (input) => {
    const now = ctx.clock.now();
    // Without a start date: today, by the service's clock (UTC).
    const startDate =
      input.startDate === undefined
        ? dateField(isoDate(now), 'querystring/startDate')
        : dateField(input.startDate, 'querystring/startDate');
    const center = { latitude: input.lat, longitude: input.lon };
    const end = addDays(startDate, RECOMMENDATION_SPAN_DAYS);
    const { households, supplies, areas } = await nearby(
      ctx.db,
      center,
      input.radius,
      isoDate(startDate),
      isoDate(end),
      now,
    );
    const weeks = weekStarts(startDate, Math.ceil(RECOMMENDATION_SPAN_DAYS / 7) + 2);
    const published = publishDemand(areas, weeks, keyedNoiseSource(noiseKey, publicationWeek(now)));
    return recommendCrops(
      { ...center, areaM2: input.areaM2, method: input.method, startDate },
      households,
      supplies,
      published,
      weeks,
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
