import { PageTitle } from '../../components/page-title';
import { OwnedPlants } from '../../features/plants/components/owned-plants';
import { PLANTS } from '../../features/plants/strings';
import { RequireSession } from '../require-session';

export function Page() {
  return (
    <RequireSession>
      {(user) => (
        <>
          <PageTitle lead={PLANTS.mine.lead}>{PLANTS.mine.title}</PageTitle>
          <OwnedPlants ownerId={user.id} />
        </>
      )}
    </RequireSession>
  );
}
