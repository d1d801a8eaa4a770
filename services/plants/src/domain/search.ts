import { MATCH_KINDS, type SearchType } from '@rootline/contracts/plants';
import { countryName, normaliseSearchText } from '@rootline/domain';

/** The three normalised texts a plant is searched by. */
export function searchTexts(p: {
  commonName: string;
  scientificName?: string | null;
  city?: string | null;
  country?: string | null;
  ownerName: string;
}): Record<SearchType, string> {
  const join = (...parts: (string | null | undefined)[]) => normaliseSearchText(parts.filter(Boolean).join(' '));
  return {
    species: join(p.commonName, p.scientificName),
    // A country stored as its ISO code is found by its English name too ("FR" by "France").
    location: join(p.city, p.country, p.country && /^[A-Za-z]{2}$/.test(p.country) ? countryName(p.country) : null),
    owner: join(p.ownerName),
  };
}

/**
 * LIKE patterns of the relevance levels, best first: exact (the whole field equals q), prefix (the field starts
 * with q), word (a later word starts with q), substring (q anywhere). `q` is normalised, so it holds only letters,
 * digits and single spaces: no LIKE wildcard to escape.
 */
export function relevancePatterns(q: string): { exact: string; prefix: string; word: string; substring: string } {
  return { exact: q, prefix: `${q}%`, word: `% ${q}%`, substring: `%${q}%` };
}

/**
 * Below this many characters a `q` has no trigram: it matches a text that starts with it or has a word that starts
 * with it, not one that holds it inside a word (docs/plants.md).
 */
export const SHORT_QUERY_LENGTH = 3;

/** The relevance ranks `q` can reach, best first: exact, prefix and word for a short `q`, all four otherwise. */
export function reachableRanks(q: string): number[] {
  return [...q].length < SHORT_QUERY_LENGTH ? [0, 1, 2] : [0, 1, 2, 3];
}

/**
 * The least text in byte order after every text that starts with `q`: `q` with its last character's code point one
 * higher. `q` is normalised, so it ends in a letter or digit, never in the last code point or before a surrogate.
 * With `q` itself it bounds the range of an index in byte order (`COLLATE "C"`) that holds exactly the texts
 * starting with `q`, a range PostgreSQL can read with `q` bound as a parameter (a `LIKE 'q%'` needs the value
 * written in the statement).
 */
export function prefixEnd(q: string): string {
  const chars = [...q];
  const last = chars.pop();
  if (last === undefined) throw new Error('prefixEnd needs a text');
  return chars.join('') + String.fromCodePoint(last.codePointAt(0)! + 1);
}

/** Name of a relevance rank (0 best). */
export function matchKind(rank: number): (typeof MATCH_KINDS)[number] {
  return MATCH_KINDS[Math.min(Math.max(rank, 0), MATCH_KINDS.length - 1)]!;
}
