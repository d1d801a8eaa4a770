import { PageTitle } from '../../components/page-title';
import { NearbyMap, PlantSearch } from '../../features/plants/components/discover';

/** Discover: public, signed in or not. */
export function Page() {
  return (
    <>
      <PageTitle lead="Plants on the network, near a point or by name.">Discover</PageTitle>
      <PlantSearch />
      <NearbyMap />
    </>
  );
}
