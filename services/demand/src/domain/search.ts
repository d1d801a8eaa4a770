// Latin letters that Unicode does not decompose into a base letter and a mark (as plants' search does).
const FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/**
 * Text as listing search compares it: lower case, accents removed (é → e, ß → ss), every run of characters other
 * than letters and digits turned into one space, trimmed. The same rule as plants' search (ADR 022).
 */
export function normaliseSearchText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => FOLD[c] ?? c)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The searchable text of a listing: title then description, normalised. */
export function listingSearchText(title: string, description: string): string {
  return normaliseSearchText(`${title} ${description}`);
}

/** The words of a query, each matched as a substring (`LIKE '%word%'`, served by the trigram index). */
export function queryWords(q: string): string[] {
  return [...new Set(normaliseSearchText(q).split(' ').filter(Boolean))].slice(0, 8);
}
