import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { insertFromJson, insertFromJsonParameter } from '../src/json-rows.js';
import { widgets } from './fixtures/schema.js';

const dialect = new PgDialect();

describe('insertFromJsonParameter', () => {
  const rows = [
    { id: 'w1', name: 'Bolt', size: 3, colour: 'red' },
    { id: 'w2', name: 'Nut', size: 1, colour: null },
  ];

  it('is the INSERT of insertFromJson with the rows as one placeholder, and encodes the same parameter', () => {
    const built = insertFromJsonParameter(widgets, ['id', 'name', 'size', 'colour'], sql.placeholder('rows'));
    const each = dialect.sqlToQuery(insertFromJson(widgets, rows));
    const once = dialect.sqlToQuery(built.insert);
    expect(once.sql).toBe(each.sql);
    expect(once.params).toHaveLength(1);
    expect(built.encode(rows)).toBe(each.params[0]);
  });

  it('gives every column of every row, an absent value as null', () => {
    const built = insertFromJsonParameter(widgets, ['id', 'name', 'colour'], sql.placeholder('rows'));
    expect(JSON.parse(built.encode([{ id: 'w3', name: 'Pin' }]))).toEqual([{ id: 'w3', name: 'Pin', colour: null }]);
  });

  it('refuses a key the table does not have', () => {
    expect(() => insertFromJsonParameter(widgets, ['id', 'weight' as 'id'], sql.placeholder('rows'))).toThrow(
      /no column weight/,
    );
  });
});
