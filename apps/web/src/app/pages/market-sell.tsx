import { useNavigate } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ErrorAlert, Loading } from '../../components/status';
import { CreateListingForm } from '../../features/market/components/listing-form';
import { MarketNav } from '../../features/market/components/market-nav';
import { MARKET } from '../../features/market/strings';
import { useOwnedPlants } from '../../features/plants/api/plants';
import { locationOf } from '../../features/plants/components/register-plant-form';
import { RequireSession } from '../require-session';

/** Create a listing, picking one of the seller's plants (the newest twenty) to carry its lineage. */
export function Page() {
  return <RequireSession>{(user) => <SellPage userId={user.id} />}</RequireSession>;
}

function SellPage({ userId }: { userId: string }) {
  const navigate = useNavigate();
  const owned = useOwnedPlants(userId, 1);
  return (
    <>
      <PageTitle lead={MARKET.form.createLead}>{MARKET.form.createTitle}</PageTitle>
      <MarketNav />
      {owned.isPending ? (
        <Loading />
      ) : owned.error ? (
        <ErrorAlert error={owned.error} />
      ) : (
        <CreateListingForm
          plants={owned.data.items.map((p) => ({
            id: p.id,
            commonName: p.commonName,
            generation: p.generation,
            location: locationOf(p),
          }))}
          onCreated={(l) => navigate(`/market/listings/${l.id}`)}
        />
      )}
    </>
  );
}
