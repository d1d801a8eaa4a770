// Latin letters that Unicode does not decompose into a base letter and a mark.
const FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/**
 * Text as every text search compares it (plants, listings): lower case, accents and other marks removed
 * (é → e, ß → ss), every run of characters other than letters and digits turned into one space, trimmed.
 * "Crème Brûlée!" → "creme brulee". Stored search columns hold text normalised this way (ADR 022).
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
