import { NEARBY_EXACT_TOTAL_MAX } from '@rootline/contracts/plants';
import { boundingBox, EARTH_RADIUS_KM, type GeoBox, type Point } from '@rootline/domain';

/**
 * The inner circle of a nearby query, as a share of its radius: the page is taken from it when it holds the whole
 * page (all `offset + limit` nearest), so a dense place reads a ninth of the area instead of all of it. A quarter
 * and two fifths cost the database about the same on the benchmark's data (docs/perf/nearby.md); a third needed the
 * whole circle for 2 of its 100 query points, a quarter for 7, and gives the estimate a wider sample.
 */
export const NEARBY_INNER_SHARE = 1 / 3;

/** The inner circle's radius for a query of `radiusKm` (see `NEARBY_INNER_SHARE`). */
export function innerRadiusKm(radiusKm: number): number {
  return radiusKm * NEARBY_INNER_SHARE;
}

/** Where a nearby query looks: the circle of `radiusKm` around `center` and its inner circle, each with its box. */
export interface NearbyArea {
  center: Point;
  radiusKm: number;
  box: GeoBox;
  innerKm: number;
  innerBox: GeoBox;
}

/** The area of a nearby query of `radiusKm` around `center`. */
export function nearbyArea(center: Point, radiusKm: number): NearbyArea {
  const innerKm = innerRadiusKm(radiusKm);
  return { center, radiusKm, box: boundingBox(center, radiusKm), innerKm, innerBox: boundingBox(center, innerKm) };
}

/**
 * The total a nearby page reports. `counted` is the plants within the radius counted up to one past
 * `NEARBY_EXACT_TOTAL_MAX`; when it stays within the cap it is the exact total. Past it, the plants within the inner
 * circle (`inner`, counted exactly) are scaled by the areas of the two circles, never below the cap + 1: a density
 * taken near the centre, as good as the density is even over the radius.
 */
export function nearbyTotal(
  area: Pick<NearbyArea, 'radiusKm' | 'innerKm'>,
  counted: number,
  inner: number,
): { total: number; totalIsEstimate: boolean } {
  if (counted <= NEARBY_EXACT_TOTAL_MAX) return { total: counted, totalIsEstimate: false };
  // The area of a spherical cap is proportional to 1 − cos(r / R).
  const capArea = (km: number) => 1 - Math.cos(km / EARTH_RADIUS_KM);
  const scaled = Math.round((inner * capArea(area.radiusKm)) / capArea(area.innerKm));
  return { total: Math.max(NEARBY_EXACT_TOTAL_MAX + 1, scaled), totalIsEstimate: true };
}
