import { type Column, getTableColumns, getTableName, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/** A value as it travels in the JSON parameter: dates as ISO strings, everything else as JSON has it. */
function jsonValue(v: unknown): unknown {
  return v instanceof Date ? v.toISOString() : v;
}

/**
 * The INSERT of rows of `table` with the columns `keys` (drizzle keys) from one JSON parameter, and `encode`, which
 * makes that parameter from the rows: one object per row, every column given, an absent value as null.
 */
function jsonInsert<T extends PgTable>(table: T, keys: readonly string[]) {
  const columns = getTableColumns(table) as Record<string, Column>;
  const given = keys.map((key) => {
    const column = columns[key];
    if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
    if (column.generated || column.generatedIdentity) throw new Error(`${getTableName(table)}.${key} is generated`);
    return { key, name: column.name, column };
  });
  const names = sql.raw(given.map(({ name }) => `"${name}"`).join(', '));
  const record = sql.raw(given.map(({ name, column }) => `"${name}" ${column.getSQLType()}`).join(', '));
  return {
    // Inserted in the order given, so identity columns (an outbox's or a queue's `seq`) follow it.
    insertOf: (param: Placeholder | string): SQL => sql`insert into ${table} (${names}) select ${names}
    from rows from (jsonb_to_recordset(${param}::jsonb) as (${record})) with ordinality as r(${names}, "ordinality")
    order by "ordinality"`,
    encode: (rows: readonly Record<string, unknown>[]) =>
      JSON.stringify(
        rows.map((r) => {
          const out: Record<string, unknown> = {};
          for (const { key, name } of given) out[name] = jsonValue(r[key] ?? null);
          return out;
        }),
      ),
  };
}

/**
 * An INSERT of many rows whose values travel as one JSON parameter, unpacked by `jsonb_to_recordset`: the text
 * depends only on the table and the columns given, not on the number of rows, so it can be one prepared
 * statement however large the batch, and it costs one parameter instead of one per value. The columns are those
 * the rows give (keys are the table's drizzle keys); a key missing from a row is NULL there, so give every
 * row the same keys when a column has a default. Generated and identity columns cannot be given. Rows are
 * inserted in the order given.
 */
export function insertFromJson<T extends PgTable>(table: T, rows: readonly Partial<T['$inferInsert']>[]): SQL {
  const keys = [...new Set(rows.flatMap((r) => Object.entries(r).flatMap(([k, v]) => (v === undefined ? [] : [k]))))];
  const { insertOf, encode } = jsonInsert(table, keys);
  return insertOf(encode(rows as readonly Record<string, unknown>[]));
}

/**
 * `insertFromJson` for a hot statement built once: the INSERT of rows of `table` with the columns `keys` (every row
 * gives each of them, null when absent), whose JSON parameter is `param` (a `sql.placeholder`), for
 * `fixedStatement`; and `encode`, which makes that parameter from the rows, one object per row, without the
 * per-call work of finding the columns the rows give. The same text as `insertFromJson` with those columns.
 */
export function insertFromJsonParameter<T extends PgTable, K extends keyof T['$inferInsert'] & string>(
  table: T,
  keys: readonly K[],
  param: Placeholder,
): { insert: SQL; encode: (rows: readonly Pick<T['$inferInsert'], K>[]) => string } {
  const { insertOf, encode } = jsonInsert(table, keys);
  return { insert: insertOf(param), encode: (rows) => encode(rows as readonly Record<string, unknown>[]) };
}

/**
 * `any(array(select jsonb_array_elements_text($1::jsonb)))`: a list of texts as one JSON parameter, for
 * `col = ${anyOfTexts(values)}`. The text does not depend on the number of values (drizzle's `inArray` has one
 * parameter per value), so it can be one prepared statement whatever the list. The `= any(array(…))` form keeps
 * an index scan in the generic plan PostgreSQL settles on for a prepared statement, even one planned while the
 * table was empty; `in (select …)` planned then stays a hash join over a sequential scan until the next ANALYZE.
 */
export function anyOfTexts(values: readonly string[]): SQL {
  return sql`any(array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)))`;
}
