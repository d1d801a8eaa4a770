import { CROPS, type Crop, type CropReason, type GrowingMethod } from '@rootline/contracts/demand';
import { addDays, climateMonth, isoDate, weekStarts } from './calendar.js';
import { CROP_TABLE, kgPerUnit, sowingMonths } from './crops.js';
import { type Household, type SupplyWindow, supplyInWeek, weeklyKg } from './demand.js';
import { MIN_HOUSEHOLDS } from './privacy.js';
import type { PublishedDemand } from './published-demand.js';

/** Weeks of harvest counted after the first harvest date: the span a cycle's yield is sold over. */
export const HARVEST_WEEKS = 4;
/** Currency of the crop table's reference prices; prices stated in another currency are not mixed in. */
export const TABLE_CURRENCY = 'EUR';

export interface Grower {
  latitude: number;
  longitude: number;
  areaM2: number;
  method: GrowingMethod;
  startDate: Date;
}

export interface CropAdvice {
  crop: Crop;
  score: number;
  suitable: boolean;
  harvestDate: string;
  daysToHarvest: number;
  expectedYieldKg: number;
  unmetDemandKg: number;
  expectedRevenue: { amount: number; currency: string };
  reasons: string[];
  /** The reasons as codes with their values, in the order of `reasons`. */
  reasonCodes: CropReason[];
}

/** The English sentence of a reason (`reasons` of the answer); the web app words the code itself (ADR 255). */
export function reasonText(r: CropReason): string {
  switch (r.code) {
    case 'not-grown':
      return `${r.params.crop} is not grown ${r.params.method === 'vertical' ? 'in vertical farms' : `by ${r.params.method}`}`;
    case 'not-sowable':
      return `month ${r.params.month} is outside its ${r.params.method} sowing months`;
    case 'sowable':
      return `sowable in month ${r.params.month} (${r.params.method})`;
    case 'first-harvest':
      return `first harvest ${r.params.date} after ${r.params.days} days`;
    case 'unmet-demand':
      return `${r.params.unmetKg} kg unmet nearby demand over ${r.params.weeks} harvest weeks (${r.params.wantedKg} kg wanted, ${r.params.committedKg} kg committed)`;
    case 'withheld':
      return `fewer than ${r.params.minHouseholds} households nearby ask for it: not counted`;
    case 'expected-yield':
      return `${r.params.yieldKg} kg expected from ${r.params.areaM2} m² at ${r.params.kgPerM2} kg/m²`;
    case 'reference-price':
      return `reference price ${r.params.pricePerKg} ${r.params.currency}/kg`;
    case 'median-price':
      return `median price nearby households accept: ${r.params.pricePerKg} ${r.params.currency}/kg`;
  }
}

const r1 = (x: number) => Math.round(x * 10) / 10;

/**
 * Median of the maximum prices (EUR cents per kg) nearby households state for the crop; undefined when fewer than
 * MIN_HOUSEHOLDS state one (a median of one or two prices would be theirs).
 */
function medianPricePerKg(households: Household[], crop: Crop): number | undefined {
  const prices = households
    .flatMap((h) => h.items)
    .filter((i) => i.crop === crop && i.maxPrice !== undefined && i.currency === TABLE_CURRENCY)
    .map((i) => (i.maxPrice as number) / kgPerUnit(crop, i.unit))
    .sort((a, b) => a - b);
  if (prices.length < MIN_HOUSEHOLDS) return undefined;
  const mid = Math.floor(prices.length / 2);
  return prices.length % 2 ? (prices[mid] as number) : ((prices[mid - 1] as number) + (prices[mid] as number)) / 2;
}

/**
 * Ranks the crops for a grower. For each crop: suitable when the method grows it and the start date's month
 * (mirrored south of the equator) is a sowing month for the method; harvest at start + days to harvest; unmet demand
 * is the nearby households' demand over the HARVEST_WEEKS weeks from harvest, less committed nearby supply those
 * weeks; expected yield = area × yield per m² of the method; what can be sold is the smaller of the two, priced at
 * the median maximum price nearby households state (else the table's reference price). Score = expected revenue in
 * currency units when suitable, 0 otherwise. What can be sown now comes first, by score; ties by unmet demand, then
 * shorter days to harvest (so with no demand nearby, a crop not sowable now never heads the list for its short cycle). Crops in `withheld`
 * (too few households ask for them to show their demand) are said to be so in the reasons. With `published`
 * demand (the noisy figures of the weeks given, domain/published-demand.ts), the nearby demand is read from it and
 * a crop fewer than MIN_HOUSEHOLDS households ask for there is withheld; otherwise from the households themselves.
 */
export function recommendCrops(
  grower: Grower,
  households: Household[],
  supplies: SupplyWindow[],
  withheldOrPublished: ReadonlySet<string> | PublishedDemand = new Set(),
  publishedWeeks: readonly Date[] = [],
): CropAdvice[] {
  const published = withheldOrPublished instanceof Set ? undefined : (withheldOrPublished as PublishedDemand);
  const withheld =
    published === undefined
      ? (withheldOrPublished as ReadonlySet<string>)
      : new Set(published.crops.filter((c) => c.consumers < MIN_HOUSEHOLDS).map((c) => c.crop));
  const weekIndex = new Map(publishedWeeks.map((w, i) => [isoDate(w), i]));
  return CROPS.map((crop): CropAdvice => {
    const c = CROP_TABLE[crop];
    const yieldPerM2 = c.yieldKgPerM2[grower.method];
    const month = climateMonth(grower.startDate, grower.latitude);
    const sowable = sowingMonths(crop, grower.method).includes(month);
    const suitable = yieldPerM2 !== null && sowable;
    const harvest = addDays(grower.startDate, c.daysToHarvest);
    const weeks = weekStarts(harvest, HARVEST_WEEKS);
    let demand = 0;
    if (published) {
      const figure = published.crops.find((p) => p.crop === crop);
      for (const w of weeks) {
        const i = weekIndex.get(isoDate(w));
        if (figure && !withheld.has(crop) && i !== undefined) demand += figure.weeks[i] ?? 0;
      }
    } else {
      for (const h of households) {
        for (const item of h.items) if (item.crop === crop) for (const w of weeks) demand += weeklyKg(h, item, w);
      }
    }
    let supply = 0;
    for (const s of supplies) if (s.crop === crop) for (const w of weeks) supply += supplyInWeek(s, w);
    const unmet = Math.max(0, demand - supply);
    const yieldKg = (yieldPerM2 ?? 0) * grower.areaM2;
    const sellable = Math.min(unmet, yieldKg);
    const stated = medianPricePerKg(households, crop);
    const pricePerKg = stated ?? c.referencePricePerKg;
    const revenue = Math.round(sellable * pricePerKg);
    const why: CropReason[] = [];
    if (yieldPerM2 === null) why.push({ code: 'not-grown', params: { crop, method: grower.method } });
    else why.push({ code: sowable ? 'sowable' : 'not-sowable', params: { month, method: grower.method } });
    why.push({ code: 'first-harvest', params: { date: isoDate(harvest), days: c.daysToHarvest } });
    why.push({
      code: 'unmet-demand',
      params: { unmetKg: r1(unmet), weeks: HARVEST_WEEKS, wantedKg: r1(demand), committedKg: r1(supply) },
    });
    if (withheld.has(crop)) why.push({ code: 'withheld', params: { minHouseholds: MIN_HOUSEHOLDS } });
    why.push({
      code: 'expected-yield',
      params: { yieldKg: r1(yieldKg), areaM2: grower.areaM2, kgPerM2: yieldPerM2 ?? 0 },
    });
    why.push(
      stated === undefined
        ? { code: 'reference-price', params: { pricePerKg: c.referencePricePerKg / 100, currency: TABLE_CURRENCY } }
        : { code: 'median-price', params: { pricePerKg: r1(stated / 100), currency: TABLE_CURRENCY } },
    );
    return {
      crop,
      score: suitable ? revenue / 100 : 0,
      suitable,
      harvestDate: isoDate(harvest),
      daysToHarvest: c.daysToHarvest,
      expectedYieldKg: r1(yieldKg),
      unmetDemandKg: r1(unmet),
      expectedRevenue: { amount: suitable ? revenue : 0, currency: TABLE_CURRENCY },
      reasons: why.map(reasonText),
      reasonCodes: why,
    };
  }).sort(
    (a, b) =>
      Number(b.suitable) - Number(a.suitable) ||
      b.score - a.score ||
      b.unmetDemandKg - a.unmetDemandKg ||
      a.daysToHarvest - b.daysToHarvest,
  );
}
