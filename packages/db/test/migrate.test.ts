import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSchema } from '../src/migrate.js';
import { createEmbeddedDatabase, openDatabase } from '../src/open.js';
import type { Database } from '../src/types.js';
import { widgets } from './fixtures/schema.js';
import { createPlace, DRIVERS, FIXTURE, type Place, rowsOf } from './harness.js';

const appliedCount = async (database: Database, schema = 'dbtest') =>
  Number(
    (
      await rowsOf<{ n: number }>(
        database,
        sql`select count(*) as n from ${sql.identifier('drizzle')}.${sql.identifier(`${schema}_migrations`)}`,
      )
    )[0]?.n,
  );

describe.each(DRIVERS)('migrateSchema on %s', (driver) => {
  let place: Place;
  let database: Database;

  beforeAll(async () => {
    place = await createPlace(driver);
    database = await place.open();
  });

  afterAll(async () => {
    await database?.close();
    await place?.remove();
  });

  it('applies the migrations once and is a no-op when run again', async () => {
    await migrateSchema(database, FIXTURE);
    expect(await appliedCount(database)).toBe(2);
    await database.db.insert(widgets).values({ id: 'w1', name: 'first', colour: 'green' });

    await migrateSchema(database, FIXTURE);
    expect(await appliedCount(database)).toBe(2);
    expect(await database.db.select().from(widgets)).toEqual([{ id: 'w1', name: 'first', size: 1, colour: 'green' }]);
  });

  it('keeps its bookkeeping outside the service schema', async () => {
    const tables = await rowsOf<{ table_schema: string; table_name: string }>(
      database,
      sql`select table_schema, table_name from information_schema.tables
          where table_schema in ('dbtest', 'drizzle') order by 1, 2`,
    );
    expect(tables.map((t) => `${t.table_schema}.${t.table_name}`)).toEqual([
      'dbtest.outbox',
      'dbtest.widgets',
      'drizzle.dbtest_migrations',
    ]);
  });

  it('serialises concurrent runs in one process', async () => {
    await expect(
      Promise.all([migrateSchema(database, FIXTURE), migrateSchema(database, FIXTURE)]),
    ).resolves.toHaveLength(2);
    expect(await appliedCount(database)).toBe(2);
  });
});

describe('migrateSchema on pglite, a schema already up to date', () => {
  let dir: string;
  let database: Database;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rl-migrations-pglite-'));
    database = await openDatabase({ dataDir: join(dir, 'data') });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("reads no migration's SQL once the newest is recorded, and applies a migration added later", async () => {
    const folder = join(dir, 'svc_fast');
    await writeMigrations(folder, 'svc_fast');
    const opts = { schema: 'svc_fast', migrationsFolder: folder };
    await migrateSchema(database, opts);
    expect(await appliedCount(database, 'svc_fast')).toBe(1);

    // Up to date: drizzle's migrator would read every SQL file of the journal, and fail on the one removed.
    await rm(join(folder, '0000_init.sql'));
    await migrateSchema(database, opts);
    expect(await appliedCount(database, 'svc_fast')).toBe(1);

    // A newer migration in the journal is applied, as drizzle's migrator decides.
    await writeMigrations(folder, 'svc_fast');
    await writeFile(
      join(folder, '0001_more.sql'),
      'CREATE TABLE "svc_fast"."more" ("id" text PRIMARY KEY NOT NULL);\n',
    );
    const journal = JSON.parse(await readFile(join(folder, 'meta', '_journal.json'), 'utf8'));
    journal.entries.push({ idx: 1, version: '7', when: 1_700_000_100_000, tag: '0001_more', breakpoints: true });
    await writeFile(join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
    await migrateSchema(database, opts);
    expect(await appliedCount(database, 'svc_fast')).toBe(2);
    const tables = await rowsOf<{ table_name: string }>(
      database,
      sql`select table_name from information_schema.tables where table_schema = 'svc_fast' order by 1`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(['more', 'things']);
  }, 120_000);
});

describe('migrateSchema on postgres, replicas starting together', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rl-migrations-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lets several Database objects migrate one schema at once; all succeed, each migration applied once', async () => {
    const pg = await createTestDatabase('rl_db');
    const replicas = await Promise.all([1, 2, 3].map(() => openDatabase({ url: pg.url, dataDir: dir })));
    try {
      await Promise.all(replicas.map((r) => migrateSchema(r, FIXTURE)));
      expect(await appliedCount(replicas[0]!)).toBe(2);
      await replicas[1]!.db.insert(widgets).values({ id: 'w1', name: 'ok' });
    } finally {
      await Promise.all(replicas.map((r) => r.close()));
      await pg.drop();
    }
  });

  /** Each schema's one migration (with `before` first) run from a Database of its own, all at once. */
  async function migrateServicesAtOnce(schemas: string[], before = ''): Promise<void> {
    for (const schema of schemas) await writeMigrations(join(dir, schema), schema, before);
    const pg = await createTestDatabase('rl_db');
    const databases = await Promise.all(schemas.map(() => openDatabase({ url: pg.url, dataDir: dir })));
    try {
      await Promise.all(
        schemas.map((schema, i) => migrateSchema(databases[i]!, { schema, migrationsFolder: join(dir, schema) })),
      );
      for (const schema of schemas) expect(await appliedCount(databases[0]!, schema)).toBe(1);
    } finally {
      await Promise.all(databases.map((d) => d.close()));
      await pg.drop();
    }
  }

  it('lets different services create the shared bookkeeping schema at the same moment', async () => {
    await migrateServicesAtOnce(['svc_a', 'svc_b', 'svc_c', 'svc_d']);
  });

  // A cluster's first start on an empty database: plants and demand both create pg_trgm, and one of them failed
  // (duplicate key in pg_extension) while the other created it.
  it('lets different services create the same extension at the same moment', async () => {
    await migrateServicesAtOnce(
      ['ext_a', 'ext_b', 'ext_c', 'ext_d'],
      'CREATE EXTENSION IF NOT EXISTS pg_trgm;\n--> statement-breakpoint\n',
    );
  });
});

/** A one-migration folder in drizzle-kit's layout for `schema`, optionally with statements run first. */
async function writeMigrations(folder: string, schema: string, before = ''): Promise<void> {
  await mkdir(join(folder, 'meta'), { recursive: true });
  await writeFile(
    join(folder, '0000_init.sql'),
    `${before}CREATE SCHEMA "${schema}";\n--> statement-breakpoint\nCREATE TABLE "${schema}"."things" ("id" text PRIMARY KEY NOT NULL);\n`,
  );
  const journal = {
    version: '7',
    dialect: 'postgresql',
    entries: [{ idx: 0, version: '7', when: 1_700_000_000_000, tag: '0000_init', breakpoints: true }],
  };
  await writeFile(join(folder, 'meta', '_journal.json'), JSON.stringify(journal, null, 2));
}

describe('a new embedded database opened with its migrations', () => {
  it('gets them where its files are created, in the child process, and migrateSchema then applies none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rootline-initdb-migrations-'));
    try {
      const database = await openDatabase({ dataDir: dir, migrations: [FIXTURE] });
      try {
        expect(await appliedCount(database)).toBe(2);
        await database.db.insert(widgets).values({ id: 'w1', name: 'first', colour: 'green' });
        await migrateSchema(database, FIXTURE);
        expect(await appliedCount(database)).toBe(2);
      } finally {
        await database.close();
      }
      // An existing database is not migrated when opened: that stays migrateSchema's work.
      const other = { schema: 'dbtest_other', migrationsFolder: FIXTURE.migrationsFolder };
      const reopened = await openDatabase({ dataDir: dir, migrations: [other] });
      try {
        await expect(appliedCount(reopened, 'dbtest_other')).rejects.toThrow();
      } finally {
        await reopened.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('createEmbeddedDatabase', () => {
  it('creates a new database with its migrations where its files are made, and leaves an existing one alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rootline-create-embedded-'));
    try {
      expect(await createEmbeddedDatabase({ dataDir: dir, migrations: [FIXTURE] })).toBe(true);
      expect(await createEmbeddedDatabase({ dataDir: dir, migrations: [FIXTURE] })).toBe(false);
      // Opened afterwards as any existing database is: its migrations are there, and migrateSchema applies none.
      const database = await openDatabase({ dataDir: dir });
      try {
        expect(await appliedCount(database)).toBe(2);
        await migrateSchema(database, FIXTURE);
        expect(await appliedCount(database)).toBe(2);
        // While it is open, a second creation finds it and does nothing.
        expect(await createEmbeddedDatabase({ dataDir: dir, migrations: [FIXTURE] })).toBe(false);
      } finally {
        await database.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a new data directory that another live process holds', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rootline-create-embedded-'));
    try {
      // This test's own parent (the test runner) is alive and is not this process.
      await writeFile(join(dir, 'pglite.lock'), String(process.ppid));
      await expect(createEmbeddedDatabase({ dataDir: dir, migrations: [FIXTURE] })).rejects.toThrow(
        /in use by process/,
      );
      await expect(readdir(join(dir, 'pglite'))).resolves.toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
