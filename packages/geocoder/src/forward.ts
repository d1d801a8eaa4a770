import { countryName, normaliseSearchText } from '@rootline/domain';
import { type Gazetteer, gazetteer } from './gazetteer.js';

/** One answer of a search by name. */
export interface PlaceMatch {
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  countryName: string | null;
  latitude: number;
  longitude: number;
  population: number;
  /** exact (the whole name), prefix (the name starts with the query) or typo (one or two letters differ). */
  match: 'exact' | 'prefix' | 'typo';
}

const MATCH_RANK = { exact: 0, prefix: 1, typo: 2 } as const;

/**
 * Edit distance with transpositions (optimal string alignment), giving up once it must exceed `max`: "Amsterdma"
 * is 1 from "amsterdam".
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      row.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/** First index of a sorted list whose value is not below `key`. */
function lowerBound(list: readonly string[], key: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const countriesByName = new WeakMap<Gazetteer, Map<string, string>>();

/** Each country of the gazetteer by its normalised English name. */
function countryNames(places: Gazetteer): Map<string, string> {
  let byName = countriesByName.get(places);
  if (!byName) {
    byName = new Map();
    const codes = new Set<string>();
    for (let i = 0; i < places.size; i++) codes.add(places.country(i));
    for (const code of codes) {
      const name = countryName(code);
      if (name) byName.set(normaliseSearchText(name), code);
    }
    countriesByName.set(places, byName);
  }
  return byName;
}

/** A country hint after a comma ("Paris, France", "paris, fr"): its ISO code, or undefined when it names none. */
function countryHint(places: Gazetteer, text: string): string | undefined {
  const hint = normaliseSearchText(text);
  if (!hint) return undefined;
  if (/^[a-z]{2}$/.test(hint)) return hint.toUpperCase();
  return countryNames(places).get(hint);
}

/**
 * Towns and cities whose name matches a query as people type it: case and accents ignored ("zurich" finds
 * Zürich), a name's beginning is enough ("rotterd"), and one letter wrong, missing, extra or swapped is forgiven
 * (two in names of eight letters or more) when nothing matches better. "Name, country" limits the answer to a
 * country (its name or ISO code). Best first: exact, then prefix, then typo matches, each by population.
 */
export function searchPlacesIn(places: Gazetteer, query: string, limit = 10): PlaceMatch[] {
  const [namePart = '', ...rest] = query.split(',');
  const q = normaliseSearchText(namePart);
  if (!q) return [];
  const country = rest.length ? countryHint(places, rest.join(',')) : undefined;
  const found = new Map<number, PlaceMatch['match']>();
  const keep = (i: number, match: PlaceMatch['match']) => {
    if (country && places.country(i) !== country) return;
    const had = found.get(i);
    if (had === undefined || MATCH_RANK[match] < MATCH_RANK[had]) found.set(i, match);
  };
  const names = places.names;
  for (let k = lowerBound(names, q); k < names.length && names[k]!.startsWith(q); k++) {
    keep(places.nameOwners[k]!, names[k] === q ? 'exact' : 'prefix');
  }
  // Typos are looked for only when no name matches as typed (a scan of the names, milliseconds rather than µs).
  if (found.size === 0 && q.length >= 4) {
    const max = q.length >= 8 ? 2 : 1;
    // Typos: names of about the query's length whose first letter is right, or, failing that, any name.
    const scan = (from: number, to: number) => {
      for (let k = from; k < to; k++) {
        const name = names[k]!;
        if (Math.abs(name.length - q.length) <= max && editDistance(q, name, max) <= max)
          keep(places.nameOwners[k]!, 'typo');
      }
    };
    const first = q[0]!;
    const from = lowerBound(names, first);
    const to = lowerBound(names, String.fromCharCode(first.charCodeAt(0) + 1));
    scan(from, to);
    if (found.size === 0) {
      scan(0, from);
      scan(to, names.length);
    }
  }
  return [...found.entries()]
    .sort(([a, ma], [b, mb]) => MATCH_RANK[ma] - MATCH_RANK[mb] || places.population(b) - places.population(a))
    .slice(0, limit)
    .map(([i, match]) => ({
      name: places.name(i),
      country: places.country(i),
      countryName: countryName(places.country(i)),
      latitude: Math.round(places.latitude(i) * 1e5) / 1e5,
      longitude: Math.round(places.longitude(i) * 1e5) / 1e5,
      population: places.population(i),
      match,
    }));
}

/** `searchPlacesIn` on the process's shared gazetteer. */
export function searchPlaces(query: string, limit = 10): PlaceMatch[] {
  return searchPlacesIn(gazetteer(), query, limit);
}
