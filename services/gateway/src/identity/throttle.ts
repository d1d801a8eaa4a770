import { AppError } from '@rootline/contracts';
import type { Clock } from '@rootline/host';
import type { RateLimitStore } from './attempts/store.js';
import {
  ACCOUNT_FAILURES_BEFORE_BACKOFF,
  backoffSeconds,
  FAILURE_WINDOW_MS,
  IP_FAILURES_BEFORE_BACKOFF,
} from './domain/backoff.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The operations with limits of their own, tighter than the general ones. */
export type ThrottledAction = 'signin' | 'register' | 'forgot-password' | 'verify-email-request';

/** Per account (email address or user id): how many attempts in which window. */
const PER_ACCOUNT: Readonly<Record<ThrottledAction, { max: number; windowMs: number }>> = {
  signin: { max: 20, windowMs: HOUR_MS },
  register: { max: 5, windowMs: HOUR_MS },
  'forgot-password': { max: 3, windowMs: HOUR_MS },
  'verify-email-request': { max: 3, windowMs: HOUR_MS },
};

/** Why an attempt is refused, for the 429 answer. */
export interface Refusal {
  message: string;
  retryAfterMs: number;
  limit: number;
  resetAt: number;
}

export interface AuthThrottle {
  /**
   * Counts an attempt per account, and for sign-in checks the back-off left by earlier failures (of the
   * account, or of the client IP when given; the per-IP attempt limit is the route's `config.rateLimit`). Resolves to a refusal, or null when the attempt may go ahead.
   */
  attempt(action: ThrottledAction, ip: string | null, account: string): Promise<Refusal | null>;
  /** Records a failed sign-in; enough of them make further attempts wait (per account, and per IP). */
  signInFailed(ip: string, account: string): Promise<void>;
  /** A successful sign-in clears the account's failures. */
  signInSucceeded(account: string): Promise<void>;
}

/**
 * Per-account limits and the sign-in back-off for the operations attackers hammer (guessing passwords,
 * creating accounts, flooding mailboxes), on a small store of their own (Redis when configured, so replicas
 * share them). A store failure refuses the attempt (503) rather than let unlimited guessing through.
 */
export function createAuthThrottle(store: RateLimitStore, clock: Clock): AuthThrottle {
  const now = () => clock.now().getTime();
  const guard = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw new AppError('UNAVAILABLE', 'Sign-in protection is unavailable; try again shortly', {
        cause: (err as Error).message,
      });
    }
  };

  const failKey = (scope: 'acct' | 'ip', id: string) => `signin-fail:${scope}:${id}`;

  return {
    attempt: (action, ip, account) =>
      guard(async () => {
        if (action === 'signin') {
          const [accountWait, ipWait] = await Promise.all([
            store.blockedFor(failKey('acct', account)),
            ip ? store.blockedFor(failKey('ip', ip)) : 0,
          ]);
          const wait = Math.max(accountWait, ipWait);
          if (wait > 0) {
            return {
              message: 'Too many failed sign-ins; wait before trying again',
              retryAfterMs: wait,
              limit: accountWait >= ipWait ? ACCOUNT_FAILURES_BEFORE_BACKOFF : IP_FAILURES_BEFORE_BACKOFF,
              resetAt: now() + wait,
            };
          }
        }
        const { max, windowMs } = PER_ACCOUNT[action];
        const w = await store.hit(`${action}:acct:${account}`, windowMs);
        if (w.count > max) {
          return {
            message: `Too many ${action} attempts for this account (${max} per ${windowMs / MINUTE_MS} minutes)`,
            retryAfterMs: w.resetAt - now(),
            limit: max,
            resetAt: w.resetAt,
          };
        }
        return null;
      }),

    signInFailed: (ip, account) =>
      guard(async () => {
        const [byAccount, byIp] = await Promise.all([
          store.hit(failKey('acct', account), FAILURE_WINDOW_MS),
          store.hit(failKey('ip', ip), FAILURE_WINDOW_MS),
        ]);
        const accountWait = backoffSeconds(byAccount.count, ACCOUNT_FAILURES_BEFORE_BACKOFF);
        const ipWait = backoffSeconds(byIp.count, IP_FAILURES_BEFORE_BACKOFF);
        if (accountWait > 0) await store.block(failKey('acct', account), accountWait * 1000);
        if (ipWait > 0) await store.block(failKey('ip', ip), ipWait * 1000);
      }),

    signInSucceeded: (account) => guard(() => store.reset(failKey('acct', account))),
  };
}
