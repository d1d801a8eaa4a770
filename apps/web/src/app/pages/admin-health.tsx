import { PageTitle } from '../../components/page-title';
import { HealthPanel } from '../../features/admin/components/health-panel';
import { ADMIN } from '../../features/admin/strings';
import { RequireAdmin } from '../require-admin';

/** Readiness of every component (ADMIN only). */
export function Page() {
  return (
    <RequireAdmin>
      {() => (
        <>
          <PageTitle lead={ADMIN.health.lead}>{ADMIN.health.title}</PageTitle>
          <HealthPanel />
        </>
      )}
    </RequireAdmin>
  );
}
