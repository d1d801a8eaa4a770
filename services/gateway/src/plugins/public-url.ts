import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The public address of the API for this request, without a trailing slash: PUBLIC_URL when set, else the
     * request's origin (its Host, or X-Forwarded-Proto/-Host when it came from a trusted proxy). Undefined for a
     * Host that is not a plain host name or address. Services build links from it (see `callContext`).
     */
    readonly publicUrl: string | undefined;
  }
}

export interface PublicUrlOptions {
  /** The PUBLIC_URL setting: when set, every request's public address. */
  publicUrl: string | undefined;
}

/** A host name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The request's origin: `req.protocol` and `req.host` are Fastify's, which read X-Forwarded-Proto/-Host only from
 * an address the `trustProxy` option trusts (TRUSTED_PROXIES); anything else sees the Host header.
 */
export function requestOrigin(req: FastifyRequest): string | undefined {
  const protocol = req.protocol;
  const host = req.host;
  if ((protocol !== 'http' && protocol !== 'https') || !host || !HOST.test(host)) return undefined;
  return `${protocol}://${host.toLowerCase()}`;
}

/** Decorates every request with `publicUrl`, worked out on first read. */
export const publicUrlPlugin = fp<PublicUrlOptions>(
  async (app, opts) => {
    const configured = opts.publicUrl?.replace(/\/+$/, '');
    app.decorateRequest('publicUrl', {
      getter(this: FastifyRequest) {
        return configured ?? requestOrigin(this);
      },
    });
  },
  { name: 'public-url' },
);
