import { distanceBandKm } from '@rootline/contracts/demand';
import { AppError } from '@rootline/contracts/errors';
import { isoDate, mondayOf } from './calendar.js';
import type { DemandItem, Household } from './demand.js';

/**
 * Fewest distinct households any figure of demand may describe (k-anonymity with k = 5, ADR 102). A signal over
 * fewer households is refused; within a signal or a recommendation, a crop fewer households ask for is left out
 * (a signal counts it in `suppressedCrops`), and a median price is shown only when this many households state one.
 * Below it a figure is one household's order or nearly, which the caller could tie to a home by drawing a small
 * region around it.
 */
export const MIN_HOUSEHOLDS = 5;

/**
 * Days a household must have lived in its grid cell before it counts in any aggregate (signals, recommendations):
 * accounts made to pad a region up to MIN_HOUSEHOLDS, or moved next to a household to do so, count only after
 * this wait, and by then their figures are as noisy as anyone's (domain/published-demand.ts).
 */
export const HOUSEHOLD_MIN_AGE_DAYS = 14;

/** A stored household as eligibility reads it. */
export interface StoredHousehold extends Household {
  countedFrom: Date;
  /** Monday of the publication week in which `items` were last changed. */
  itemsWeek: string;
  /** The items in effect before that change (null: none). */
  priorItems: DemandItem[] | null;
}

/** The publication week of a moment: the Monday (`YYYY-MM-DD`, UTC) of its week. */
export function publicationWeek(at: Date): string {
  return isoDate(mondayOf(at));
}

/**
 * A household as aggregates at `now` count it, or undefined: only once it has lived HOUSEHOLD_MIN_AGE_DAYS in its
 * cell, and with the items in effect at the start of the current publication week (a change made this week counts
 * from the next), so that every figure of a week is computed from the same inputs and its noise hides a change.
 */
export function countedHousehold(h: StoredHousehold, now: Date): Household | undefined {
  if (now.getTime() - h.countedFrom.getTime() < HOUSEHOLD_MIN_AGE_DAYS * 86_400_000) return undefined;
  const items = h.itemsWeek === publicationWeek(now) ? h.priorItems : h.items;
  if (!items || items.length === 0) return undefined;
  return { consumerId: h.consumerId, latitude: h.latitude, longitude: h.longitude, radiusKm: h.radiusKm, items };
}

export interface Viewer {
  id: string;
  role: string;
}

/**
 * A match as a viewer may see it: its consumer and an ADMIN see it whole; anyone else (the grower) sees no
 * consumer (`consumerId` null; the match id is the handle) and the distance rounded up to LOCATION_PRECISION_KM.
 */
export function matchAsSeenBy<M extends { consumerId: string; distanceKm: number }>(
  match: M,
  viewer: Viewer,
): Omit<M, 'consumerId'> & { consumerId: string | null } {
  if (viewer.role === 'ADMIN' || viewer.id === match.consumerId) return match;
  return { ...match, consumerId: null, distanceKm: distanceBandKm(match.distanceKm) };
}

/** The refusal of an aggregate over fewer than MIN_HOUSEHOLDS households: 400 VALIDATION_ERROR, too-few-households. */
export function tooFewHouseholds(field = 'body/region'): AppError {
  return new AppError(
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

/** Refuses an aggregate over fewer than MIN_HOUSEHOLDS distinct households (tooFewHouseholds). */
export function assertEnoughHouseholds(households: readonly { consumerId: string }[], field = 'body/region'): void {
  if (new Set(households.map((h) => h.consumerId)).size < MIN_HOUSEHOLDS) throw tooFewHouseholds(field);
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
