// Creates an embedded database's files (PostgreSQL's initdb inside PGlite) in a process of its own, then exits.
// PGlite's WebAssembly memory never shrinks, and initdb grows it to about twice what a running database needs:
// run in the embedded process itself, a first start kept some 180 MiB more for as long as it ran
// (docs/perf/startup.md). Plain JavaScript, so it runs under plain node from the sources and from dist/.
// With ROOTLINE_INITDB_MIGRATIONS (JSON: drizzle migration configs, in order) it applies those migrations too: their
// DDL grows the memory as well, by some 10 MiB.
//   node pglite-initdb.mjs <directory> <start parameter>...
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const [dir, ...startParams] = process.argv.slice(2);
const pg = await PGlite.create(dir, { extensions: { pg_trgm }, startParams });
const migrations = JSON.parse(process.env.ROOTLINE_INITDB_MIGRATIONS || '[]');
if (migrations.length > 0) {
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const db = drizzle(pg);
  for (const config of migrations) await migrate(db, config);
}
await pg.close();
