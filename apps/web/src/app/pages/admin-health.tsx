import { PageTitle } from '../../components/page-title';
import { HealthPanel } from '../../features/admin/components/health-panel';
import { ServiceHealthPanel } from '../../features/admin/components/service-health';
import { ADMIN } from '../../features/admin/strings';
import { RequireAdmin } from '../require-admin';

/** Readiness of every component, and each service as discovery finds it (ADMIN only). */
export function Page() {
  return (
    <RequireAdmin>
      {() => (
        <>
          <PageTitle lead={ADMIN.health.lead}>{ADMIN.health.title}</PageTitle>
          <HealthPanel />
          <ServiceHealthPanel />
        </>
      )}
    </RequireAdmin>
  );
}
