import { currentLanguage } from '../../../i18n';

/** Decimals of a currency's minor unit (2 for EUR, 0 for JPY); 2 when the browser does not know the code. */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** A price in minor units as a person reads it: `€2.50`. */
export function formatMoney(minor: number, currency: string): string {
  const major = minor / 10 ** currencyDigits(currency);
  try {
    return new Intl.NumberFormat(currentLanguage(), { style: 'currency', currency }).format(major);
  } catch {
    return `${major.toFixed(currencyDigits(currency))} ${currency}`;
  }
}

/** A typed price (`2.50`, `2,5`) in minor units; null when it is not a non-negative number. */
export function toMinor(text: string, currency: string): number | null {
  const value = Number(text.trim().replace(',', '.'));
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) return null;
  return Math.round(value * 10 ** currencyDigits(currency));
}

/** Minor units as the number to put in a price input: 250 → `2.50`. */
export function toMajorText(minor: number, currency: string): string {
  const digits = currencyDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}
