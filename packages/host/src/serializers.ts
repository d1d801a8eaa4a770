import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as contracts from '@rootline/contracts';
import { SERVICE_NAMES, statusSubject } from '@rootline/contracts';
import type { TSchema } from '@sinclair/typebox';
import type Build from 'fast-json-stringify';

const require = createRequire(import.meta.url);

type JsonSchema = { [key: string]: unknown };

/**
 * A reply schema as fast-json-stringify writes it fastest and, written ahead (`writeSerializers`), without Ajv: a
 * union of a type and null becomes a type array (`["string", "null"]`), a union of string constants an `enum`. The
 * text written is the same; fast-json-stringify needs Ajv only to choose between the branches of a union. Plain JSON
 * (TypeBox's symbols dropped).
 */
export function serializerSchema(schema: TSchema): JsonSchema {
  return normalise(JSON.parse(JSON.stringify(schema))) as JsonSchema;
}

function normalise(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(normalise);
  if (s === null || typeof s !== 'object') return s;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(s)) out[k] = normalise(v);
  if (!Array.isArray(out.anyOf)) return out;
  const branches = out.anyOf as JsonSchema[];
  const values = branches.filter((b) => b.type !== 'null');
  const nullable = values.length < branches.length;
  const { anyOf: _, ...rest } = out;
  if (values.length > 0 && values.every((b) => typeof b.const === 'string' && Object.keys(b).length <= 2)) {
    const consts = values.map((b) => b.const);
    return { ...rest, type: nullable ? ['string', 'null'] : 'string', enum: nullable ? [...consts, null] : consts };
  }
  const [only] = values;
  if (nullable && values.length === 1 && typeof only!.type === 'string' && only!.anyOf === undefined) {
    return { ...rest, ...only, type: [only!.type, 'null'] };
  }
  return out;
}

/** Whether a reply is a page (`{ items, pagination?, meta? }` and nothing else), written head and items apart. */
export function isPageSchema(schema: TSchema): boolean {
  const props = (schema as { properties?: Record<string, { type?: unknown }> }).properties;
  return props?.items?.type === 'array' && Object.keys(props).every((k) => PAGE_MEMBERS.has(k));
}
const PAGE_MEMBERS: ReadonlySet<string> = new Set(['items', 'pagination', 'meta']);

/** The serializers a subject's reply needs, by name: the reply, or a page's head and items. */
export function serializerParts(subject: string, schema: TSchema): { name: string; schema: JsonSchema }[] {
  if (!isPageSchema(schema)) return [{ name: subject, schema: serializerSchema(schema) }];
  const { properties, required, ...rest } = schema as unknown as {
    properties: Record<string, TSchema>;
    required?: string[];
  };
  const { items, ...head } = properties;
  return [
    {
      name: `${subject}.head`,
      schema: serializerSchema({
        ...rest,
        properties: head,
        required: (required ?? []).filter((k) => k !== 'items'),
      } as unknown as TSchema),
    },
    { name: `${subject}.items`, schema: serializerSchema(items!) },
  ];
}

/** Where the build writes the serializers, beside the compiled host (`dist/serializers`). */
const WRITTEN_DIR = fileURLToPath(new URL('./serializers/', import.meta.url));
/** Compiled code (`dist/`) uses the serializers written at build time; the sources (tests, `tsx`) compile their own. */
const COMPILED = import.meta.url.includes('/dist/');

let build: typeof Build | undefined;

/**
 * The serializer named `name` for `schema`: the one written at build time when this is the compiled host and it
 * exists (it needs fast-json-stringify's small serializer module only, not Ajv: about 9 MiB less in a service
 * process), else compiled now with fast-json-stringify (loaded on first use).
 */
export function serializer(name: string, schema: JsonSchema): (data: unknown) => string {
  const file = join(WRITTEN_DIR, `${name}.cjs`);
  if (COMPILED && existsSync(file)) return require(file) as (data: unknown) => string;
  build ??= require('fast-json-stringify') as typeof Build;
  return build(schema as unknown as Parameters<typeof Build>[0]);
}

/**
 * Writes the serializer of every subject's reply (`serializerParts`) into `dir`, as fast-json-stringify's
 * standalone code: run by the build after TypeScript, so compiled services load no Ajv for their replies.
 */
export function writeSerializers(subjects: Iterable<{ subject: string; reply: TSchema }>, dir = WRITTEN_DIR): number {
  build ??= require('fast-json-stringify') as typeof Build;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let written = 0;
  for (const def of subjects) {
    for (const part of serializerParts(def.subject, def.reply)) {
      const code = build(part.schema as unknown as Parameters<typeof Build>[0], {
        mode: 'standalone',
      }) as unknown as string;
      writeFileSync(join(dir, `${part.name}.cjs`), code);
      written++;
    }
  }
  return written;
}

type Subject = { subject: string; reply: TSchema };
const isSubject = (v: unknown): v is Subject =>
  typeof v === 'object' && v !== null && typeof (v as Subject).subject === 'string' && 'reply' in v && 'request' in v;

/** Every subject the contracts declare: exported one by one, in records of subjects, and each service's status. */
export function contractSubjects(): Subject[] {
  const found = new Map<string, Subject>();
  for (const value of Object.values(contracts)) {
    if (isSubject(value)) found.set(value.subject, value);
    else if (typeof value === 'object' && value !== null) {
      for (const inner of Object.values(value)) if (isSubject(inner)) found.set(inner.subject, inner);
    }
  }
  for (const name of SERVICE_NAMES) found.set(statusSubject(name).subject, statusSubject(name));
  return [...found.values()];
}
