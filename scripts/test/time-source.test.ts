import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/data-dir.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name));
}

describe('time source of the services', () => {
  // Wall-clock time comes from ctx.clock (tests pass a fixed one); elapsed time from performance.now().
  it('no service source reads the system clock directly', () => {
    const services = join(REPO_ROOT, 'services');
    const offenders = readdirSync(services)
      .flatMap((name) => sources(join(services, name, 'src')))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${relative(REPO_ROOT, file)}:${i + 1}` }))
          .filter(({ line }) => /Date\.now\(\)|new Date\(\)/.test(line)),
      )
      .map(({ at, line }) => `${at}: ${line.trim()}`);
    expect(offenders).toEqual([]);
  });
});
