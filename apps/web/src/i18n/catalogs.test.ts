import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './languages';
import { NAMESPACES } from './resources';

const LOCALES = new URL('../locales/', import.meta.url).pathname;
const PLURAL = /_(zero|one|two|few|many|other)$/;
/** The values a text interpolates, by name (`{{count, number}}` is `count`). */
const variables = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();

function flatten(o: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'string') out.set(`${prefix}${k}`, v);
    else for (const [kk, vv] of flatten(v as object, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}
const catalog = (lng: string, ns: string) =>
  flatten(JSON.parse(readFileSync(`${LOCALES}${lng}/${ns}.json`, 'utf8')) as object);

describe('the catalogs', () => {
  it('are one file per language and namespace, and nothing else', () => {
    for (const lng of LANGUAGES) {
      expect(readdirSync(`${LOCALES}${lng}`).sort()).toEqual(NAMESPACES.map((ns) => `${ns}.json`).sort());
    }
  });

  for (const lng of LANGUAGES.filter((l) => l !== 'en')) {
    it(`have every English text in ${lng}, not empty, with the same values and every plural form`, () => {
      const categories = new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
      const problems: string[] = [];
      for (const ns of NAMESPACES) {
        const texts = catalog(lng, ns);
        for (const [key, text] of catalog('en', ns)) {
          const keys = PLURAL.test(key) ? categories.map((c) => `${key.replace(PLURAL, '')}_${c}`) : [key];
          for (const k of keys) {
            const translated = texts.get(k);
            // A text English leaves empty (a unit-less value) may be empty in every language.
            if (translated === undefined || (!translated.trim() && text.trim())) problems.push(`${ns}:${k} missing`);
            else if (variables(translated).join() !== variables(text).join()) problems.push(`${ns}:${k} other values`);
          }
        }
        for (const key of texts.keys()) {
          const base = key.replace(PLURAL, '');
          if (![...catalog('en', ns).keys()].some((k) => k === key || k.replace(PLURAL, '') === base)) {
            problems.push(`${ns}:${key} not in English`);
          }
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
