import { JsonText } from '@rootline/bus';
import type { TSchema } from '@sinclair/typebox';
import { serializer, serializerParts } from './serializers.js';

/** How a reply written by its contract begins: `shaped` tells a forwarding caller it may send the data as it is. */
export const SHAPED_PREFIX = '{"ok":true,"shaped":true,"data":';

/**
 * How a page written by its contract begins: the length of its head (every member but the items, as a JSON object),
 * then the head, then the items as the last member, so a forwarding caller cuts both out without parsing them.
 */
export const PAGE_PREFIX = '{"ok":true,"shaped":"page","headLength":';
const HEAD_KEY = ',"head":';
const ITEMS_KEY = ',"data":';

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

/** Writes a page by its schema: the head (every member but `items`) and the items, each made on first use. */
function pageWriter(parts: ReturnType<typeof serializerParts>): (data: unknown) => JsonText {
  const [headPart, itemsPart] = parts;
  let head: ((data: unknown) => string) | undefined;
  let list: ((data: unknown) => string) | undefined;
  return (data) => {
    head ??= serializer(headPart!.name, headPart!.schema);
    list ??= serializer(itemsPart!.name, itemsPart!.schema);
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
export function replyWriter(def: {
  subject: string;
  reply: TSchema;
}): (data: unknown) => JsonText | { ok: true; data: unknown } {
  const parts = serializerParts(def.subject, def.reply);
  if (parts.length === 2) {
    const write = pageWriter(parts);
    return (data) => (data === undefined ? { ok: true, data } : write(data));
  }
  const [part] = parts;
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => {
    // A handler that answers nothing keeps the reply `{ ok: true }` its callers read as `data: undefined`.
    if (data === undefined) return { ok: true, data };
    serialize ??= serializer(part!.name, part!.schema);
    return new JsonText(`${SHAPED_PREFIX}${serialize(data)}}`);
  };
}
