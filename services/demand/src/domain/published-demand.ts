import { createHmac } from 'node:crypto';
import { CROPS } from '@rootline/contracts/demand';
import { isoDate, seasonOf } from './calendar.js';
import { type CropDemand, type Household, type SupplyWindow, supplyInWeek, weeklyKg } from './demand.js';
import { MIN_HOUSEHOLDS } from './privacy.js';

/**
 * Published demand is differentially private in what households want (docs/privacy.md, ADR 174). Each household's
 * weekly kilograms of a crop are clipped to DEMAND_CAP_KG; each area (a grid cell, or a region by name) publishes,
 * per publication week, its count of settled households exactly (their location is public to the cell), per crop
 * its count of askers and per crop and season its weekly kilograms with Laplace noise. Whatever one household
 * wants moves, in each area it is in, a crop's count by at most 1 and at most SEASONS season figures by at most
 * the cap: so each crop's figures of an area are (EPSILON_COUNT + EPSILON_KG)-differentially private per week.
 */
export const DEMAND_CAP_KG = 2;
/** Privacy budget of one household's kilograms of one crop, per area and publication week (all seasons). */
export const EPSILON_KG = 1;
/** Privacy budget of the count of a crop's askers, per area and publication week. */
export const EPSILON_COUNT = 1;
const SEASONS = 4;
/** Laplace scale of a season's weekly kilograms: its sensitivity (the cap in each of four seasons) over ε. */
export const KG_NOISE_SCALE = (SEASONS * DEMAND_CAP_KG) / EPSILON_KG;
export const COUNT_NOISE_SCALE = 1 / EPSILON_COUNT;

/**
 * Uniform numbers in (0, 1), one per label, the same for the same label: the noise of a figure is fixed for its
 * publication week, so asking again (or for another region holding the same area) cannot average it away.
 */
export type NoiseSource = (label: string) => number;

/** The noise source of a publication week (its Monday, `YYYY-MM-DD`): HMAC-SHA-256 of the week and label. */
export function keyedNoiseSource(key: string, publicationWeek: string): NoiseSource {
  return (label) => {
    const digest = createHmac('sha256', key).update(`${publicationWeek}\n${label}`).digest();
    // 48 bits, kept off 0 and 1 so the Laplace inverse stays finite.
    return (digest.readUIntBE(0, 6) + 0.5) / 2 ** 48;
  };
}

/** A Laplace draw of the scale from a uniform number in (0, 1) (the inverse of its distribution function). */
export function laplace(u: number, scale: number): number {
  const v = u - 0.5;
  return -scale * Math.sign(v) * Math.log(1 - 2 * Math.abs(v));
}

/** The eligible households of one area, with the latitude its seasons are read at. */
export interface Area {
  key: string;
  latitude: number;
  households: Household[];
}

export interface PublishedDemand {
  /** Settled households of the region (exact: their cells are public). */
  households: number;
  crops: { crop: string; consumers: number; weeks: number[] }[];
}

/**
 * The noisy demand of a region made of whole areas: the sum over its areas of each area's noisy figures, so two
 * regions sharing an area share its noise, and a difference of regions is a difference of noisy areas. An area
 * without settled households publishes zeros (that it is empty is public), so only areas with households add noise.
 */
export function publishDemand(areas: readonly Area[], weeks: readonly Date[], source: NoiseSource): PublishedDemand {
  const drawn = new Map<string, number>();
  const noise = (label: string) => {
    let u = drawn.get(label);
    if (u === undefined) {
      u = source(label);
      drawn.set(label, u);
    }
    return u;
  };
  let households = 0;
  const crops = new Map(CROPS.map((c) => [c as string, { consumers: 0, weeks: weeks.map(() => 0) }]));
  for (const area of areas) {
    if (area.households.length === 0) continue;
    households += area.households.length;
    for (const [crop, figure] of crops) {
      const askers = area.households.filter((h) => h.items.some((i) => i.crop === crop));
      figure.consumers += askers.length + laplace(noise(`${area.key}|${crop}|consumers`), COUNT_NOISE_SCALE);
      weeks.forEach((w, i) => {
        const season = seasonOf(w, area.latitude);
        const kg = askers.reduce((sum, h) => {
          const item = h.items.find((it) => it.crop === crop);
          return sum + (item ? Math.min(DEMAND_CAP_KG, weeklyKg(h, item, w)) : 0);
        }, 0);
        figure.weeks[i] =
          (figure.weeks[i] as number) + kg + laplace(noise(`${area.key}|${crop}|${season}`), KG_NOISE_SCALE);
      });
    }
  }
  return {
    households,
    crops: [...crops].map(([crop, f]) => ({
      crop,
      consumers: Math.max(0, Math.round(f.consumers)),
      weeks: f.weeks.map((kg) => Math.max(0, Math.round(kg * 10) / 10)),
    })),
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The crops of a published region as a signal shows them: those at least MIN_HOUSEHOLDS (noisy) households ask for,
 * with the committed supply of the region against them (supply is the growers' own promise and exact); the others
 * counted in `suppressed` when some household may ask for them. Sorted by total gap, largest first.
 */
export function signalCrops(
  published: PublishedDemand,
  supplies: readonly SupplyWindow[],
  weeks: readonly Date[],
): { crops: CropDemand[]; suppressed: number } {
  const shown = published.crops.filter((c) => c.consumers >= MIN_HOUSEHOLDS);
  const crops = shown.map((c) => {
    const rows = weeks.map((w, i) => {
      const demandKg = c.weeks[i] as number;
      const supplyKg = round(supplies.filter((s) => s.crop === c.crop).reduce((a, s) => a + supplyInWeek(s, w), 0));
      return { weekStart: isoDate(w), demandKg, supplyKg, gapKg: round(Math.max(0, demandKg - supplyKg)) };
    });
    const sum = (k: 'demandKg' | 'supplyKg' | 'gapKg') => round(rows.reduce((a, r) => a + r[k], 0));
    return {
      crop: c.crop,
      consumers: c.consumers,
      demandKg: sum('demandKg'),
      supplyKg: sum('supplyKg'),
      gapKg: sum('gapKg'),
      weeks: rows,
    };
  });
  return {
    crops: crops.sort((a, b) => b.gapKg - a.gapKg || a.crop.localeCompare(b.crop)),
    suppressed: published.crops.filter((c) => c.consumers > 0 && c.consumers < MIN_HOUSEHOLDS).length,
  };
}
