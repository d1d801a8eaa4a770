import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Loading } from '../components/status';
import { type User, useSession } from '../features/auth/api/session';

/** Renders its children with the signed-in user; without a session, sends the person to sign in and back. */
export function RequireSession({ children }: { children: (user: User) => ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <Loading />;
  if (!session.data) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/signin?next=${encodeURIComponent(next)}`} replace />;
  }
  return <>{children(session.data)}</>;
}

/** A same-site path to return to (never another origin). */
export function safeNext(value: string | null, fallback = '/plants/mine'): string {
  return value?.startsWith('/') && !value.startsWith('//') ? value : fallback;
}
