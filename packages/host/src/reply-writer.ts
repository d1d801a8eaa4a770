import { JsonText } from '@rootline/bus';
import type { TSchema } from '@sinclair/typebox';
import build from 'fast-json-stringify';

/**
 * Writes a subject's success reply, `{"ok":true,"data":…}`, with `data` serialised by the subject's reply schema
 * (fast-json-stringify, as Fastify serialises responses): only the properties the contract declares leave the
 * service, whatever else the handler's object carries. The text goes on the bus as it is, so a caller that only
 * forwards it (the gateway) need not parse it. Compiled on the subject's first reply, not at start-up.
 */
export function replyWriter(schema: TSchema): (data: unknown) => JsonText | { ok: true; data: unknown } {
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => {
    // A handler that answers nothing keeps the reply `{ ok: true }` its callers read as `data: undefined`.
    if (data === undefined) return { ok: true, data };
    serialize ??= build(schema as unknown as Parameters<typeof build>[0]);
    return new JsonText(`{"ok":true,"data":${serialize(data)}}`);
  };
}
