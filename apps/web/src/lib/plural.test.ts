import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { t } from '../i18n';
import '../features/plants/strings';
import { LANGUAGES } from '../i18n/languages';
import { NAMESPACES } from '../i18n/resources';
import { countOf } from './plural';

describe('countOf', () => {
  it('says 1 event, 2 events and 0 events', () => {
    expect(countOf(1, 'event')).toBe('1 event');
    expect(countOf(2, 'event')).toBe('2 events');
    expect(countOf(0, 'event')).toBe('0 events');
  });
  it('takes an irregular plural', () => {
    expect(countOf(1, 'match', 'matches')).toBe('1 match');
    expect(countOf(3, 'match', 'matches')).toBe('3 matches');
  });
});

describe('plurals of the translated texts', () => {
  it('go through i18next, which picks the form by Intl.PluralRules in each language', async () => {
    for (const lng of LANGUAGES.filter((l) => l !== 'en')) {
      const { default: plants } = await import(`../locales/${lng}/plants.json`);
      i18next.addResourceBundle(lng, 'plants', plants, true, true);
    }
    const chosen = (count: number, lng: string) => t('plants:mine.labels.chosen', { count, lng });
    expect([chosen(1, 'en'), chosen(2, 'en'), chosen(0, 'en')]).toEqual([
      '1 plant chosen.',
      '2 plants chosen.',
      '0 plants chosen.',
    ]);
    expect([chosen(1, 'nl'), chosen(3, 'nl')]).toEqual(['1 plant gekozen.', '3 planten gekozen.']);
    // French counts 0 and 1 in the singular; the number is written the language's way.
    expect([chosen(0, 'fr'), chosen(1234, 'fr')]).toEqual(['0 plante choisie.', '1\u202f234 plantes choisies.']);
  });

  it('are not put together from a count and a fixed noun in the translated namespaces', async () => {
    const { readFileSync } = await import('node:fs');
    const root = new URL('..', import.meta.url).pathname;
    // `app` and `common` are the frame's and the shared components' texts (app/strings.ts, lib/strings.ts).
    const converted = NAMESPACES.filter((ns) => ns !== 'app' && ns !== 'common').map(
      (ns) => `${root}features/${ns}/strings.ts`,
    );
    converted.push(`${root}app/strings.ts`, `${root}lib/strings.ts`);
    const offenders = converted.filter((f) => readFileSync(f, 'utf8').includes('countOf'));
    expect(offenders).toEqual([]);
  });
});

describe('the app’s texts', () => {
  it('count things through countOf, not with a fixed plural', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const root = new URL('..', import.meta.url).pathname;
    const files = (readdirSync(root, { recursive: true }) as string[])
      .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts'))
      .map((f) => join(root, f));
    // `${n} events`, `{count} zones`, `n === 1 ? '1 offer'`: a count written beside a fixed plural noun.
    const fixed =
      /(\$\{|\{)[\w.()]+\} (events|plants|offers|listings|units|readings|alerts|zones|batches|matches|entries|blocks|transactions|households|weeks|days|crops|accounts|seconds|minutes|notifications|places|ratings|hashes|correlations|pairs|instances)\b|=== 1 \? '1 /;
    const offenders = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter((line) => fixed.test(line))
        .map((line) => `${f}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });
});
