import type { Crop, Unit } from '@rootline/contracts/demand';
import { weekStarts } from './calendar.js';
import { kgPerUnit } from './crops.js';
import { type Household, weeklyKg } from './demand.js';
import { cellDistanceKm, snapRadiusKm } from './location-precision.js';

export interface OpenSupply {
  id: string;
  growerId: string;
  crop: Crop;
  unit: Unit;
  /** Price per `unit`, minor units of `currency`. */
  price: number;
  currency: string;
  organic: boolean;
  remainingKg: number;
  from: Date;
  to: Date;
  latitude: number;
  longitude: number;
}

/** A consumer's demand already met for a crop by an earlier match, with the window of the supply that met it. */
export interface MetDemand {
  consumerId: string;
  crop: string;
  quantityKg: number;
  from: Date;
  to: Date;
}

export interface Allocation {
  supplyId: string;
  growerId: string;
  consumerId: string;
  crop: Crop;
  quantityKg: number;
  distanceKm: number;
  price: number;
  currency: string;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const overlaps = (a: { from: Date; to: Date }, b: { from: Date; to: Date }) => a.from <= b.to && b.from <= a.to;

/**
 * Matches supplies to households, supply by supply (oldest first as given). A household qualifies for a supply when it
 * asks for the crop, is within `maxDistanceKm` of the grower (and within its own radius if it buys local only), wants
 * organic only if the supply is organic, and states no maximum price or one, per kg in the same currency, at least the
 * supply's. Its demand over the supply's window is its weekly kg summed over the window's weeks (in its seasons),
 * less what earlier matches of overlapping windows already give it. Nearest households are served first, then those
 * who accept the higher price, then by id; each gets the smaller of its demand and what the supply has left. Pairs
 * already matched (`matchedPairs`) are not matched again, so the same inputs give no new matches. Distances are
 * between grid cells and `maxDistanceKm` is rounded up to the precision (domain/location-precision.ts), so which
 * households match, and in which order, depends on their cells only.
 */
export function matchSupply(
  supplies: OpenSupply[],
  households: Household[],
  met: MetDemand[],
  matchedPairs: ReadonlySet<string>,
  maxDistanceKm: number,
): Allocation[] {
  const out: Allocation[] = [];
  const given = [...met];
  const reach = snapRadiusKm(maxDistanceKm);
  for (const s of supplies) {
    let left = s.remainingKg;
    const supplyPerKg = s.price / kgPerUnit(s.crop, s.unit);
    const weeks = weekStarts(s.from, Math.ceil((s.to.getTime() - s.from.getTime()) / (7 * 86_400_000)) + 1).filter(
      (w) => w <= s.to,
    );
    const candidates = households
      .flatMap((h) => {
        const item = h.items.find((i) => i.crop === s.crop);
        if (!item || matchedPairs.has(`${s.id}\n${h.consumerId}`)) return [];
        const distanceKm = cellDistanceKm(h, s);
        if (distanceKm > reach + 1e-9 || (item.localOnly && distanceKm > h.radiusKm)) return [];
        if (item.organicOnly && !s.organic) return [];
        const maxPerKg = item.maxPrice === undefined ? undefined : item.maxPrice / kgPerUnit(item.crop, item.unit);
        if (maxPerKg !== undefined && (item.currency !== s.currency || maxPerKg < supplyPerKg)) return [];
        const wanted = weeks.reduce((a, w) => a + weeklyKg(h, item, w), 0);
        const already = given
          .filter((g) => g.consumerId === h.consumerId && g.crop === s.crop && overlaps(g, s))
          .reduce((a, g) => a + g.quantityKg, 0);
        const need = wanted - already;
        return need > 1e-9 ? [{ h, distanceKm, need, maxPerKg: maxPerKg ?? Number.POSITIVE_INFINITY }] : [];
      })
      .sort(
        (a, b) =>
          a.distanceKm - b.distanceKm || b.maxPerKg - a.maxPerKg || a.h.consumerId.localeCompare(b.h.consumerId),
      );
    for (const c of candidates) {
      if (left <= 1e-9) break;
      const quantityKg = r3(Math.min(left, c.need));
      left -= quantityKg;
      given.push({ consumerId: c.h.consumerId, crop: s.crop, quantityKg, from: s.from, to: s.to });
      out.push({
        supplyId: s.id,
        growerId: s.growerId,
        consumerId: c.h.consumerId,
        crop: s.crop,
        quantityKg,
        distanceKm: r3(c.distanceKm),
        price: s.price,
        currency: s.currency,
      });
    }
  }
  return out;
}
