import { Kind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { describe, expect, it } from 'vitest';
import { NAME_PATTERN, Text } from './common.js';
import * as contracts from './index.js';

/** Every schema a client's input is checked against: subject requests and the gateway's own inputs. */
function inputSchemas(): [string, TSchema][] {
  const found: [string, TSchema][] = [];
  for (const [name, value] of Object.entries(contracts)) {
    if (value && typeof value === 'object' && 'subject' in value && 'request' in value) {
      found.push([`${(value as { subject: string }).subject} request`, (value as { request: TSchema }).request]);
    } else if (/(Input|Query)$/.test(name) && value && typeof value === 'object' && Kind in value) {
      found.push([name, value as TSchema]);
    }
  }
  return found;
}

/** Where a string or number of the schema states no rule that bounds it. */
function unbounded(schema: TSchema, at: string, out: string[]): string[] {
  const s = schema as Record<string, unknown> & TSchema;
  if (s.type === 'string' && s.pattern === undefined && s.format === undefined && s.enum === undefined) {
    if (s.const === undefined) out.push(`${at}: string without a text rule, pattern, format or enum`);
  }
  if (s.type === 'integer' || s.type === 'number') {
    const low = s.minimum !== undefined || s.exclusiveMinimum !== undefined;
    const high = s.maximum !== undefined || s.exclusiveMaximum !== undefined;
    if (!low || !high) out.push(`${at}: ${s.type} without ${low ? 'a maximum' : 'a minimum'}`);
  }
  if (s.type === 'string' && s.maxLength === undefined && s.pattern === undefined && s.format === undefined) {
    if (s.enum === undefined && s.const === undefined) out.push(`${at}: string without a maximum length`);
  }
  for (const [k, v] of Object.entries((s.properties as Record<string, TSchema>) ?? {})) unbounded(v, `${at}.${k}`, out);
  for (const [k, v] of Object.entries((s.patternProperties as Record<string, TSchema>) ?? {})) {
    unbounded(v, `${at}[${k}]`, out);
  }
  if (s.items && !Array.isArray(s.items)) unbounded(s.items as TSchema, `${at}[]`, out);
  for (const [i, v] of ((s.anyOf ?? s.oneOf ?? s.allOf ?? []) as TSchema[]).entries()) unbounded(v, `${at}|${i}`, out);
  return out;
}

describe('request schemas', () => {
  it('are found (the walk below covers them)', () => {
    expect(inputSchemas().length).toBeGreaterThan(25);
  });

  // A string with no rule let U+0000 and lone surrogates reach PostgreSQL (500); an unbounded integer let
  // `from=2147483648` overflow its column (500). A new contract cannot forget either.
  it('state a rule for every string and bounds for every number', () => {
    const problems = inputSchemas().flatMap(([name, schema]) => unbounded(schema, name, []));
    expect(problems).toEqual([]);
  });
});

describe('Text', () => {
  const name = Text({ minLength: 1, maxLength: 5 });
  const free = Text({ maxLength: 5 });
  const compiled = TypeCompiler.Compile(name);

  it.each([
    ['a\u0000b', false],
    ['a\ud800b', false],
    ['\udc00', false],
    ['   ', false],
    ['\u{1F331}ab', true],
    ['Basil', true],
    ['Basils', false],
  ])('a required name %j is accepted: %s (on the bus, as by the gateway)', (value, ok) => {
    expect(compiled.Check(value)).toBe(ok);
    expect(new RegExp(NAME_PATTERN, 'u').test(value) && [...value].length <= 5).toBe(ok);
  });

  it('lets optional text be empty or blank, never with U+0000 or a lone surrogate', () => {
    const check = TypeCompiler.Compile(free);
    expect(check.Check('')).toBe(true);
    expect(check.Check('  ')).toBe(true);
    expect(check.Check('\u0000')).toBe(false);
    expect(check.Check('a\ud83d')).toBe(false);
  });
});
