import type { CallContext } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import type { Logger } from './logger.js';

/**
 * Where links point when neither the service's PUBLIC_URL nor the call names a public address: only work that no
 * request caused (a scheduled digest, a replay of an old event) gets it, and the service warns at start-up.
 */
export const DEFAULT_PUBLIC_URL = 'http://localhost:3000';

/** The PUBLIC_URL setting of a service that builds links; unset, links follow the request (see `publicUrlOf`). */
export const PublicUrlSetting = Type.Optional(
  Type.String({
    pattern: '^https?://',
    description: 'Public address of the API links start with; unset: the address of the request that caused them',
  }),
);

/**
 * The public address links start with, without a trailing slash: the service's PUBLIC_URL when set, else the one
 * the call came through (the gateway's PUBLIC_URL or the request's origin, carried in the call context and in the
 * events it caused), else `DEFAULT_PUBLIC_URL`.
 */
export function publicUrlOf(call: Pick<CallContext, 'publicUrl'> | undefined, configured?: string): string {
  return (configured ?? call?.publicUrl ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, '');
}

/** Warns once at start-up that links made without a request will use the default address. */
export function warnIfNoPublicUrl(log: Logger, configured: string | undefined, what: string): void {
  if (configured) return;
  log.warn(
    { default: DEFAULT_PUBLIC_URL },
    `PUBLIC_URL is not set: ${what} follow the address of the request that caused them, and ${DEFAULT_PUBLIC_URL} without one`,
  );
}

/**
 * The operator's GS1 company prefix, which plants' GS1 Digital Link URIs (`<PUBLIC_URL>/8004/<GIAI>`) start their
 * GIAI with (ADR 275). Unset: 9520000, in GS1's 952 range for demonstrations, so no real asset is named by it.
 */
export const Gs1CompanyPrefixSetting = Type.String({
  pattern: '^[0-9]{6,8}$',
  default: '9520000',
  description:
    'GS1 company prefix (6 to 8 digits) of plants’ GIAIs in their GS1 Digital Link URIs; default 9520000, a ' +
    'placeholder in GS1’s range for demonstrations',
});
