import { PageTitle } from '../../components/page-title';
import { AdminAuditLog, PublicAuditLog } from '../../features/transparency/components/audit-log';
import { SectionNav } from '../../features/transparency/components/section-nav';
import { TRANSPARENCY } from '../../features/transparency/strings';
import { RequireSession } from '../require-session';

const S = TRANSPARENCY.audit;

/** The audit log: in full with filters for an ADMIN, the public form for everyone else; each entry checked here. */
export function Page() {
  return (
    <RequireSession>
      {(user) => (
        <>
          <PageTitle lead={S.lead}>{S.title}</PageTitle>
          <SectionNav />
          {user.role === 'ADMIN' ? <AdminAuditLog /> : <PublicAuditLog />}
        </>
      )}
    </RequireSession>
  );
}
