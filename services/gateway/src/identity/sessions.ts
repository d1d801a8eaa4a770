import { AppError, newId, SESSION_TTL_SECONDS } from '@rootline/contracts';
import { findLiveSession, insertSession, revokeSession, type SessionRow } from './db/sessions.repo.js';
import { findUserByEmail, setPasswordHash, type UserRow } from './db/users.repo.js';
import type { IdentityDeps } from './deps.js';
import { normalizeEmail } from './domain/email.js';
import type { SessionCache } from './session-cache.js';

/** One message for an unknown address and a wrong password, so the answer tells nothing about accounts. */
export const BAD_CREDENTIALS = 'Email or password is incorrect';

/** How a session was started. */
export type SessionMethod = 'password' | 'github' | 'google';

export type LiveSession = { session: SessionRow; user: UserRow };

/** Sessions: password sign-in, starting, resolving and ending sessions. */
export function createSessions(deps: IdentityDeps, cache: SessionCache<LiveSession>) {
  const { db } = deps;

  return {
    /**
     * Checks email and password. Unknown addresses cost the same time as known ones. On success the stored
     * hash is upgraded when the configured scheme or cost has changed since it was made.
     */
    async checkPassword(email: string, password: string): Promise<UserRow | null> {
      const user = await findUserByEmail(db, normalizeEmail(email));
      const ok = await deps.passwords.verify(password, user?.passwordHash ?? null);
      if (!ok || !user?.passwordHash) return null;
      if (deps.passwords.needsRehash(user.passwordHash)) {
        await setPasswordHash(db, user.id, await deps.passwords.hash(password));
      }
      return user;
    },

    /** Starts a 30-day session for an account. */
    async start(user: UserRow, method: SessionMethod): Promise<SessionRow> {
      return insertSession(db, {
        id: newId('ses', deps.clock.now().getTime()),
        userId: user.id,
        method,
        expiresAt: new Date(deps.clock.now().getTime() + SESSION_TTL_SECONDS * 1000),
      });
    },

    /** The live session with this id, if it belongs to `userId` (the token's subject); null otherwise. */
    async resolve(sessionId: string, userId: string): Promise<LiveSession | null> {
      let found = cache.get(sessionId) ?? null;
      if (!found) {
        found = await findLiveSession(db, sessionId);
        // A cached session still ends at its own expiry, whatever the cache's time to live.
        if (found && found.session.expiresAt.getTime() > deps.clock.now().getTime())
          cache.set(sessionId, found.user.id, found);
      } else if (found.session.expiresAt.getTime() <= deps.clock.now().getTime()) {
        cache.dropSession(sessionId);
        return null;
      }
      return found && found.user.id === userId ? found : null;
    },

    /** Ends a session at once: its token and cookie stop working on the next request. */
    async end(sessionId: string, userId: string): Promise<void> {
      const ended = await revokeSession(db, sessionId, userId);
      await deps.announceSessionChange({ sessionId });
      if (!ended) throw new AppError('UNAUTHORIZED', 'The session has ended', { reason: 'session-ended' });
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
