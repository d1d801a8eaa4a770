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
  const reply = (await bus.request(def.subject, input, {
    headers: contextToHeaders(ctx),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  })) as BusReply<ReplyOf<D>> | null;
  if (reply?.ok === true) return reply.data;
  if (reply?.ok === false && ERROR_CODES.includes(reply.error?.code)) {
    throw new AppError(reply.error.code, reply.error.message, reply.error.details);
  }
  throw new AppError('INTERNAL', `malformed reply on ${def.subject}`);
}
