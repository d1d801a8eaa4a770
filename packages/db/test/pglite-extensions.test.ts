import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlace, type Place, rowsOf } from './harness.js';

// Migrations run unchanged on PostgreSQL and PGlite, so every extension a migration creates must be loaded into
// PGlite when it is constructed (openDatabase does it).
describe('openDatabase on pglite, contrib extensions', () => {
  let place: Place;

  beforeAll(async () => {
    place = await createPlace('pglite');
  });

  afterAll(async () => {
    await place?.remove();
  });

  it('can create pg_trgm, and a directory where it was created opens again with its trigram index usable', async () => {
    const first = await place.open();
    await first.db.execute(sql`create extension if not exists pg_trgm`);
    await first.db.execute(sql`create table words (w text not null)`);
    await first.db.execute(sql`create index words_trgm_idx on words using gin (w gin_trgm_ops)`);
    await first.db.execute(sql`insert into words values ('crème de menthe'), ('spearmint'), ('basil')`);
    await first.close();

    const again = await place.open();
    try {
      await again.db.execute(sql`set enable_seqscan = off`);
      const plan = await rowsOf<{ 'QUERY PLAN': string }>(
        again,
        sql`explain select w from words where w like ${'%enth%'}`,
      );
      expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain('words_trgm_idx');
      const found = await rowsOf<{ w: string }>(again, sql`select w from words where w like ${'%enth%'}`);
      expect(found).toEqual([{ w: 'crème de menthe' }]);
    } finally {
      await again.close();
    }
    // Two embedded databases started one after the other: each start runs PostgreSQL's WebAssembly build, which
    // takes many seconds of CPU on a busy two-core machine.
  }, 90_000);
});
