import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { isLanguage, type Language, preferredLanguage } from './languages';
import { type EnglishCatalogs, NAMESPACES, type Namespace } from './resources';

export { t } from 'i18next';

/** Where a visitor's choice is kept while signed out. */
const STORAGE_KEY = 'rootline.language';

type Catalog = { default: Record<string, unknown> };
/** The other languages' catalogs: each its own chunk, fetched when the language is first chosen. */
const catalogs = import.meta.glob<Catalog>(['../locales/*/*.json', '!../locales/en/*.json']);

void i18next.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: ['en', 'nl', 'de', 'fr', 'es'],
  ns: [...NAMESPACES],
  defaultNS: 'app',
  resources: { en: {} },
  partialBundledLanguages: true,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  react: { useSuspense: false },
});

/** Adds a feature's English catalog; its `strings.ts` calls this, so the texts load with the feature's code. */
export function registerEnglish<N extends Namespace>(ns: N, catalog: EnglishCatalogs[N]): void {
  if (!i18next.hasResourceBundle('en', ns)) i18next.addResourceBundle('en', ns, catalog);
}

/** Loads a language's catalogs (once, every namespace at a time); English comes with each feature's code. */
async function load(lng: Language): Promise<void> {
  if (lng === 'en' || i18next.hasResourceBundle(lng, 'app')) return;
  await Promise.all(
    NAMESPACES.map(async (ns) => {
      const loader = catalogs[`../locales/${lng}/${ns}.json`];
      if (!loader) throw new Error(`no ${ns} catalog for ${lng}`);
      i18next.addResourceBundle(lng, ns, (await loader()).default, true, true);
    }),
  );
}

/** The language texts are shown in now. */
export function currentLanguage(): Language {
  const lng = i18next.resolvedLanguage ?? i18next.language;
  return isLanguage(lng) ? lng : 'en';
}

/** Shows the app in `lng`: loads its catalogs first, then switches, and `<html lang>` follows. */
export async function switchLanguage(lng: Language): Promise<void> {
  await load(lng);
  if (i18next.language !== lng) await i18next.changeLanguage(lng);
  document.documentElement.lang = lng;
}

/** Keeps a signed-out visitor's choice in this browser. */
export function rememberLanguage(lng: Language): void {
  try {
    localStorage.setItem(STORAGE_KEY, lng);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
}

function rememberedLanguage(): Language | null {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return isLanguage(stored) ? stored : null;
  } catch {
    return null;
  }
}

/**
 * The language of the first paint: the one chosen in this browser, else the first of the browser's languages the
 * app is written in, else English. The account's saved language replaces it once the session is known.
 */
export function startLanguage(): Promise<void> {
  return switchLanguage(rememberedLanguage() ?? preferredLanguage(navigator.languages ?? []) ?? 'en');
}
