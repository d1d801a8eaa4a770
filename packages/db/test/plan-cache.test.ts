import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/open.js';
import { fixedStatement } from '../src/prepared.js';
import { analyzeGrownTables } from '../src/statistics.js';
import type { Database } from '../src/types.js';
import { rowsOf } from './harness.js';

const SCHEMA = 'plantest';

/** A read by primary key and a look-up of a list of keys, as the repositories write them (ADR 100). */
const BY_ID = sql`select id, owner from plantest.items where id = ${sql.placeholder('id')}`;
const BY_IDS = sql`select id from plantest.items
  where id = any(array(select jsonb_array_elements_text(${sql.placeholder('ids')}::jsonb)))`;
const byId = fixedStatement('plantest_item_by_id', BY_ID);
const byIds = fixedStatement('plantest_items_by_ids', BY_IDS);

/** Adds rows, and has the session report its table counters now rather than within the next second. */
async function insertItems(database: Database, from: number, to: number): Promise<void> {
  await database.db.execute(sql`insert into plantest.items (id, owner, payload)
    select 'itm_' || lpad(g::text, 8, '0'), 'usr_' || (g % 50), repeat('x', 200) from generate_series(${from}::int, ${to}::int) g`);
  await database.db.execute(sql`select pg_stat_force_next_flush()`);
}

/** The plan the session's cached statement (found by its text) runs with these parameters, as EXPLAIN shows it. */
async function planOf(database: Database, text: string, parameter: string): Promise<string> {
  const [statement] = await rowsOf<{ name: string }>(
    database,
    sql`select name from pg_prepared_statements where statement = ${text}`,
  );
  if (!statement) throw new Error(`not prepared on this connection: ${text}`);
  const lines = await rowsOf<{ 'QUERY PLAN': string }>(
    database,
    sql`explain (costs off) execute ${sql.identifier(statement.name)}(${sql.raw(`'${parameter.replaceAll("'", "''")}'`)})`,
  );
  return lines.map((l) => l['QUERY PLAN']).join('\n');
}

/** Plans made so far for a cached statement: custom ones, and executions on the generic one. */
async function plansOf(database: Database, text: string): Promise<{ custom: number; generic: number }> {
  const [row] = await rowsOf<{ custom_plans: string; generic_plans: string }>(
    database,
    sql`select custom_plans, generic_plans from pg_prepared_statements where statement = ${text}`,
  );
  return { custom: Number(row?.custom_plans ?? 0), generic: Number(row?.generic_plans ?? 0) };
}

// ADR 100 was written for a generic plan made while a table was small (a sequential scan) that stayed while the
// table grew. Connections now keep PostgreSQL's plan cache (ADR 125); the plan is made again when the table's
// statistics are refreshed after it grew.
describe('prepared statements on PostgreSQL, a table that grows after its plan was made', () => {
  let pg: TestDatabase;
  let database: Database;
  let dataDir: string;

  beforeAll(async () => {
    pg = await createTestDatabase('rl_plan');
    dataDir = await mkdtemp(join(tmpdir(), 'rl-plan-'));
    // One connection, so every statement and every look-up of the plan cache runs in the same session.
    database = await openDatabase({ url: pg.url, dataDir, max: 1 });
    await database.db.execute(sql`create schema ${sql.identifier(SCHEMA)}`);
    await database.db.execute(
      sql`create table plantest.items (id text primary key, owner text not null, payload text)`,
    );
  });
  afterAll(async () => {
    await database?.close();
    await pg?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('scans the whole table while stale, and reads the index once the grown table is analyzed', async () => {
    // The worst case of ADR 100: a small table, analyzed, and the statements run until they settle on a generic plan.
    await insertItems(database, 1, 20);
    await database.db.execute(sql`analyze plantest.items`);
    for (let i = 0; i < 8; i++) {
      await byId(database.db, { id: 'itm_00000003' });
      await byIds(database.db, { ids: JSON.stringify(['itm_00000003', 'itm_00000004']) });
    }
    // The statements' texts as PostgreSQL keeps them in `pg_prepared_statements`.
    const idText = byId.text({ id: '' }).text;
    const idsText = byIds.text({ ids: '[]' }).text;
    const settled = await plansOf(database, idText);
    expect(settled.generic).toBeGreaterThan(0);
    expect(await planOf(database, idText, 'itm_00000003')).toContain('Seq Scan on items');

    await insertItems(database, 21, 30_000);
    // Nothing told PostgreSQL the table grew: the cached generic plan still reads all 30,000 rows on every call.
    expect(await planOf(database, idText, 'itm_00000003')).toContain('Seq Scan on items');
    expect(await planOf(database, idsText, '["itm_00000003"]')).toContain('Seq Scan on items');

    expect(await analyzeGrownTables(database, SCHEMA)).toEqual(['items']);

    expect(await planOf(database, idText, 'itm_00000003')).not.toContain('Seq Scan');
    expect(await planOf(database, idText, 'itm_00000003')).toContain('Index Scan using items_pkey');
    expect(await planOf(database, idsText, '["itm_00000003"]')).not.toContain('Seq Scan on items');
    const [row] = await byId<{ id: string }>(database.db, { id: 'itm_00029999' });
    expect(row?.id).toBe('itm_00029999');
    // PostgreSQL compares the new generic plan with the custom plans made so far and may make a few more first;
    // then it settles on the generic plan again instead of planning at every run.
    for (let i = 0; i < 10; i++) await byId(database.db, { id: 'itm_00000005' });
    const resettled = await plansOf(database, idText);
    for (let i = 0; i < 10; i++) await byId(database.db, { id: 'itm_00000005' });
    const after = await plansOf(database, idText);
    expect(after.custom).toBe(resettled.custom);
    expect(after.generic).toBe(resettled.generic + 10);
  });

  it('leaves a table that changes without growing alone, as a queue does', async () => {
    expect(await analyzeGrownTables(database, SCHEMA)).toEqual([]);
    // 5,000 rows in and out again, in place: far more changes than a tenth of the table, no growth.
    for (let round = 0; round < 5; round++) {
      await insertItems(database, 40_001, 41_000);
      await database.db.execute(sql`delete from plantest.items where id >= 'itm_00040001'`);
      await database.db.execute(sql`select pg_stat_force_next_flush()`);
    }
    expect(await analyzeGrownTables(database, SCHEMA)).toEqual([]);
  });

  it('leaves a table alone until it grew by more than 50 rows and a tenth of its size', async () => {
    expect(await analyzeGrownTables(database, SCHEMA)).toEqual([]);
    await insertItems(database, 30_001, 32_000);
    expect(await analyzeGrownTables(database, SCHEMA)).toEqual([]);
    await insertItems(database, 32_001, 33_200);
    expect(await analyzeGrownTables(database, SCHEMA)).toEqual(['items']);
  });
});
