import { PageTitle } from '../../components/page-title';
import { DemandNav } from '../../features/demand/components/demand-nav';
import { MySupplies } from '../../features/demand/components/my-supplies';
import { CommitSupplyForm, MatchPanel } from '../../features/demand/components/supply-panel';
import { DEMAND } from '../../features/demand/strings';
import { RequireSession } from '../require-session';

/** A grower's supply commitments and their matches with households. */
export function Page() {
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={DEMAND.supply.lead}>{DEMAND.supply.title}</PageTitle>
          <DemandNav />
          <CommitSupplyForm />
          <MatchPanel />
          <MySupplies />
        </>
      )}
    </RequireSession>
  );
}
