import { createHmac } from 'node:crypto';
import type { Role } from '@rootline/contracts';

export const TEST_JWT_SECRET = 'test-secret-at-least-32-characters-long!!';

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

/**
 * Mints an HS256 JWT the way the gateway expects (claims sub, sid, role, exp). The gateway accepts it only
 * when `sid` names a live session of account `sub` in its database: tests create one first (the gateway's
 * test support does), so a minted token is never a back door. `alg` and `secret` can be overridden to build
 * tokens that must be rejected.
 */
export function mintToken(opts: {
  sub?: string;
  /** The session id (`ses_…`); without it the gateway refuses the token. */
  sid?: string;
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
    ...(opts.sid ? { sid: opts.sid } : {}),
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

/** The first ADMIN that end-to-end runs create through ADMIN_EMAIL and ADMIN_PASSWORD. */
export const TEST_ADMIN = { email: 'admin@rootline.test', password: 'first admin passphrase' } as const;

/** The environment that creates TEST_ADMIN at start-up (and hashes cheaply, for speed). */
export const TEST_ADMIN_ENV = {
  ADMIN_EMAIL: TEST_ADMIN.email,
  ADMIN_PASSWORD: TEST_ADMIN.password,
  BCRYPT_COST: '4',
} as const;

/** Signs in over HTTP (POST /api/auth/signin) and returns the session token; throws when refused. */
export async function signInOverHttp(baseUrl: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { data?: { token?: string } };
  if (res.status !== 200 || !body.data?.token) throw new Error(`sign-in as ${email} answered ${res.status}`);
  return body.data.token;
}
