import { AppError } from '@rootline/contracts/errors';
import type { Household } from './demand.js';

/**
 * Fewest distinct households any figure of demand may describe (k-anonymity with k = 5, ADR 102). A signal over
 * fewer households is refused; within a signal or a recommendation, a crop fewer households ask for is left out
 * (a signal counts it in `suppressedCrops`), and a median price is shown only when this many households state one.
 * Below it a figure is one household's order or nearly, which the caller could tie to a home by drawing a small
 * region around it.
 */
export const MIN_HOUSEHOLDS = 5;

/**
 * Step, in km, to which the distance of a match is rounded up for anyone but its consumer and an ADMIN: growers
 * learn how far they would deliver, to 5 km, and cannot place a household by matching it from a few points.
 */
export const MATCH_DISTANCE_STEP_KM = 5;

/** A distance rounded up to the next whole step (a match 0.2 km away reads 5 km, one 13 km away 15 km). */
export function coarseDistanceKm(km: number, stepKm = MATCH_DISTANCE_STEP_KM): number {
  return Math.max(1, Math.ceil(km / stepKm - 1e-9)) * stepKm;
}

export interface Viewer {
  id: string;
  role: string;
}

/**
 * A match as a viewer may see it: its consumer and an ADMIN see it whole; anyone else (the grower) sees no
 * consumer (`consumerId` null; the match id is the handle) and the distance rounded up to MATCH_DISTANCE_STEP_KM.
 */
export function matchAsSeenBy<M extends { consumerId: string; distanceKm: number }>(
  match: M,
  viewer: Viewer,
): Omit<M, 'consumerId'> & { consumerId: string | null } {
  if (viewer.role === 'ADMIN' || viewer.id === match.consumerId) return match;
  return { ...match, consumerId: null, distanceKm: coarseDistanceKm(match.distanceKm) };
}

/** Refuses an aggregate over fewer than MIN_HOUSEHOLDS distinct households: 400 VALIDATION_ERROR, reason too-few-households. */
export function assertEnoughHouseholds(households: readonly { consumerId: string }[], field = 'body/region'): void {
  const distinct = new Set(households.map((h) => h.consumerId)).size;
  if (distinct < MIN_HOUSEHOLDS) {
    throw new AppError(
      'VALIDATION_ERROR',
      `Demand is shown only over at least ${MIN_HOUSEHOLDS} households; choose a larger region`,
      [
        {
          field,
          message: `holds too few households (fewer than ${MIN_HOUSEHOLDS})`,
          reason: 'too-few-households',
          minimum: MIN_HOUSEHOLDS,
        },
      ],
    );
  }
}

/**
 * The households with the items of each crop fewer than `k` distinct households ask for removed (households left
 * without items dropped), and the crops so withheld, sorted.
 */
export function withoutSmallGroups(
  households: readonly Household[],
  k = MIN_HOUSEHOLDS,
): { households: Household[]; suppressed: string[] } {
  const askers = new Map<string, Set<string>>();
  for (const h of households) {
    for (const item of h.items) {
      const who = askers.get(item.crop) ?? new Set<string>();
      who.add(h.consumerId);
      askers.set(item.crop, who);
    }
  }
  const kept = new Set([...askers].filter(([, who]) => who.size >= k).map(([crop]) => crop));
  return {
    households: households
      .map((h) => ({ ...h, items: h.items.filter((i) => kept.has(i.crop)) }))
      .filter((h) => h.items.length > 0),
    suppressed: [...askers.keys()].filter((c) => !kept.has(c)).sort(),
  };
}
