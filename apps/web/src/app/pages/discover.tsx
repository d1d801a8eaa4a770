import { PageTitle } from '../../components/page-title';
import { NearbyMap, PlantSearch } from '../../features/plants/components/discover';
import { DISCOVER } from '../strings';

/** Discover: public, signed in or not. */
export function Page() {
  return (
    <>
      <PageTitle lead={DISCOVER.lead}>{DISCOVER.title}</PageTitle>
      <PlantSearch />
      <NearbyMap />
    </>
  );
}
