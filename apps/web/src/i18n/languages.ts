/** The languages the app is written in; English first, the fallback of the others. */
export const LANGUAGES = ['en', 'nl', 'de', 'fr', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language named in itself, as a switcher lists them (never translated). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  nl: 'Nederlands',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The first of the reader's languages (`navigator.languages`, most preferred first) the app is written in. */
export function preferredLanguage(languages: readonly string[]): Language | null {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return null;
}
