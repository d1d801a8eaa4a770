import type { IncomingMessage } from 'node:http';
import { type CallContext, HEADER, newId } from '@rootline/contracts';
import { type Clock, traceparentOf } from '@rootline/host';
import type { FastifyRequest } from 'fastify';

/** Incoming request ids we accept: short, and only characters safe in logs and headers. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;
/** W3C trace context, version-format-trace-parent-flags. */
const TRACEPARENT = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Fastify's genReqId: the caller's `x-request-id` when it is sane, otherwise a new id at the clock's time. */
export function requestIdOf(clock: Clock): (req: IncomingMessage) => string {
  return (req) => {
    const incoming = firstHeader(req.headers[HEADER.requestId]);
    return incoming && REQUEST_ID.test(incoming) ? incoming : newId('req', clock.now().getTime());
  };
}

/**
 * What a bus call made for this request carries: request id, verified actor, trace context, and the public address
 * the service builds links from (PUBLIC_URL, else the request's origin).
 */
export function callContext(req: FastifyRequest): CallContext {
  const ctx: CallContext = { requestId: req.id };
  if (req.actor) ctx.actor = req.actor;
  // With tracing on, what follows is a child of this request's span; otherwise the caller's context passes on.
  const traceparent = req.traceSpan ? traceparentOf(req.traceSpan) : firstHeader(req.headers[HEADER.traceparent]);
  if (traceparent && TRACEPARENT.test(traceparent)) ctx.traceparent = traceparent;
  // The scoped reference of a held Idempotency-Key: the service derives the new record's id from it.
  if (req.idempotency) ctx.idempotencyRef = req.idempotency.ref;
  const publicUrl = req.publicUrl;
  if (publicUrl) ctx.publicUrl = publicUrl;
  if (req.readPrimary) ctx.readPrimary = true;
  return ctx;
}
