import { describe, expect, it } from 'vitest';
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
