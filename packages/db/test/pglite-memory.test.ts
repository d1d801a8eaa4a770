import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/index.js';

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
