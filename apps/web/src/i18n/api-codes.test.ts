import { readFileSync } from 'node:fs';
import { CROP_REASON_CODES } from '@rootline/contracts/demand';
import { ADVICE_CODES } from '@rootline/contracts/environment-insights';
import { LISTING_REASON_CODES } from '@rootline/contracts/marketplace';
import i18next from 'i18next';
import { afterAll, describe, expect, it } from 'vitest';
import { type CropReason, DEMAND } from '../features/demand/strings';
import { ENVIRONMENT } from '../features/environment/strings';
import { type ListingReason, listingReason } from '../features/market/lib/reasons';
import { LANGUAGES } from './languages';

/**
 * The API names advice and reasons by codes and the app words them (ADR 255). The codes are read from the contracts,
 * so a code added there fails here until every language has its sentence.
 */
const LOCALES = new URL('../locales/', import.meta.url).pathname;
const catalog = (lng: string, ns: string) =>
  JSON.parse(readFileSync(`${LOCALES}${lng}/${ns}.json`, 'utf8')) as Record<string, unknown>;

/** The text at a dotted key (a code's dots are levels of the catalog); a plural key counts by its `_other` form. */
function textAt(tree: Record<string, unknown>, key: string): unknown {
  const parts = key.split('.');
  const last = parts.pop() as string;
  let node: unknown = tree;
  for (const part of parts) node = (node as Record<string, unknown> | undefined)?.[part];
  const leaf = node as Record<string, unknown> | undefined;
  return leaf?.[last] ?? leaf?.[`${last}_other`];
}

const SOURCES = [
  { ns: 'environment', prefix: 'advice', codes: ADVICE_CODES },
  { ns: 'demand', prefix: 'recommend.reasons', codes: CROP_REASON_CODES },
  { ns: 'market', prefix: 'recommendations.reasons', codes: LISTING_REASON_CODES },
] as const;

/** One reason of each code with plausible values; the type fails to compile while a code has none. */
const CROP_REASONS: { [C in CropReason['code']]: Extract<CropReason, { code: C }> } = {
  'not-grown': { code: 'not-grown', params: { crop: 'microgreens', method: 'open-field' } },
  'not-sowable': { code: 'not-sowable', params: { month: 11, method: 'greenhouse' } },
  sowable: { code: 'sowable', params: { month: 4, method: 'vertical' } },
  'first-harvest': { code: 'first-harvest', params: { date: '2026-07-13', days: 80 } },
  'unmet-demand': { code: 'unmet-demand', params: { unmetKg: 1234.5, weeks: 4, wantedKg: 1500, committedKg: 265.5 } },
  withheld: { code: 'withheld', params: { minHouseholds: 5 } },
  'expected-yield': { code: 'expected-yield', params: { yieldKg: 25, areaM2: 10, kgPerM2: 2.5 } },
  'reference-price': { code: 'reference-price', params: { pricePerKg: 3.5, currency: 'EUR' } },
  'median-price': { code: 'median-price', params: { pricePerKg: 4.2, currency: 'EUR' } },
};
const LISTING_REASONS: { [C in ListingReason['code']]: Extract<ListingReason, { code: C }> } = {
  wishlist: { code: 'wishlist', params: {} },
  preference: { code: 'preference', params: { crop: 'tomato' } },
  distance: { code: 'distance', params: { km: 3.2 } },
};

describe('the codes the API words its advice and reasons by', () => {
  // The marketplace's strings module reads the API client, which needs a browser: its catalog is added here.
  i18next.addResourceBundle('en', 'market', catalog('en', 'market'));
  afterAll(() => i18next.changeLanguage('en'));

  it('are read from the contracts', () => {
    expect(ADVICE_CODES).toContain('soil.ph.too-high');
    expect(ADVICE_CODES).toHaveLength(21);
    expect([...CROP_REASON_CODES].sort()).toEqual(Object.keys(CROP_REASONS).sort());
    expect([...LISTING_REASON_CODES].sort()).toEqual(Object.keys(LISTING_REASONS).sort());
  });

  for (const lng of LANGUAGES) {
    it(`each have a sentence in ${lng}`, () => {
      const missing: string[] = [];
      for (const { ns, prefix, codes } of SOURCES) {
        const tree = catalog(lng, ns);
        for (const code of codes) {
          const text = textAt(tree, `${prefix}.${code}`);
          if (typeof text !== 'string' || !text.trim()) missing.push(`${ns}:${prefix}.${code}`);
        }
      }
      expect(missing).toEqual([]);
    });
  }

  it('are worded in the language shown, with the values written its way', async () => {
    const S = ENVIRONMENT.panel;
    expect(S.advice('soil.ph.too-high')).toMatch(/^Lower the soil pH/);
    expect(DEMAND.recommend.reason(CROP_REASONS['unmet-demand'])).toBe(
      '1,234.5 kg of unmet demand nearby over 4 harvest weeks (1,500 kg wanted, 265.5 kg committed)',
    );
    expect(DEMAND.recommend.reason(CROP_REASONS['not-grown'])).toBe('microgreens is not grown in the open field');
    expect(DEMAND.recommend.reason(CROP_REASONS['first-harvest'])).toBe('First harvest on Jul 13, 2026, after 80 days');
    expect(listingReason(LISTING_REASONS.distance)).toBe('3.2 km away');

    for (const lng of LANGUAGES.filter((l) => l !== 'en')) {
      for (const ns of ['environment', 'demand', 'market']) i18next.addResourceBundle(lng, ns, catalog(lng, ns));
    }
    await i18next.changeLanguage('de');
    expect(S.advice('soil.ph.too-high')).toMatch(/^Boden-pH senken/);
    expect(S.unit('h/day')).toBe('h/Tag');
    expect(S.unit('°C')).toBe('°C');
    expect(DEMAND.recommend.reason(CROP_REASONS['unmet-demand'])).toBe(
      '1.234,5 kg ungedeckte Nachfrage in der Nähe über 4 Erntewochen (1.500 kg gewünscht, 265,5 kg zugesagt)',
    );
    expect(DEMAND.recommend.reason(CROP_REASONS['reference-price'])).toBe('Referenzpreis 3,50\u00a0€ pro kg');
    expect(listingReason(LISTING_REASONS.distance)).toBe('3,2 km entfernt');

    // Every code of every language reads as a sentence: no key, no value left unfilled.
    for (const lng of LANGUAGES) {
      await i18next.changeLanguage(lng);
      const sentences = [
        ...ADVICE_CODES.map((code) => S.advice(code)),
        ...Object.values(CROP_REASONS).map((r) => DEMAND.recommend.reason(r)),
        ...Object.values(LISTING_REASONS).map((r) => listingReason(r)),
      ];
      for (const sentence of sentences) {
        expect(sentence, lng).not.toMatch(/\{\{|advice\.|reasons\.|methodInText/);
        expect(sentence.length, lng).toBeGreaterThan(5);
      }
    }
  });
});
