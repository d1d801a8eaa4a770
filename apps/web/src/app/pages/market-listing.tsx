import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ErrorAlert, Loading } from '../../components/status';
import { LineageGraph } from '../../features/lineage/components/lineage-graph';
import { useListing } from '../../features/market/api/listings';
import { useListingLive } from '../../features/market/api/live';
import { ListingDetails, ListingLineage, ListingState } from '../../features/market/components/listing-details';
import { EditListingForm } from '../../features/market/components/listing-form';
import { ListingMoves } from '../../features/market/components/listing-moves';
import { MarketNav } from '../../features/market/components/market-nav';
import { OffersPanel } from '../../features/market/components/offers-panel';
import { MARKET } from '../../features/market/strings';
import { CertificatePanel } from '../../features/transparency/components/certificate-panel';
import { RequireSession } from '../require-session';

/** A listing: its facts and state, the seller's controls, the offers, and its plant's lineage and certificate. */
export function Page() {
  return <RequireSession>{(user) => <ListingPage userId={user.id} />}</RequireSession>;
}

function ListingPage({ userId }: { userId: string }) {
  const { listingId = '' } = useParams();
  const navigate = useNavigate();
  const listing = useListing(listingId);
  const [editing, setEditing] = useState(false);
  useListingLive(listingId, userId);
  if (listing.isPending) return <Loading />;
  if (listing.error) {
    return (
      <>
        <PageTitle>{MARKET.listing.missing}</PageTitle>
        <MarketNav />
        <ErrorAlert error={listing.error} />
      </>
    );
  }
  const l = listing.data;
  const mine = l.sellerId === userId;
  return (
    <>
      <PageTitle>{l.title}</PageTitle>
      <MarketNav />
      <ListingState listing={l} mine={mine} />
      <div className="grid-2">
        <ListingDetails listing={l} />
        <OffersPanel listing={l} userId={userId} />
      </div>
      {mine &&
        (editing ? (
          <EditListingForm key={l.updatedAt} listing={l} onDone={() => setEditing(false)} />
        ) : (
          <ListingMoves listing={l} onEdit={() => setEditing(true)} />
        ))}
      <ListingLineage listing={l} />
      {l.plantId && (
        <>
          <LineageGraph plantId={l.plantId} onOpen={(id) => navigate(`/plants/${id}`)} />
          <CertificatePanel plantId={l.plantId} />
        </>
      )}
    </>
  );
}
