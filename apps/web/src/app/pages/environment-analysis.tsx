import { PageTitle } from '../../components/page-title';
import { Analysis } from '../../features/environment/components/analysis';
import { EnvironmentNav } from '../../features/environment/components/environment-nav';
import { ENVIRONMENT } from '../../features/environment/strings';
import { RequireSession } from '../require-session';

/** Correlations of growing conditions with growth across the network, by species. */
export function Page() {
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={ENVIRONMENT.analysis.lead}>{ENVIRONMENT.analysis.title}</PageTitle>
          <EnvironmentNav />
          <Analysis />
        </>
      )}
    </RequireSession>
  );
}
