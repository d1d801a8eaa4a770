import { MATCH_KINDS, type SearchType } from '@rootline/contracts';
import { countryName } from '@rootline/geocoder';
import { normaliseSearchText } from '@rootline/host';

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

/** Name of a relevance rank (0 best). */
export function matchKind(rank: number): (typeof MATCH_KINDS)[number] {
  return MATCH_KINDS[Math.min(Math.max(rank, 0), MATCH_KINDS.length - 1)]!;
}
