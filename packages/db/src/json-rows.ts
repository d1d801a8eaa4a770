import { type Column, getTableColumns, getTableName, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/** A value as it travels in the JSON parameter: dates as ISO strings, everything else as JSON has it. */
function jsonValue(v: unknown): unknown {
  return v instanceof Date ? v.toISOString() : v;
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
  const columns = getTableColumns(table) as Record<string, Column>;
  const keys = [...new Set(rows.flatMap((r) => Object.entries(r).flatMap(([k, v]) => (v === undefined ? [] : [k]))))];
  const given = keys.map((key) => {
    const column = columns[key];
    if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
    if (column.generated || column.generatedIdentity) throw new Error(`${getTableName(table)}.${key} is generated`);
    return { key, column };
  });
  const json = JSON.stringify(
    rows.map((r) => {
      const out: Record<string, unknown> = {};
      for (const { key, column } of given) out[column.name] = jsonValue((r as Record<string, unknown>)[key]);
      return out;
    }),
  );
  const names = sql.raw(given.map(({ column }) => `"${column.name}"`).join(', '));
  const record = sql.raw(given.map(({ column }) => `"${column.name}" ${column.getSQLType()}`).join(', '));
  // Inserted in the order given, so identity columns (an outbox's or a queue's `seq`) follow it.
  return sql`insert into ${table} (${names}) select ${names}
    from rows from (jsonb_to_recordset(${json}::jsonb) as (${record})) with ordinality as r(${names}, "ordinality")
    order by "ordinality"`;
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
  const columns = getTableColumns(table) as Record<string, Column>;
  const given = keys.map((key) => {
    const column = columns[key];
    if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
    if (column.generated || column.generatedIdentity) throw new Error(`${getTableName(table)}.${key} is generated`);
    return { key, name: column.name, column };
  });
  const names = sql.raw(given.map(({ name }) => `"${name}"`).join(', '));
  const record = sql.raw(given.map(({ name, column }) => `"${name}" ${column.getSQLType()}`).join(', '));
  const insert = sql`insert into ${table} (${names}) select ${names}
    from rows from (jsonb_to_recordset(${param}::jsonb) as (${record})) with ordinality as r(${names}, "ordinality")
    order by "ordinality"`;
  const encode = (rows: readonly Pick<T['$inferInsert'], K>[]) =>
    JSON.stringify(
      rows.map((r) => {
        const out: Record<string, unknown> = {};
        for (const { key, name } of given) out[name] = jsonValue((r as Record<string, unknown>)[key] ?? null);
        return out;
      }),
    );
  return { insert, encode };
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
