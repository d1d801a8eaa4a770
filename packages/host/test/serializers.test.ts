import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type TSchema, Type } from '@sinclair/typebox';
import { afterAll, describe, expect, it } from 'vitest';
import { contractSubjects, serializerParts, serializerSchema, writeSerializers } from '../src/serializers.js';

const require = createRequire(import.meta.url);
const build = require('fast-json-stringify') as (schema: unknown, o?: unknown) => (data: unknown) => string;

const subjects = new Map(contractSubjects().map((d) => [d.subject, d]));

/**
 * A value of the schema with every property present and every array one element long; `nulls` picks the null
 * branch of each nullable value instead of the other. A union of objects takes its first branch.
 */
function sample(schema: unknown, nulls = false): unknown {
  const s = schema as Record<string, unknown>;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.anyOf)) {
    const branches = s.anyOf as Record<string, unknown>[];
    const nullBranch = branches.find((b) => b.type === 'null');
    if (nulls && nullBranch) return null;
    return sample(branches.find((b) => b.type !== 'null') ?? branches[0], nulls);
  }
  switch (s.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries((s.properties ?? {}) as Record<string, unknown>).map(([k, v]) => [k, sample(v, nulls)]),
      );
    case 'array':
      return [sample(s.items, nulls)];
    case 'string':
      return s.format === 'date-time' ? new Date(Date.UTC(2026, 0, 2, 3, 4, 5)) : 'tomato "x" ü';
    case 'integer':
      return 7;
    case 'number':
      return 1.25;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'any';
  }
}

describe('reply serializers', () => {
  // Beside the package, so the written code finds fast-json-stringify's serializer module as it does in dist/.
  const dir = mkdtempSync(join(import.meta.dirname, '..', '.serializers-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a nullable value as a type array and a union of string constants as an enum', () => {
    const schema = Type.Object({
      name: Type.Union([Type.String({ maxLength: 10 }), Type.Null()]),
      when: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      where: Type.Union([Type.Object({ x: Type.Number() }), Type.Null()]),
      kind: Type.Union([Type.Literal('a'), Type.Literal('b')]),
      maybe: Type.Union([Type.Literal('a'), Type.Literal('b'), Type.Null()]),
      either: Type.Union([Type.Object({ a: Type.Number() }), Type.Object({ b: Type.Number() })]),
    });
    const p = serializerSchema(schema).properties as Record<string, Record<string, unknown>>;
    expect(p.name).toEqual({ type: ['string', 'null'], maxLength: 10 });
    expect(p.when).toEqual({ type: ['string', 'null'], format: 'date-time' });
    expect(p.where).toMatchObject({ type: ['object', 'null'], properties: { x: { type: 'number' } } });
    expect(p.kind).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(p.maybe).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
    // A union of objects stays a union: writing it needs fast-json-stringify's validator.
    expect(p.either?.anyOf).toHaveLength(2);
    const write = build(serializerSchema(schema));
    const value = { name: null, when: new Date(0), where: { x: 1, y: 2 }, kind: 'b', maybe: null, either: { b: 2 } };
    expect(write(value)).toBe(build(schema)(value));
  });

  it('writes every subject of the contracts ahead, and each writes what fast-json-stringify writes at run time', () => {
    const written = writeSerializers(subjects.values(), dir);
    expect(written).toBeGreaterThanOrEqual(subjects.size);
    let compared = 0;
    let unchecked = 0;
    for (const def of subjects.values()) {
      const parts = serializerParts(def.subject, def.reply);
      for (const nulls of [false, true]) {
        const value = sample(def.reply, nulls) as Record<string, unknown>;
        const values = parts.length === 2 ? [value, value.items] : [value];
        parts.forEach((part, i) => {
          const ahead = require(join(dir, `${part.name}.cjs`)) as (data: unknown) => string;
          const atRunTime = build(part.schema);
          const original = build(
            i === 1 ? (def.reply as unknown as { properties: { items: TSchema } }).properties.items : def.reply,
          );
          // A union of objects keeps its validator, which may refuse the sample: then both must refuse it.
          const attempt = (f: (data: unknown) => string) => {
            try {
              return f(values[i]);
            } catch {
              return 'refused';
            }
          };
          const out = attempt(ahead);
          expect(out, part.name).toBe(attempt(atRunTime));
          // The whole reply (or its items) as the schema before normalising wrote it. That one checks the branch of a
          // union against its pattern (the sample's strings match none), where a plain field is never checked.
          if (parts.length === 1 || i === 1) {
            let before: string | undefined;
            try {
              before = original(values[i]);
            } catch {
              unchecked++;
            }
            if (before !== undefined) expect(out, part.name).toBe(before);
          }
          compared++;
        });
      }
    }
    expect(compared).toBeGreaterThanOrEqual(subjects.size * 2);
    expect(unchecked).toBeLessThan(compared / 2);
  });
});
