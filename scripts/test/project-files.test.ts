import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/data-dir.js';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

/** Every workspace package.json (the root, packages/*, services/*, scripts). */
function packageFiles(): string[] {
  const under = (dir: string) => readdirSync(join(REPO_ROOT, dir)).map((name) => `${dir}/${name}/package.json`);
  return ['package.json', 'scripts/package.json', ...under('packages'), ...under('services')];
}

describe("an open project's files", () => {
  it('carries the Apache License 2.0, named in every package.json', () => {
    expect(read('LICENSE')).toMatch(/Apache License\s+Version 2\.0, January 2004/);
    for (const file of packageFiles()) expect(JSON.parse(read(file)).license, file).toBe('Apache-2.0');
  });

  it('has a changelog in the Keep a Changelog form, a contributing guide and a security policy', () => {
    const changelog = read('CHANGELOG.md');
    expect(changelog).toContain('[Keep a Changelog](https://keepachangelog.com/');
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
    expect(changelog).toMatch(/^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/m);
    expect(read('CONTRIBUTING.md')).toContain('pnpm docs:config');
    expect(read('SECURITY.md')).toMatch(/## Reporting a vulnerability/);
  });
});
