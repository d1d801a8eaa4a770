import { PageTitle } from '../../components/page-title';
import { LiveFeed } from '../../features/transparency/components/live-feed';
import { NetworkDashboard } from '../../features/transparency/components/network-dashboard';
import { SectionNav } from '../../features/transparency/components/section-nav';
import { TRANSPARENCY } from '../../features/transparency/strings';
import { useLiveRefresh } from '../../lib/live';
import { RequireSession } from '../require-session';

const S = TRANSPARENCY.network;

/** The network at a glance: figures, charts and the live feed of public events. */
export function Page() {
  return <RequireSession>{() => <NetworkPage />}</RequireSession>;
}

function NetworkPage() {
  // The figures follow the events as they are recorded.
  useLiveRefresh('network', [['transparency', 'dashboard']]);
  return (
    <>
      <PageTitle lead={S.lead}>{S.title}</PageTitle>
      <SectionNav />
      <div className="grid-main-side">
        <div>
          <NetworkDashboard />
        </div>
        <LiveFeed />
      </div>
    </>
  );
}
