/**
 * Live sessions remembered for a short time, so an authenticated request does not need a database read.
 * Entries are dropped when a session ends or its account changes (locally and, through a broadcast, on every
 * replica), and expire after `ttlMs` in any case, which bounds how long a missed broadcast can matter.
 */
export interface SessionCache<T> {
  get(sessionId: string): T | undefined;
  set(sessionId: string, userId: string, value: T): void;
  /** Forgets one session. */
  dropSession(sessionId: string): void;
  /** Forgets every session of an account (role change, password reset). */
  dropUser(userId: string): void;
  readonly size: number;
}

interface Entry<T> {
  value: T;
  userId: string;
  expiresAt: number;
}

/** A bounded map of sessions; the oldest entry goes first when it is full. `ttlMs` 0 disables caching. */
export function createSessionCache<T>(opts: { ttlMs: number; max: number; now?: () => number }): SessionCache<T> {
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry<T>>();
  return {
    get(sessionId) {
      const e = entries.get(sessionId);
      if (!e) return undefined;
      if (e.expiresAt <= now()) {
        entries.delete(sessionId);
        return undefined;
      }
      return e.value;
    },
    set(sessionId, userId, value) {
      if (opts.ttlMs <= 0) return;
      entries.delete(sessionId);
      if (entries.size >= opts.max) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(sessionId, { value, userId, expiresAt: now() + opts.ttlMs });
    },
    dropSession(sessionId) {
      entries.delete(sessionId);
    },
    dropUser(userId) {
      for (const [id, e] of entries) if (e.userId === userId) entries.delete(id);
    },
    get size() {
      return entries.size;
    },
  };
}
