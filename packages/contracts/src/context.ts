import type { Actor } from './roles.js';

/** What every bus request and event carries about its origin. */
export interface CallContext {
  requestId: string;
  actor?: Actor;
  /** W3C trace context, passed through untouched. */
  traceparent?: string;
  /**
   * A client's idempotency key as the gateway scopes it (a digest of principal, route and key): a service derives
   * the id of the record the call creates from it (`idFromKey`), so a retry names the same record.
   */
  idempotencyRef?: string;
  /**
   * The public address of the API the call came through (`https://host[:port][/path]`, no trailing slash): the
   * gateway's PUBLIC_URL, else the request's origin. Links a service builds (QR codes, certificates, emails,
   * signed URLs) start with it; events carry it on, so an email sent later links where the request came from.
   */
  publicUrl?: string;
  /**
   * The caller wrote something a moment ago: its reads go to the primary database, not a read replica that may not
   * have replayed the write yet (the gateway sets it for a short window after each write; docs/read-replicas.md).
   */
  readPrimary?: boolean;
}

/** Message header names; lowercase so NATS and HTTP agree. */
export const HEADER = {
  requestId: 'x-request-id',
  actor: 'x-actor',
  traceparent: 'traceparent',
  idempotencyRef: 'x-idempotency-ref',
  publicUrl: 'x-public-url',
  readPrimary: 'x-read-primary',
} as const;

/** A public address: http(s), a host, an optional port and path, no query, no trailing slash. */
const PUBLIC_URL = /^https?:\/\/[^\s/?#@]+(\/[^\s?#]*[^\s?#/])?$/;

/** Whether `url` may be used as the public address of the API (see `CallContext.publicUrl`). */
export function isPublicUrl(url: string): boolean {
  return url.length <= 2048 && PUBLIC_URL.test(url);
}

/** Encodes a call context as message headers. */
export function contextToHeaders(ctx: CallContext): Record<string, string> {
  const h: Record<string, string> = { [HEADER.requestId]: ctx.requestId };
  if (ctx.actor) h[HEADER.actor] = JSON.stringify(ctx.actor);
  if (ctx.traceparent) h[HEADER.traceparent] = ctx.traceparent;
  if (ctx.idempotencyRef) h[HEADER.idempotencyRef] = ctx.idempotencyRef;
  if (ctx.publicUrl) h[HEADER.publicUrl] = ctx.publicUrl;
  if (ctx.readPrimary) h[HEADER.readPrimary] = '1';
  return h;
}

/** Decodes message headers into a call context; a missing request id gets a fallback. */
export function headersToContext(h: Record<string, string | undefined>, fallbackId: () => string): CallContext {
  const ctx: CallContext = { requestId: h[HEADER.requestId] || fallbackId() };
  const actor = h[HEADER.actor];
  if (actor) {
    try {
      const parsed = JSON.parse(actor) as Actor;
      if (typeof parsed?.id === 'string' && typeof parsed?.role === 'string') {
        const org = parsed.org;
        // An organization named without its id, role or name is dropped: the call acts for the account alone.
        const orgOk =
          typeof org === 'object' &&
          org !== null &&
          typeof org.id === 'string' &&
          typeof org.role === 'string' &&
          typeof org.name === 'string';
        ctx.actor = { id: parsed.id, role: parsed.role, ...(orgOk ? { org } : {}) };
      }
    } catch {
      // A malformed actor header means no actor: the service treats the call as anonymous.
    }
  }
  if (h[HEADER.traceparent]) ctx.traceparent = h[HEADER.traceparent];
  if (h[HEADER.idempotencyRef]) ctx.idempotencyRef = h[HEADER.idempotencyRef];
  // A malformed address is dropped: the service falls back to its PUBLIC_URL.
  const publicUrl = h[HEADER.publicUrl];
  if (publicUrl && isPublicUrl(publicUrl)) ctx.publicUrl = publicUrl;
  if (h[HEADER.readPrimary] === '1') ctx.readPrimary = true;
  return ctx;
}
