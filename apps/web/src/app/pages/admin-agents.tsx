import { PageTitle } from '../../components/page-title';
import { LineageAgent } from '../../features/admin/components/lineage-agent';
import { TransportTracker } from '../../features/admin/components/transport-tracker';
import { ADMIN } from '../../features/admin/strings';
import { RequireAdmin } from '../require-admin';

/** The lineage agent and the transport tracker: control and findings (ADMIN only). */
export function Page() {
  return (
    <RequireAdmin>
      {() => (
        <>
          <PageTitle lead={ADMIN.agents.lead}>{ADMIN.agents.title}</PageTitle>
          <div className="grid-2 agents-grid">
            <LineageAgent />
            <TransportTracker />
          </div>
        </>
      )}
    </RequireAdmin>
  );
}
