import { PageTitle } from '../../components/page-title';
import { UsersPanel } from '../../features/admin/components/users-panel';
import { ADMIN } from '../../features/admin/strings';
import { ROLE_NAMES } from '../../features/auth/strings';
import { RequireAdmin } from '../require-admin';

/** Accounts and their roles (ADMIN only). */
export function Page() {
  return (
    <RequireAdmin>
      {(user) => (
        <>
          <PageTitle lead={ADMIN.users.lead}>{ADMIN.users.title}</PageTitle>
          <UsersPanel me={user.id} roleNames={ROLE_NAMES} />
        </>
      )}
    </RequireAdmin>
  );
}
