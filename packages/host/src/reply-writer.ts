import { createRequire } from 'node:module';
import { JsonText } from '@rootline/bus';
import type { TSchema } from '@sinclair/typebox';
import type Build from 'fast-json-stringify';

const require = createRequire(import.meta.url);
let build: typeof Build | undefined;

/**
 * fast-json-stringify, loaded on the first reply written rather than at start-up: with the Ajv it brings it weighs
 * about 10 MiB and 60 ms of loading, which a service that has not answered yet need not carry (a synchronous
 * `require`: the package is CommonJS, and the reply is written in the same turn).
 */
function compile(schema: TSchema): (data: unknown) => string {
  build ??= require('fast-json-stringify') as typeof Build;
  return build(schema as unknown as Parameters<typeof Build>[0]);
}

/** How a reply written by its contract begins: `shaped` tells a forwarding caller it may send the data as it is. */
export const SHAPED_PREFIX = '{"ok":true,"shaped":true,"data":';

/**
 * How a page written by its contract begins: the length of its head (every member but the items, as a JSON object),
 * then the head, then the items as the last member, so a forwarding caller cuts both out without parsing them.
 */
export const PAGE_PREFIX = '{"ok":true,"shaped":"page","headLength":';
const HEAD_KEY = ',"head":';
const ITEMS_KEY = ',"data":';

type ObjectSchema = TSchema & { properties: Record<string, TSchema>; required?: string[] };

const PAGE_MEMBERS: ReadonlySet<string> = new Set(['items', 'pagination', 'meta']);

/**
 * A page reply (`{ items, pagination?, meta? }`): an object whose `items` is an array and that holds nothing but the
 * page's members. An object that has items among other facts (a household's preferences) is a single object.
 */
function isPage(schema: TSchema): schema is ObjectSchema {
  const props = (schema as { properties?: Record<string, { type?: unknown }> }).properties;
  return props?.items?.type === 'array' && Object.keys(props).every((k) => PAGE_MEMBERS.has(k));
}

/** The pieces of a page reply as `replyWriter` wrote it, or undefined for any other text. */
export function cutPage(text: string): { head: string; items: string } | undefined {
  if (!text.startsWith(PAGE_PREFIX) || !text.endsWith('}')) return undefined;
  const digitsEnd = text.indexOf(',', PAGE_PREFIX.length);
  const length = Number(text.slice(PAGE_PREFIX.length, digitsEnd));
  const headStart = digitsEnd + HEAD_KEY.length;
  const headEnd = headStart + length;
  if (
    !Number.isInteger(length) ||
    text.slice(digitsEnd, headStart) !== HEAD_KEY ||
    text.slice(headEnd, headEnd + ITEMS_KEY.length) !== ITEMS_KEY
  ) {
    return undefined;
  }
  return { head: text.slice(headStart, headEnd), items: text.slice(headEnd + ITEMS_KEY.length, -1) };
}

/** A page reply as JSON parsing reads it, put back together: the head's members and the items. */
export function joinPage(reply: { head?: Record<string, unknown>; data?: unknown }): Record<string, unknown> {
  return { ...reply.head, items: reply.data };
}

/** Writes a list by its schema: the head (every member but `items`) and the items, each compiled on first use. */
function pageWriter(schema: ObjectSchema): (data: unknown) => JsonText {
  const { items, ...rest } = schema.properties;
  let head: ((data: unknown) => string) | undefined;
  let list: ((data: unknown) => string) | undefined;
  return (data) => {
    head ??= compile({
      ...schema,
      properties: rest,
      required: (schema.required ?? []).filter((k) => k !== 'items'),
    } as unknown as TSchema);
    list ??= compile(items!);
    const h = head(data);
    return new JsonText(
      `${PAGE_PREFIX}${h.length}${HEAD_KEY}${h}${ITEMS_KEY}${list((data as { items: unknown }).items)}}`,
    );
  };
}

/**
 * Writes a subject's success reply by the subject's reply schema (fast-json-stringify, as Fastify serialises
 * responses): only the properties the contract declares leave the service, whatever else the handler's object
 * carries, and the text goes on the bus as it is, so a caller that forwards it (the gateway) need not parse it.
 * A single object is written `{"ok":true,"shaped":true,"data":…}`; a page (`{ items, pagination?, meta? }`), its head
 * (pagination, meta) and its items apart (`PAGE_PREFIX`), so the gateway puts the items in `data` and the head's
 * members beside them without parsing either. Compiled on the subject's first reply.
 */
export function replyWriter(schema: TSchema): (data: unknown) => JsonText | { ok: true; data: unknown } {
  if (isPage(schema)) {
    const write = pageWriter(schema);
    return (data) => (data === undefined ? { ok: true, data } : write(data));
  }
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => {
    // A handler that answers nothing keeps the reply `{ ok: true }` its callers read as `data: undefined`.
    if (data === undefined) return { ok: true, data };
    serialize ??= compile(schema);
    return new JsonText(`${SHAPED_PREFIX}${serialize(data)}}`);
  };
}
