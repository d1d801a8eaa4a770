import { currentLanguage } from '../i18n';

/** A date and time in the reader's language. */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
}

/** A number with at most `digits` decimals, written the way the reader's language writes numbers. */
export function formatNumber(value: number, digits = 1): string {
  return value.toLocaleString(currentLanguage(), { maximumFractionDigits: digits });
}
