import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import postgres from 'postgres';

/** Rows per chunk written to the COPY stream. */
const CHUNK_ROWS = 10_000;

/** COPY text of rows, in chunks; `\N` is NULL, and no value may hold a tab, newline or backslash. */
function* copyText(rows: Iterable<readonly unknown[]>): Generator<string> {
  const chunk: string[] = [];
  for (const row of rows) {
    chunk.push(row.join('\t'));
    if (chunk.length === CHUNK_ROWS) {
      yield `${chunk.join('\n')}\n`;
      chunk.length = 0;
    }
  }
  if (chunk.length > 0) yield `${chunk.join('\n')}\n`;
}

/**
 * Seeds the plants table straight with COPY (not through the API and not on the ledger: a million mined
 * registrations would take hours and measure the miner), with the indexes in place as the migrations made them,
 * then VACUUM ANALYZE as autovacuum would (which also flushes GIN indexes' pending lists). `rows` gives the
 * values of `columns` for each plant.
 */
export async function seedPlants(
  databaseUrl: string,
  columns: readonly string[],
  rows: Iterable<readonly unknown[]>,
): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const writable = await sql.unsafe(`copy plants.plants (${columns.join(', ')}) from stdin`).writable();
    await pipeline(Readable.from(copyText(rows)), writable);
    await sql.unsafe('vacuum analyze plants.plants');
  } finally {
    await sql.end();
  }
}
