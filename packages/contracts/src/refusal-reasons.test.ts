import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { CROP_BATCH_STATES } from './farm-batches.js';
import { REFUSAL_REASON_TEXTS, REFUSAL_REASONS } from './refusal-reasons.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

/** The sources of the services and packages, tests and generated code aside. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'generated' ? [] : sources(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

const roots = ['services', 'packages'].flatMap((top) =>
  readdirSync(join(ROOT, top))
    .map((name) => join(ROOT, top, name, 'src'))
    .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory()),
);
const code = roots
  .flatMap(sources)
  .filter((path) => !path.endsWith('refusal-reasons.ts'))
  .map((path) => readFileSync(path, 'utf8'))
  .join('\n');

describe('refusal reasons', () => {
  it('are stable codes with a description each', () => {
    for (const reason of REFUSAL_REASONS) {
      expect(reason).toMatch(/^[a-z][a-z-]*$|^[A-Z][A-Z_]*$/);
      expect(REFUSAL_REASON_TEXTS[reason].length).toBeGreaterThan(5);
    }
  });

  it('each is given by a refusal in the sources (no reason is left over)', () => {
    const batch = new Set([...CROP_BATCH_STATES, 'harvesting'].map((s) => `batch-${s}`));
    const unused = REFUSAL_REASONS.filter((r) => !batch.has(r) && !code.includes(`'${r}'`));
    expect(unused).toEqual([]);
  });

  it('are each documented in docs/languages.md', () => {
    const doc = readFileSync(join(ROOT, 'docs/languages.md'), 'utf8');
    expect(REFUSAL_REASONS.filter((r) => !doc.includes(`\`${r}\``))).toEqual([]);
  });

  it('an AppError names only a listed reason', () => {
    // @ts-expect-error: a reason outside REFUSAL_REASONS does not compile
    const unlisted = new AppError('FORBIDDEN', 'No', { reason: 'no-such-reason' });
    expect(new AppError('FORBIDDEN', 'No', { reason: 'not-owner' }).toBody().details).toEqual({ reason: 'not-owner' });
    expect(unlisted.code).toBe('FORBIDDEN');
  });
});
