import { PageTitle } from '../../components/page-title';
import { DemandNav } from '../../features/demand/components/demand-nav';
import { ForecastPanel } from '../../features/demand/components/forecast-panel';
import { RecommendationsPanel } from '../../features/demand/components/recommendations-panel';
import { SignalPanel } from '../../features/demand/components/signal-panel';
import { DEMAND } from '../../features/demand/strings';
import { RequireSession } from '../require-session';

/** Demand by region, what to plant where, and the forecast of a crop's demand. */
export function Page() {
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={DEMAND.signal.lead}>{DEMAND.tabs.planning}</PageTitle>
          <DemandNav />
          <SignalPanel />
          <ForecastPanel />
          <RecommendationsPanel />
        </>
      )}
    </RequireSession>
  );
}
