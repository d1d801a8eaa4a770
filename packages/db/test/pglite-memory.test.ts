import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/index.js';

const FIRST_OPEN = fileURLToPath(new URL('./fixtures/first-open.ts', import.meta.url));

describe('embedded database memory', () => {
  let dir: string;
  let database: Database;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rootline-pglite-memory-'));
    database = await openDatabase({ dataDir: dir });
  });
  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  // Regression: PostgreSQL's default 128 MB of shared buffers inside PGlite's never-shrinking memory.
  it('runs PGlite with a small buffer pool, and the defaults PGlite starts with', async () => {
    const rows = (await database.db.execute(
      sql`select name, setting, unit from pg_settings where name in ('shared_buffers', 'max_worker_processes')`,
    )) as unknown as { rows?: { name: string; setting: string; unit: string | null }[] };
    const list = Array.isArray(rows) ? rows : (rows.rows ?? []);
    const byName = Object.fromEntries(list.map((r) => [r.name, r]));
    expect(Number(byName.shared_buffers?.setting) * 8).toBe(16 * 1024); // 8 kB pages
    expect(byName.max_worker_processes?.setting).toBe('0');
  });
});

describe('a first start on an empty data directory', () => {
  let dir: string;
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // initdb inside the process grew PGlite's never-shrinking memory to some 340 MiB, kept for as long as it ran;
  // opening an existing database takes about 170 MiB.
  it('creates the database files in a child process, so the first start holds no more memory than later ones', async () => {
    dir = await mkdtemp(join(tmpdir(), 'rootline-pglite-first-'));
    const rssMiB = async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--conditions=development', '--import', 'tsx', FIRST_OPEN, dir],
        { cwd: fileURLToPath(new URL('..', import.meta.url)) },
      );
      return Number(stdout.trim());
    };
    const first = await rssMiB();
    expect(existsSync(join(dir, 'pglite', 'PG_VERSION'))).toBe(true);
    const warm = await rssMiB();
    expect(first).toBeLessThan(260);
    expect(first).toBeLessThan(warm + 60);
  }, 120_000);
});
