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

/** A list reply (`{ items, pagination? }`): reshaped by the gateway, which serialises it by its own schema. */
function isList(schema: TSchema): boolean {
  const items = (schema as { properties?: Record<string, { type?: unknown }> }).properties?.items;
  return items?.type === 'array';
}

/**
 * Writes a subject's success reply. A single object is written `{"ok":true,"shaped":true,"data":…}` with `data`
 * serialised by the subject's reply schema (fast-json-stringify, as Fastify serialises responses): only the
 * properties the contract declares leave the service, whatever else the handler's object carries, and the text
 * goes on the bus as it is, so a caller that forwards it (the gateway) need not parse it. Compiled on the subject's
 * first reply. A list keeps `JSON.stringify`: the gateway takes it apart to put the items in `data` and the
 * pagination beside it, and serialises that by its route's schema (fast-json-stringify is slower than
 * `JSON.stringify` on a page of objects with nullable fields, so writing it twice would cost the read twice).
 */
export function replyWriter(schema: TSchema): (data: unknown) => JsonText | { ok: true; data: unknown } {
  if (isList(schema)) return (data) => ({ ok: true, data });
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => {
    // A handler that answers nothing keeps the reply `{ ok: true }` its callers read as `data: undefined`.
    if (data === undefined) return { ok: true, data };
    serialize ??= compile(schema);
    return new JsonText(`${SHAPED_PREFIX}${serialize(data)}}`);
  };
}
