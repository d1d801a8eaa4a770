import { PageTitle } from '../../components/page-title';
import { DemandNav } from '../../features/demand/components/demand-nav';
import { PreferencesPanel } from '../../features/demand/components/preferences-form';
import { DEMAND } from '../../features/demand/strings';
import { RequireSession } from '../require-session';

/** The household's preferences: what it would buy each week, from how far. */
export function Page() {
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={DEMAND.preferences.lead}>{DEMAND.tabs.preferences}</PageTitle>
          <DemandNav />
          <PreferencesPanel />
        </>
      )}
    </RequireSession>
  );
}
