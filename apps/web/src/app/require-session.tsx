import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ErrorAlert, Loading } from '../components/status';
import { type User, useSession } from '../features/auth/api/session';

/**
 * Renders its children with the signed-in user; without a session, sends the person to sign in and back. A session
 * check that failed (a 429, the API away) is not a sign-out: it shows the error (a calm pause for a 429) and tries
 * again.
 */
export function RequireSession({ children }: { children: (user: User) => ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <Loading />;
  if (session.data === undefined) return <ErrorAlert error={session.error} />;
  if (session.data === null) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/signin?next=${encodeURIComponent(next)}`} replace />;
  }
  return <>{children(session.data)}</>;
}

/**
 * Renders its children with the signed-in user, or null for a visitor: a public page (Discover, a plant, a listing,
 * a seller). A failed session check shows the page as to a visitor.
 */
export function WithSession({ children }: { children: (user: User | null) => ReactNode }) {
  const session = useSession();
  if (session.isPending) return <Loading />;
  return <>{children(session.data ?? null)}</>;
}

/** A same-site path to return to (never another origin). */
export function safeNext(value: string | null, fallback = '/plants/mine'): string {
  return value?.startsWith('/') && !value.startsWith('//') ? value : fallback;
}
