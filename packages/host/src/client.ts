import type { Bus } from '@rootline/bus';
import {
  AppError,
  type BusReply,
  type CallContext,
  contextToHeaders,
  ERROR_CODES,
  type ErrorDetails,
  type ReplyOf,
  type RequestOf,
  type SubjectDef,
} from '@rootline/contracts';
import { cutPage, joinPage, SHAPED_PREFIX } from './reply-writer.js';

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
  if (reply?.ok === true) {
    // A page written by its contract carries its head (pagination, meta) apart from its items.
    return (reply as { shaped?: unknown }).shaped === 'page' ? (joinPage(reply as never) as ReplyOf<D>) : reply.data;
  }
  if (reply?.ok === false && ERROR_CODES.includes(reply.error?.code)) {
    throw new AppError(reply.error.code, reply.error.message, reply.error.details as ErrorDetails | undefined);
  }
  throw new AppError('INTERNAL', `malformed reply on ${def.subject}`);
}

/**
 * `call` for a caller that forwards the reply: a reply written by its contract (`replyWriter`) comes back as JSON
 * text cut out without parsing: a single object as its data's text (the data is the last member, so the cut is
 * exact), a page as its head's and its items' texts (the head's length leads it); any other
 * success comes back parsed, for the caller to serialise by its own schema; an error reply is thrown as `call` does.
 */
export async function callForward<D extends SubjectDef>(
  bus: Bus,
  def: D,
  input: RequestOf<D>,
  ctx: CallContext,
  timeoutMs?: number,
): Promise<{ json: string } | { page: { head: string; items: string } } | { data: ReplyOf<D> }> {
  const text = await bus.requestJson(def.subject, input, {
    headers: contextToHeaders(ctx),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  if (text.startsWith(SHAPED_PREFIX) && text.endsWith('}')) return { json: text.slice(SHAPED_PREFIX.length, -1) };
  const page = cutPage(text);
  if (page) return { page };
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    throw new AppError('INTERNAL', `malformed reply on ${def.subject}`);
  }
  return { data: replyData(def, reply) };
}
