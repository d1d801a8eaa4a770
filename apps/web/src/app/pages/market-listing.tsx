import { lazy, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ErrorAlert, Loading } from '../../components/status';
import { WhenNear } from '../../components/when-near';
import { useListing } from '../../features/market/api/listings';
import { useListingLive } from '../../features/market/api/live';
import { ListingDetails, ListingLineage, ListingState } from '../../features/market/components/listing-details';
import { EditListingForm } from '../../features/market/components/listing-form';
import { ListingGallery } from '../../features/market/components/listing-gallery';
import { ListingMoves } from '../../features/market/components/listing-moves';
import { MarketNav } from '../../features/market/components/market-nav';
import { OffersPanel } from '../../features/market/components/offers-panel';
import { MARKET } from '../../features/market/strings';
import { WithSession } from '../require-session';

// The plant's graph and certificate sit at the foot of the page: their code (the graph drawing, the certificate's
// checks) is fetched when they come near the viewport, not with the listing.
const LineageGraph = lazy(() =>
  import('../../features/lineage/components/lineage-graph').then((m) => ({ default: m.LineageGraph })),
);
const CertificatePanel = lazy(() =>
  import('../../features/transparency/components/certificate-panel').then((m) => ({ default: m.CertificatePanel })),
);

/**
 * A listing: its facts and state, the seller's controls, the offers, and its plant's lineage and certificate. Public:
 * a visitor sees the listing and is asked to sign in to make an offer.
 */
export function Page() {
  // The listing is read at once, beside the session check rather than after it: one round trip less before it shows.
  const { listingId = '' } = useParams();
  useListing(listingId);
  return <WithSession>{(user) => <ListingPage userId={user?.id ?? null} />}</WithSession>;
}

function SignInToOffer() {
  const location = useLocation();
  return (
    <section className="card" aria-labelledby="offer-visitor-heading">
      <h2 id="offer-visitor-heading">{MARKET.visitor.title}</h2>
      <p className="hint">{MARKET.visitor.lead}</p>
      <Link className="button" to={`/signin?next=${encodeURIComponent(location.pathname)}`}>
        {MARKET.visitor.signIn}
      </Link>
    </section>
  );
}

function ListingPage({ userId }: { userId: string | null }) {
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
      {userId && <MarketNav />}
      <ListingState listing={l} mine={mine} />
      <ListingGallery listing={l} />
      <div className="grid-2">
        <ListingDetails listing={l} />
        {userId ? <OffersPanel listing={l} userId={userId} /> : <SignInToOffer />}
      </div>
      {mine &&
        (editing ? (
          <EditListingForm key={l.updatedAt} listing={l} onDone={() => setEditing(false)} />
        ) : (
          <ListingMoves listing={l} onEdit={() => setEditing(true)} />
        ))}
      <ListingLineage listing={l} />
      {l.plantId && (
        <WhenNear height="32rem">
          <LineageGraph plantId={l.plantId} onOpen={(id) => navigate(`/plants/${id}`)} />
          <CertificatePanel plantId={l.plantId} />
        </WhenNear>
      )}
    </>
  );
}
