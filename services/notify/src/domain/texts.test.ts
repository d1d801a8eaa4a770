import { describe, expect, it } from 'vitest';
import { emailContent } from './email.js';
import { render } from './messages.js';
import { CATALOGS } from './texts.js';

const PLURAL = /_(zero|one|two|few|many|other)$/;
const variables = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();

function flatten(o: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'string') out.set(`${prefix}${k}`, v);
    else for (const [kk, vv] of flatten(v as object, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}

describe('the texts of every language', () => {
  const english = flatten(CATALOGS.en);
  for (const [lng, catalog] of Object.entries(CATALOGS).filter(([l]) => l !== 'en')) {
    it(`has every English text in ${lng}, not empty, with the same values`, () => {
      const texts = flatten(catalog);
      const categories = new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
      const problems: string[] = [];
      for (const [key, text] of english) {
        const base = key.replace(PLURAL, '');
        // A plural is complete when each form the language uses is there.
        const keys = PLURAL.test(key) ? categories.map((c) => `${base}_${c}`) : [key];
        for (const k of keys) {
          const translated = texts.get(k);
          if (!translated?.trim()) problems.push(`${k}: missing`);
          else if (variables(translated).join() !== variables(text).join()) problems.push(`${k}: other values`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});

describe('a message in the recipient’s language', () => {
  it('welcomes a Dutch account in Dutch, with a Dutch greeting', () => {
    const m = render({ name: 'welcome', params: {} }, undefined, 'nl');
    expect(m.title).toBe('Welkom bij Rootline');
    expect(emailContent(m, { name: 'Anne', publicUrl: 'https://r.example', locale: 'nl' }).text).toMatch(
      /^Hallo Anne,/,
    );
  });

  it('writes numbers and plurals the language’s way', () => {
    const params = { farmId: 'frm_1', farmName: 'Noord', batchId: 'bat_1', deviationCount: 2, metrics: ['ph'] };
    expect(render({ name: 'farm-alert', params }, undefined, 'de').body).toBe(
      '2 Messwerte der Charge bat_1 lagen außerhalb der Zielwerte (ph).',
    );
    const offer = { offerId: 'ofr_1', listingId: 'lst_1', quantity: 2, price: 1250, currency: 'EUR' };
    expect(render({ name: 'offer-made', params: offer }, undefined, 'fr').body).toContain('12,50 EUR');
  });

  it('tells of an organization change in the reader’s language, its roles and the unknown member too', () => {
    const change = {
      organizationId: 'org_1',
      organizationName: 'Zaadbibliotheek',
      change: 'role-changed' as const,
      memberName: 'Grace',
      you: true,
      role: 'manager',
      previousRole: 'member',
    };
    expect(render({ name: 'organization-change', params: change }, undefined, 'de')).toEqual({
      title: 'Zaadbibliotheek: Rolle geändert',
      body: 'Du bist jetzt Verwalter von Zaadbibliotheek (vorher Mitglied).',
      link: '/organizations/org_1/members',
    });
    expect(render({ name: 'organization-change', params: { ...change, you: false } }, undefined, 'en').body).toBe(
      'Grace is now a manager of Zaadbibliotheek (was member).',
    );
    const added = { ...change, change: 'member-added' as const, you: false, previousRole: null };
    expect(render({ name: 'organization-change', params: added }, undefined, 'nl').body).toBe(
      'Grace is bij Zaadbibliotheek gekomen als beheerder.',
    );
    const left = { ...added, change: 'member-left' as const, memberName: null, role: null };
    expect(render({ name: 'organization-change', params: left }, undefined, 'es')).toMatchObject({
      title: 'Zaadbibliotheek: un miembro se fue',
      body: 'Un miembro ha salido de Zaadbibliotheek.',
    });
    const dissolved = { ...left, change: 'dissolved' as const };
    expect(render({ name: 'organization-change', params: dissolved }, undefined, 'fr')).toEqual({
      title: 'L’organisation Zaadbibliotheek a été dissoute',
      body: 'Un propriétaire ou un gestionnaire a dissous Zaadbibliotheek.',
      link: '/organizations/mine',
    });
  });

  it('writes English to an account without a language, or with one it does not know', () => {
    expect(render({ name: 'welcome', params: {} }, undefined, null).title).toBe('Welcome to Rootline');
    expect(render({ name: 'welcome', params: {} }, undefined, 'xx').title).toBe('Welcome to Rootline');
  });
});
