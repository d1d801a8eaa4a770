import { normaliseSearchText } from '@rootline/domain';

/** The searchable text of a listing (normalised as plants' search does, ADR 022): title then description, normalised. */
export function listingSearchText(title: string, description: string): string {
  return normaliseSearchText(`${title} ${description}`);
}

/** The words of a query, each matched as a substring (`LIKE '%word%'`, served by the trigram index). */
export function queryWords(q: string): string[] {
  return [...new Set(normaliseSearchText(q).split(' ').filter(Boolean))].slice(0, 8);
}
