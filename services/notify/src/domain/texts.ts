import { createInstance, type TFunction } from 'i18next';
import { de } from './locales/de.js';
import { en } from './locales/en.js';
import { es } from './locales/es.js';
import { fr } from './locales/fr.js';
import { nl } from './locales/nl.js';

/** Every language notify writes in, with its texts; English is the fallback. */
export const CATALOGS = { en, nl, de, fr, es } as const;
export type MessageLocale = keyof typeof CATALOGS;

const i18n = createInstance();
void i18n.init({
  lng: 'en',
  fallbackLng: 'en',
  resources: Object.fromEntries(Object.entries(CATALOGS).map(([lng, texts]) => [lng, { translation: texts }])),
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** A recipient's language as notify writes in it: one of the catalogs, else English. */
export function messageLocale(locale: string | null | undefined): MessageLocale {
  return locale && locale in CATALOGS ? (locale as MessageLocale) : 'en';
}

/** The texts of one language (i18next: `{{value}}` interpolation, plurals by Intl.PluralRules). */
export function textsIn(locale: string | null | undefined): TFunction {
  return i18n.getFixedT(messageLocale(locale));
}

/** A number written the way the language writes it, with exactly `digits` decimals. */
export function decimal(locale: MessageLocale, value: number, digits: number): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  }).format(value);
}
