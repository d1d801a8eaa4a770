import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/data-dir.js';
import { SERVICE_MIGRATIONS } from '../src/service-migrations.js';
import { SERVICES } from '../src/services.js';

// A first embedded start creates its database, migrations included, before the platform's code loads (ADR 223).
describe('the embedded runner on a first start', () => {
  it("lists every service's schema and migrations folder as the services declare them, in start order", async () => {
    const declared = await Promise.all(
      SERVICES.flatMap((s) => (s.db ? [s.db] : [])).map(async (db) => ({
        schema: db.schema,
        migrationsFolder: await realpath(db.migrationsFolder),
      })),
    );
    const listed = await Promise.all(
      SERVICE_MIGRATIONS.map(async (m) => ({ schema: m.schema, migrationsFolder: await realpath(m.migrationsFolder) })),
    );
    expect(listed).toEqual(declared);
  });

  it('creates the database before it loads the platform: its only static imports are the database package and two small modules', async () => {
    const source = await readFile(join(REPO_ROOT, 'scripts', 'src', 'embedded.ts'), 'utf8');
    const staticImports = [...source.matchAll(/^import\s[^;]*?from\s+'([^']+)';/gms)].map((m) => m[1]);
    expect(staticImports.sort()).toEqual(['./data-dir.js', './service-migrations.js', '@rootline/db']);
    const created = source.indexOf('await createEmbeddedDatabase(');
    expect(created).toBeGreaterThan(0);
    for (const later of ["import('@rootline/host')", "import('./embedded-host.js')"]) {
      expect(source.indexOf(later)).toBeGreaterThan(created);
    }
  });
});
