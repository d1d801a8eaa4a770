import { createHmac } from 'node:crypto';
import type { Role } from '@rootline/contracts';

export const TEST_JWT_SECRET = 'test-secret-at-least-32-characters-long!!';

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

/**
 * Mints an HS256 JWT the way the gateway expects (claims sub, role, exp), for tests that need a caller
 * before accounts exist. `alg` and `secret` can be overridden to build tokens that must be rejected.
 */
export function mintToken(opts: {
  sub?: string;
  role?: Role;
  secret?: string;
  expiresInSeconds?: number;
  alg?: 'HS256' | 'none';
  extra?: Record<string, unknown>;
}): string {
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: opts.alg ?? 'HS256', typ: 'JWT' };
  const payload = {
    sub: opts.sub ?? 'usr_test',
    role: opts.role ?? 'USER',
    iat: now,
    exp: now + (opts.expiresInSeconds ?? 3600),
    ...opts.extra,
  };
  const body = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  if (header.alg === 'none') return `${body}.`;
  const sig = createHmac('sha256', opts.secret ?? TEST_JWT_SECRET)
    .update(body)
    .digest('base64url');
  return `${body}.${sig}`;
}
