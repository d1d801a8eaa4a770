import { type Database, executeRows, migrateSchema, openDatabase } from '@rootline/db';
import type { HandlerContext, ServiceContext } from '@rootline/host';
import { createTestDatabase, type PgWireCounter, startPgWireCounter, type TestDatabase } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPlant } from '../src/handlers/plant.js';
import { service } from '../src/service.js';

/**
 * What one read of a plant by id asks of the database once its connection is warm: one round trip (the prepared
 * statement's Bind/Execute/Sync), no parse and no planning. The read path fell to 0.58 of the bare pipeline when
 * every read was planned again (ADR 125); raise these only with a benchmark that shows the read is worth it.
 */
const READ_ROUND_TRIPS = 1;
const READ_PARSES = 0;
const READ_PLANS = 0;

const READS = 200;
const PLANTS = 300;

const call: HandlerContext = {
  requestId: 'req_read_cost',
  actor: { id: 'usr_reader', role: 'GROWER' },
} as HandlerContext;

/** The text of the prepared plant read, as PostgreSQL keeps it in `pg_prepared_statements`. */
const READ_STATEMENT = sql`statement like 'select %from "plants"."plants" p where p.id = $1'`;

/** Plans the session has made for the plant read, and its runs on the generic plan. */
async function plansOfRead(database: Database): Promise<{ custom: number; generic: number }> {
  const [row] = await executeRows<{ custom: string; generic: string }>(
    database.db,
    sql`select coalesce(sum(custom_plans), 0)::text as custom, coalesce(sum(generic_plans), 0)::text as generic
      from pg_prepared_statements where ${READ_STATEMENT}`,
  );
  return { custom: Number(row?.custom), generic: Number(row?.generic) };
}

describe('reading a plant by id, counted at the database', () => {
  let pg: TestDatabase;
  let owner: Database;
  let counter: PgWireCounter;
  let reader: Database;
  let read: (plantId: string) => Promise<unknown>;

  beforeAll(async () => {
    pg = await createTestDatabase();
    owner = await openDatabase({ url: pg.url, dataDir: '.' });
    await migrateSchema(owner, { schema: 'plants', migrationsFolder: service.db!.migrationsFolder });
    await owner.db.execute(sql`
      insert into plants.plants (id, common_name, latitude, longitude, owner_id, owner_name, block_index, block_hash, tx_id, registered_at)
      select 'plt_' || lpad(g::text, 26, '0'), 'Plant ' || g, 52, 5, 'usr_' || (g % 20), 'Owner', 0, repeat('0', 64), 'tx_' || g, now()
      from generate_series(1, ${PLANTS}::int) g`);
    // The worst case for a generic plan: the table analyzed while small.
    await owner.db.execute(sql`analyze plants.plants`);
    counter = await startPgWireCounter(pg.url);
    // One connection, so the plan cache read below is the one the reads used.
    reader = await openDatabase({ url: counter.url, dataDir: '.', max: 1 });
    const db = reader.db;
    // The service's own path: `ctx.reads`, here without a replica, as a service without DATABASE_READ_URL runs.
    const handler = getPlant({ db, reads: { run: (_call, fn) => fn(db) } } as ServiceContext);
    read = (plantId) => handler.fn({ plantId }, call);
  });
  afterAll(async () => {
    await reader?.close();
    await counter?.stop();
    await owner?.close();
    await pg?.drop();
  });

  const idOf = (i: number) => `plt_${String((i % PLANTS) + 1).padStart(26, '0')}`;

  it('makes one round trip per read, with no parse and no planning, once the connection is warm', async () => {
    // Warm: the statement is prepared and PostgreSQL settles on a generic plan (after five custom ones).
    for (let i = 0; i < 10; i++) await read(idOf(i));
    const plansBefore = await plansOfRead(reader);
    const before = counter.counts();
    for (let i = 0; i < READS; i++) {
      const plant = (await read(idOf(i))) as { id: string };
      expect(plant.id).toBe(idOf(i));
    }
    const after = counter.counts();
    const plansAfter = await plansOfRead(reader);

    expect((after.roundTrips - before.roundTrips) / READS).toBe(READ_ROUND_TRIPS);
    expect((after.parses - before.parses) / READS).toBe(READ_PARSES);
    expect(after.executes - before.executes).toBe(READS);
    expect((plansAfter.custom - plansBefore.custom) / READS).toBe(READ_PLANS);
    expect(plansAfter.generic - plansBefore.generic).toBe(READS);
  });

  it('reads a plant of a grown table by its index once the statistics are refreshed', async () => {
    await owner.db.execute(sql`
      insert into plants.plants (id, common_name, latitude, longitude, owner_id, owner_name, block_index, block_hash, tx_id, registered_at)
      select 'plt_' || lpad(g::text, 26, '0'), 'Plant ' || g, 52, 5, 'usr_' || (g % 20), 'Owner', 0, repeat('0', 64), 'tx_' || g, now()
      from generate_series(${PLANTS + 1}::int, 20000) g`);
    await owner.db.execute(sql`analyze plants.plants`);
    const [statement] = await executeRows<{ name: string }>(
      reader.db,
      sql`select name from pg_prepared_statements where ${READ_STATEMENT}`,
    );
    const plan = await executeRows<{ 'QUERY PLAN': string }>(
      reader.db,
      sql`explain (costs off) execute ${sql.identifier(statement!.name)}(${sql.raw(`'${idOf(7)}'`)})`,
    );
    const text = plan.map((l) => l['QUERY PLAN']).join('\n');
    expect(text).toContain('Index Scan using plants_pkey');
    expect(text).not.toContain('Seq Scan');
  });
});
