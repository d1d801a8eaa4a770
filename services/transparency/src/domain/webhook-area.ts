import type { WebhookArea } from '@rootline/contracts/webhooks';

/** Where an event took place, as its public payload says: a point, a country and city, or some of them. */
export interface EventPlace {
  latitude?: number;
  longitude?: number;
  country?: string;
  city?: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim().length > 0 ? v : undefined);
const coordinate = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * The place of an event, from its public payload: its `location` (`latitude`, `longitude`, `city`, `country`, as
 * stored after the privacy level), else a `country` and `city` of the payload itself. Null when it names none (a
 * hidden plant's `location` is null, and an event of a kind without a location has none).
 */
export function placeOf(payload: unknown): EventPlace | null {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
  const record = payload as Record<string, unknown>;
  const location = record.location;
  const source =
    typeof location === 'object' && location !== null && !Array.isArray(location)
      ? (location as Record<string, unknown>)
      : record;
  const place: EventPlace = {};
  const latitude = coordinate(source.latitude);
  const longitude = coordinate(source.longitude);
  if (latitude !== undefined && longitude !== undefined) Object.assign(place, { latitude, longitude });
  const country = text(source.country);
  if (country !== undefined) place.country = country;
  const city = text(source.city);
  if (city !== undefined) place.city = city;
  return Object.keys(place).length > 0 ? place : null;
}

/**
 * What is wrong with an area, or null when it is usable: a box of four numbers with longitudes in [-180, 180],
 * latitudes in [-90, 90] and minLat ≤ maxLat (minLon > maxLon is a box across the antimeridian, not a mistake), and
 * a city only with its country.
 */
export function areaProblem(area: WebhookArea): string | null {
  if (area.bbox === undefined && area.country === undefined && area.city === undefined) {
    return 'area: give bbox, country (optionally with city), or both';
  }
  if (area.bbox !== undefined) {
    const box = area.bbox;
    if (box.length !== 4 || !box.every((n) => Number.isFinite(n))) {
      return 'area.bbox: four numbers, [minLon, minLat, maxLon, maxLat]';
    }
    const [minLon, minLat, maxLon, maxLat] = box as [number, number, number, number];
    if ([minLon, maxLon].some((lon) => lon < -180 || lon > 180)) return 'area.bbox: longitudes lie in [-180, 180]';
    if ([minLat, maxLat].some((lat) => lat < -90 || lat > 90)) return 'area.bbox: latitudes lie in [-90, 90]';
    if (minLat > maxLat) return 'area.bbox: minLat is greater than maxLat';
  }
  if (area.city !== undefined && area.country === undefined) return 'area.city: give the country too';
  return null;
}

/** Whether a point lies in a box `[minLon, minLat, maxLon, maxLat]`, edges included, across the antimeridian when minLon > maxLon. */
export function inBox(box: readonly number[], latitude: number, longitude: number): boolean {
  const [minLon, minLat, maxLon, maxLat] = box as [number, number, number, number];
  if (latitude < minLat || latitude > maxLat) return false;
  // 180 and -180 are the same meridian.
  const longitudes = Math.abs(longitude) === 180 ? [180, -180] : [longitude];
  return longitudes.some((lon) => (minLon <= maxLon ? lon >= minLon && lon <= maxLon : lon >= minLon || lon <= maxLon));
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Whether an event's place is in an area: inside its box (when it has one) and in its country and city (when it
 * names them). An event without a place, or without the part the area asks about, is not.
 */
export function inArea(area: WebhookArea, place: EventPlace | null): boolean {
  if (!place) return false;
  if (area.bbox) {
    if (place.latitude === undefined || place.longitude === undefined) return false;
    if (!inBox(area.bbox, place.latitude, place.longitude)) return false;
  }
  if (area.country !== undefined && (place.country === undefined || !same(place.country, area.country))) return false;
  if (area.city !== undefined && (place.city === undefined || !same(place.city, area.city))) return false;
  return true;
}
