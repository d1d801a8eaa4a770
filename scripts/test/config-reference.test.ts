import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_DOC,
  configSections,
  ENV_EXAMPLE,
  environmentReads,
  renderConfigReference,
} from '../src/config-reference.js';
import { REPO_ROOT } from '../src/data-dir.js';

/**
 * Variables the code reads that are not settings: PATH is the operating system's; ROOTLINE_INITDB_MIGRATIONS is how a
 * first start hands the child that creates the embedded database the migrations to apply there (packages/db).
 */
const NOT_SETTINGS = new Set(['PATH', 'ROOTLINE_INITDB_MIGRATIONS']);

const committed = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const documented = new Set(configSections().flatMap((s) => s.settings.map((x) => x.name)));

describe('configuration reference', () => {
  it('is up to date: docs/configuration.md and .env.example are what `pnpm docs:config` writes', () => {
    const fresh = renderConfigReference();
    expect(committed(CONFIG_DOC), 'run pnpm docs:config').toBe(fresh[CONFIG_DOC]);
    expect(committed(ENV_EXAMPLE), 'run pnpm docs:config').toBe(fresh[ENV_EXAMPLE]);
  });

  it('lists every variable the code reads from the environment, in both files', () => {
    const reads = environmentReads(['services', 'packages', 'scripts']);
    // The scan finds the runners' own reads, so it is known to look where settings are read.
    expect(reads.get('CHAIN_MINERS')).toEqual(['scripts/src/cluster.ts']);
    const missing = [...reads.keys()].filter((name) => !NOT_SETTINGS.has(name) && !documented.has(name));
    expect(missing, `read in ${missing.map((m) => reads.get(m)).join('; ')}`).toEqual([]);
    const doc = committed(CONFIG_DOC);
    const example = committed(ENV_EXAMPLE);
    for (const name of documented) {
      expect(doc, name).toMatch(new RegExp(`^\\| \`${name}\` +\\|`, 'm'));
      expect(example, name).toMatch(new RegExp(`^(# )?${name}=`, 'm'));
    }
  });

  it('lists every variable docker-compose.yml fills in', () => {
    const used = new Set([...committed('docker-compose.yml').matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
    expect([...used].filter((name) => !documented.has(name as string))).toEqual([]);
  });

  it('gives every setting a meaning and the default its schema declares', () => {
    const sections = configSections();
    for (const s of sections.flatMap((sec) => sec.settings)) expect(s.description, s.name).not.toBe('');
    const gateway = sections.find((s) => s.title === 'gateway')?.settings ?? [];
    expect(gateway.find((s) => s.name === 'RATE_LIMIT_PER_MINUTE')?.default).toBe('100');
    expect(gateway.find((s) => s.name === 'JWT_SECRET')?.default).toBe('required');
    expect(gateway.find((s) => s.name === 'PUBLIC_URL')?.description).toContain('Required in cluster mode');
  });
});
