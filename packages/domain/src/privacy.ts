import type { Location } from '@rootline/contracts/common';
import type { PrivacyLevel } from '@rootline/contracts/plants';
import { destinationPoint, KM_PER_DEGREE, normaliseLongitude, RAD, withoutTinyDegrees } from './geo.js';

/** Bounds of the `fuzzy` offset. */
export const FUZZY_MIN_KM = 1;
export const FUZZY_MAX_KM = 5;
/** Grid cell sizes of the `city` and `country` levels. */
export const CITY_CELL_KM = 10;
export const COUNTRY_CELL_KM = 100;

/**
 * The centre of the grid cell holding a point. Rows are `cellKm` tall; each row is split into whole cells at most
 * `cellKm` wide along its edge nearer the equator, where the row is widest (fewer cells towards the poles), so
 * cells stay roughly square, every point of a cell maps to the same centre, and no point is farther from its
 * centre than half the cell's diagonal (√2 × cellKm / 2) anywhere on Earth, the poles included.
 */
export function snapToGrid(
  latitude: number,
  longitude: number,
  cellKm: number,
): { latitude: number; longitude: number } {
  const rows = Math.round((180 * KM_PER_DEGREE) / cellKm);
  const latStep = 180 / rows;
  const row = Math.min(rows - 1, Math.floor((latitude + 90) / latStep));
  const centreLat = -90 + (row + 0.5) * latStep;
  const widestLat = Math.max(0, Math.abs(centreLat) - latStep / 2);
  const cols = Math.max(1, Math.ceil((360 * Math.cos(widestLat * RAD) * KM_PER_DEGREE) / cellKm));
  const lonStep = 360 / cols;
  const col = Math.min(cols - 1, Math.floor((normaliseLongitude(longitude) + 180) / lonStep));
  return { latitude: centreLat, longitude: -180 + (col + 0.5) * lonStep };
}

/**
 * The location as a privacy level allows it to be stored, returned and written to the ledger:
 * - exact: unchanged;
 * - fuzzy: moved 1 to 5 km (uniform) in a uniformly random direction; city and country kept;
 * - city: the centre of its ~10 km grid cell; city and country kept;
 * - country: the centre of its ~100 km grid cell; country kept, city dropped;
 * - hidden: null, nothing disclosed.
 * `random` returns numbers in [0, 1); pass a cryptographic source in production.
 */
export function applyPrivacyLevel(location: Location, level: PrivacyLevel, random: () => number): Location | null {
  const stored = disclosed(location, level, random);
  return stored && withoutTinyDegrees(stored);
}

function disclosed(location: Location, level: PrivacyLevel, random: () => number): Location | null {
  const named = {
    ...(location.city === undefined ? {} : { city: location.city }),
    ...(location.country === undefined ? {} : { country: location.country }),
  };
  switch (level) {
    case 'exact':
      return { latitude: location.latitude, longitude: location.longitude, ...named };
    case 'fuzzy': {
      const distance = FUZZY_MIN_KM + (FUZZY_MAX_KM - FUZZY_MIN_KM) * random();
      const moved = destinationPoint(location, 2 * Math.PI * random(), distance);
      return { ...moved, ...named };
    }
    case 'city':
      return { ...snapToGrid(location.latitude, location.longitude, CITY_CELL_KM), ...named };
    case 'country':
      return {
        ...snapToGrid(location.latitude, location.longitude, COUNTRY_CELL_KM),
        ...(location.country === undefined ? {} : { country: location.country }),
      };
    case 'hidden':
      return null;
  }
}

/**
 * Uniform in [0, 1) from 48 random bits: obfuscation offsets must not be predictable. `fill` fills a byte array with
 * random bytes; by default the Web Crypto API's, drawn from the operating system's CSPRNG (global in Node and
 * browsers, so this module imports nothing of the runtime).
 */
export function secureRandom(
  fill: (bytes: Uint8Array) => Uint8Array = (bytes) => globalThis.crypto.getRandomValues(bytes),
): number {
  let n = 0;
  for (const byte of fill(new Uint8Array(6))) n = n * 256 + byte;
  return n / 2 ** 48;
}

/**
 * The step, in km, to which a distance to or from a point at each privacy level is shown: a distance no finer than
 * the point itself, so it cannot put the point on a thin ring around a known one. Fuzzy points are moved up to
 * FUZZY_MAX_KM, city and country points snapped to their grid cells; hidden points show no distance at all (null).
 */
export const DISTANCE_STEP_KM: Readonly<Record<PrivacyLevel, number | null>> = {
  exact: 0,
  fuzzy: FUZZY_MAX_KM,
  city: CITY_CELL_KM,
  country: COUNTRY_CELL_KM,
  hidden: null,
};

/**
 * A distance as others may see it when one of its ends is at `level`: exact as given, rounded to the nearest
 * multiple of the level's step (DISTANCE_STEP_KM), or null when the end is hidden.
 */
export function disclosedDistanceKm(distanceKm: number, level: PrivacyLevel): number | null {
  const step = DISTANCE_STEP_KM[level];
  if (step === null) return null;
  if (step === 0) return distanceKm;
  return Math.round(distanceKm / step) * step;
}
