import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { OwnedPlants } from '../../features/plants/components/owned-plants';
import { PLANTS } from '../../features/plants/strings';
import { CsvActions } from '../../features/seeds/components/csv-export';
import { SEEDS } from '../../features/seeds/strings';
import { TransferList } from '../../features/transfers/components/transfer-list';
import { useActingAs } from '../../lib/acting-as';
import { RequireSession } from '../require-session';

export function Page() {
  // Acting for an organization, its plants are the ones listed.
  const acting = useActingAs();
  return (
    <RequireSession>
      {(user) => (
        <>
          <PageTitle lead={PLANTS.mine.lead}>{PLANTS.mine.title}</PageTitle>
          <p className="actions">
            <Link to="/seed-lots">{SEEDS.list.mine}</Link>
          </p>
          {/* Plants offered to the person, or to the organization the tab acts for, wait for an answer here. */}
          <TransferList side="incoming" pendingOnly />
          <CsvActions kind="plants" />
          <OwnedPlants ownerId={acting ?? user.id} />
        </>
      )}
    </RequireSession>
  );
}
