import type { Bus } from '@rootline/bus';
import {
  AppError,
  type BusReply,
  type CallContext,
  contextToHeaders,
  ERROR_CODES,
  type ReplyOf,
  type RequestOf,
  type SubjectDef,
} from '@rootline/contracts';

/**
 * Calls a declared subject and returns its reply data; an error reply is rethrown as the same AppError.
 */
export async function call<D extends SubjectDef>(
  bus: Bus,
  def: D,
  input: RequestOf<D>,
  ctx: CallContext,
  timeoutMs?: number,
): Promise<ReplyOf<D>> {
  const reply = await bus.request(def.subject, input, {
    headers: contextToHeaders(ctx),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  return replyData(def, reply);
}

function replyData<D extends SubjectDef>(def: D, value: unknown): ReplyOf<D> {
  const reply = value as BusReply<ReplyOf<D>> | null;
  if (reply?.ok === true) return reply.data;
  if (reply?.ok === false && ERROR_CODES.includes(reply.error?.code)) {
    throw new AppError(reply.error.code, reply.error.message, reply.error.details);
  }
  throw new AppError('INTERNAL', `malformed reply on ${def.subject}`);
}

/** How a service's success reply begins on the bus (`replyWriter`, and `JSON.stringify` of `{ ok, data }`). */
const SUCCESS_PREFIX = '{"ok":true,"data":';

/**
 * `call`, resolving with the reply's data as JSON text rather than parsed: for a caller that forwards it as it is.
 * A success reply (`{"ok":true,"data":…}`, data last) is cut out of the text without parsing; anything else is
 * parsed and answered as `call` does.
 */
export async function callJson<D extends SubjectDef>(
  bus: Bus,
  def: D,
  input: RequestOf<D>,
  ctx: CallContext,
  timeoutMs?: number,
): Promise<string> {
  const text = await bus.requestJson(def.subject, input, {
    headers: contextToHeaders(ctx),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  if (text.startsWith(SUCCESS_PREFIX) && text.endsWith('}')) return text.slice(SUCCESS_PREFIX.length, -1);
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    throw new AppError('INTERNAL', `malformed reply on ${def.subject}`);
  }
  return JSON.stringify(replyData(def, reply) ?? null);
}
