import { sql } from 'drizzle-orm';
import { executeRows } from './prepared.js';
import type { Database } from './types.js';

/**
 * Growth of a table's live rows past its size at the last ANALYZE before it is analyzed again: 50 rows and a tenth,
 * autovacuum's own numbers applied to growth rather than to changes.
 */
export const ANALYZE_THRESHOLD = { rows: 50, share: 0.1 } as const;

/**
 * ANALYZEs the tables of `schema` whose live rows grew by more than `ANALYZE_THRESHOLD` since their last analyze;
 * resolves to the names of the tables analyzed. PostgreSQL drops the cached plans of every statement that reads a
 * table when its statistics change, so a generic plan made while the table was small (a sequential scan) is made
 * again with its size now. Growth, not changes: a queue (an outbox, an inbox, the mempool) changes all the time and
 * stays small, and analyzing it every few seconds made PostgreSQL plan the statements that use it again each time
 * (docs/perf/get-plant.md, the write path); autovacuum still analyzes such tables by its own rule. A table another
 * session is analyzing is skipped. Nothing to do on PGlite (one user, no plan shared across connections).
 */
export async function analyzeGrownTables(database: Database, schema: string): Promise<string[]> {
  if (database.driver !== 'postgres') return [];
  const grown = await executeRows<{ name: string }>(
    database.db,
    sql`select s.relname as name
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = ${schema}
        and s.n_live_tup > ${ANALYZE_THRESHOLD.rows} + (1 + ${ANALYZE_THRESHOLD.share}::float8) * greatest(c.reltuples, 0)
      order by s.relname`,
  );
  for (const { name } of grown) {
    await database.db.execute(sql`analyze (skip_locked) ${sql.identifier(schema)}.${sql.identifier(name)}`);
  }
  return grown.map((t) => t.name);
}
