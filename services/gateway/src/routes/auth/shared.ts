import { AppError, type User } from '@rootline/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Accounts } from '../../identity/accounts.js';
import type { ApiTokens } from '../../identity/api-tokens.js';
import type { OAuthFlow } from '../../identity/oauth/flow.js';
import type { Principal } from '../../identity/principal.js';
import type { Sessions } from '../../identity/sessions.js';
import type { AuthThrottle, Refusal, ThrottledAction } from '../../identity/throttle.js';
import { rateLimited } from '../../plugins/rate-limit.js';

export const TAGS = ['Authentication'];

export interface AuthRouteDeps {
  accounts: Accounts;
  sessions: Sessions;
  apiTokens: ApiTokens;
  oauth: OAuthFlow;
  throttle: AuthThrottle;
  /** Attempts per minute per client IP on sign-in, registration and forgot-password. */
  authPerMinute: number;
  csrfKey: Buffer;
  /** Runs work after the answer is sent (forgot-password); awaited when the gateway closes. */
  background: (task: () => Promise<void>) => void;
}

export const EXAMPLE_USER: User = {
  id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD',
  email: 'ada@example.org',
  name: 'Ada Grower',
  role: 'USER',
  emailVerified: false,
  locale: 'nl',
  createdAt: '2026-01-02T03:04:05.000Z',
};

/** Refuses with 429 and the limit's headers when the throttle says so. */
async function throttled(reply: FastifyReply, refusal: Promise<Refusal | null>): Promise<void> {
  const r = await refusal;
  if (!r) return;
  reply.header('x-ratelimit-limit', r.limit);
  reply.header('x-ratelimit-remaining', 0);
  reply.header('x-ratelimit-reset', Math.ceil(r.resetAt / 1000));
  throw rateLimited(reply, r.retryAfterMs, r.message);
}

/** Counts an attempt at a throttled action, refusing it with 429 past the throttle's limit. */
export function attempt(
  deps: AuthRouteDeps,
  reply: FastifyReply,
  action: ThrottledAction,
  ip: string | null,
  key: string,
) {
  return throttled(reply, deps.throttle.attempt(action, ip, key));
}

/** The caller of a protected route (set by the auth guard). */
export function principal(req: FastifyRequest): Principal {
  if (!req.principal) throw new AppError('UNAUTHORIZED', 'Authentication required', { reason: 'sign-in-required' });
  return req.principal;
}
