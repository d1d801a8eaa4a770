import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, labelWithUnit, optionLabel, readableValue } from './fields';

/** Keys built from the API's names are not checked by the compiler: every one the pages ask for must be in English. */
describe('the environment fields in the catalog', () => {
  it('names every category, field, unit in words and choice', () => {
    const missing: string[] = [];
    const need = (key: string) => {
      if (!i18next.exists(key, { lng: 'en' })) missing.push(key);
    };
    for (const c of CATEGORIES) {
      need(`environment:categories.${c.key}.title`);
      need(`environment:categories.${c.key}.inText`);
      for (const f of c.fields) {
        need(`environment:fields.${c.key}.${f.path.join('.')}`);
        for (const o of f.options ?? []) need(`environment:options.${c.key}.${f.path.join('.')}.${o}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('reads labels, units and choices in the language shown', async () => {
    const climate = CATEGORIES.find((c) => c.key === 'climate')!;
    const temperature = climate.fields.find((f) => f.path[0] === 'temperatureC')!;
    const lighting = CATEGORIES.find((c) => c.key === 'lighting')!;
    const hours = lighting.fields.find((f) => f.path[0] === 'hoursPerDay')!;
    const soil = CATEGORIES.find((c) => c.key === 'soil')!;
    const type = soil.fields.find((f) => f.path[0] === 'type')!;
    expect(labelWithUnit(temperature)).toBe('Temperature (°C)');
    expect(labelWithUnit(hours)).toBe('Light per day (hours)');
    expect(optionLabel('soil', type, 'potting-mix')).toBe('potting mix');
    expect(readableValue('climate', temperature, 21.5)).toBe('21.5');

    i18next.addResourceBundle('de', 'environment', (await import('../../../locales/de/environment.json')).default);
    await i18next.changeLanguage('de');
    try {
      expect(labelWithUnit(hours)).toBe('Licht pro Tag (Stunden)');
      expect(optionLabel('soil', type, 'potting-mix')).toBe('Blumenerde');
      expect(readableValue('climate', temperature, 21.5)).toBe('21,5');
      expect(climate.inText).toBe('Klima');
    } finally {
      await i18next.changeLanguage('en');
    }
  });
});
