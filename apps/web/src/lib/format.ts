import { currentLanguage } from '../i18n';

/** A date and time in the reader's language. */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
}

/** A number with at most `digits` decimals, written the way the reader's language writes numbers. */
export function formatNumber(value: number, digits = 1): string {
  return value.toLocaleString(currentLanguage(), { maximumFractionDigits: digits });
}

/**
 * The end of a record's id (`plt_01M8…6AN8Y` → `…6AN8Y`): enough to tell two records of the same name apart, where
 * the name leads and the whole id would only be noise.
 */
export function shortId(id: string): string {
  return id.length > 8 ? `…${id.slice(-5)}` : id;
}
