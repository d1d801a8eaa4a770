import { PageTitle } from '../../components/page-title';
import { NearbyMap, PlantSearch } from '../../features/plants/components/discover';
import { RequireSession } from '../require-session';

export function Page() {
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead="Plants on the network, near a point or by name.">Discover</PageTitle>
          <PlantSearch />
          <NearbyMap />
        </>
      )}
    </RequireSession>
  );
}
