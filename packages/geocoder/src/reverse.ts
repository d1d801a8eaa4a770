import type { Location, PrivacyLevel } from '@rootline/contracts';
import { countryName, type Point } from '@rootline/domain';
import { type Gazetteer, gazetteer } from './gazetteer.js';

type CountryCoder = typeof import('@rapideditor/country-coder');
let coder: Promise<CountryCoder> | undefined;

/** The country-boundary coder, imported on first use (building its index takes a few hundred milliseconds). */
function countryCoder(): Promise<CountryCoder> {
  coder ??= import('@rapideditor/country-coder');
  return coder;
}

/**
 * The ISO 3166-1 alpha-2 code of the country or territory holding a point, or null at sea and in Antarctica's
 * unclaimed parts. Territories with their own ISO code (Puerto Rico, Greenland, Réunion) answer that code;
 * regions without one (the Canary Islands) answer their country's.
 */
export function countryCodeAt(cc: CountryCoder, point: Point): string | null {
  const loc: [number, number] = [point.longitude, point.latitude];
  const territory = cc.feature(loc, { level: 'territory' });
  if (territory?.properties.iso1A2 && territory.properties.isoStatus === 'official') return territory.properties.iso1A2;
  return cc.iso1A2Code(loc);
}

/** A place named from coordinates. */
export interface ReversePlace {
  /** ISO 3166-1 alpha-2, or null at sea. */
  country: string | null;
  /** The country's English name. */
  countryName: string | null;
  /** The nearest place of the gazetteer, in the same country, or null when none is near enough. */
  city: string | null;
  /** Distance from the point to that place. */
  cityKm: number | null;
}

/**
 * How large a place must be, and how far it may be, to name a point at each privacy level: a village of 1,000
 * people can say more than a 10 km grid cell does, so the `city` level names only a town of 15,000 or more within
 * 50 km (or none), and `fuzzy` one of 5,000 or more. `country` and `hidden` name no place.
 */
export const PLACE_FOR_LEVEL: Record<PrivacyLevel, { minPopulation: number; maxKm: number } | null> = {
  exact: { minPopulation: 0, maxKm: 50 },
  fuzzy: { minPopulation: 5_000, maxKm: 50 },
  city: { minPopulation: 15_000, maxKm: 50 },
  country: null,
  hidden: null,
};

/** The country and nearest place of a point, from the bundled data only (no network). */
export function reverseWith(
  cc: CountryCoder,
  places: Gazetteer,
  point: Point,
  level: PrivacyLevel = 'exact',
): ReversePlace {
  const country = countryCodeAt(cc, point);
  const rule = PLACE_FOR_LEVEL[level];
  const near = rule && places.nearest(point, { ...rule, ...(country ? { country } : {}) });
  return {
    country,
    countryName: country && countryName(country),
    city: near ? places.name(near.index) : null,
    cityKm: near ? Math.round(near.km * 10) / 10 : null,
  };
}

/** `reverseWith` on the process's shared data, loaded on first call. */
export async function reverseGeocode(point: Point, level: PrivacyLevel = 'exact'): Promise<ReversePlace> {
  return reverseWith(await countryCoder(), gazetteer(), point, level);
}

/**
 * The location with what it lacks filled from its exact coordinates, before its privacy level is applied (so a
 * `city` or `country` level names the place the point is in, not the one its grid cell's centre falls in): the
 * country as an ISO 3166-1 alpha-2 code, and the nearest place the level allows (`PLACE_FOR_LEVEL`). What the
 * caller gave is kept as given.
 */
export async function locate(location: Location, level: PrivacyLevel = 'exact'): Promise<Location> {
  if (level === 'hidden' || (location.city !== undefined && location.country !== undefined)) return location;
  const found = await reverseGeocode(location, level);
  const country = location.country ?? found.country ?? undefined;
  // A place is named only when it lies in the country the location states.
  const city =
    location.city ??
    (found.city && (location.country === undefined || sameCountry(location.country, found.country))
      ? found.city
      : undefined);
  return {
    ...location,
    ...(country === undefined ? {} : { country }),
    ...(city === undefined || city === null ? {} : { city }),
  };
}

function sameCountry(given: string, code: string | null): boolean {
  if (!code) return false;
  const g = given.trim().toLowerCase();
  return g === code.toLowerCase() || g === countryName(code)?.toLowerCase();
}

/** Loads the data now (a service may warm it after start-up so the first request does not wait). */
export async function warmGeocoder(): Promise<void> {
  await countryCoder();
  gazetteer();
}
