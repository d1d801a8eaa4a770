import type { ReactNode } from 'react';
import { AdminNav, AdminOnly } from '../features/admin/components/admin-only';
import type { User } from '../features/auth/api/session';
import { ROLE_NAMES } from '../features/auth/strings';
import { RequireSession } from './require-session';

/**
 * An administration page: signed out, to sign in; signed in without the ADMIN role, a page saying so and where to
 * go instead. The role is the session's as it is now, so a role changed by another administrator takes effect on
 * the open page (the live connection asks for the session again).
 */
export function RequireAdmin({ children }: { children: (user: User) => ReactNode }) {
  return (
    <RequireSession>
      {(user) =>
        user.role === 'ADMIN' ? (
          <>
            <AdminNav />
            {children(user)}
          </>
        ) : (
          <AdminOnly roleName={ROLE_NAMES[user.role] ?? user.role} />
        )
      }
    </RequireSession>
  );
}
