import { Link } from 'react-router';
import { RecordIds } from '../../../components/record-ids';
import { Notice } from '../../../components/status';
import { usePeople } from '../../../hooks/use-people';
import { formatDateTime } from '../../../lib/format';
import type { Listing } from '../api/listings';
import { formatMoney } from '../lib/money';
import { MARKET } from '../strings';
import { StatusBadge } from './status-badge';

const S = MARKET.listing;

/** Where the listing stands, said plainly: sold and cancelled listings are no longer available. */
export function ListingState({ listing, mine }: { listing: Listing; mine: boolean }) {
  if (listing.status === 'sold') {
    return (
      <div className="alert alert-error" role="status">
        {S.sold}
      </div>
    );
  }
  if (listing.status === 'cancelled') {
    return (
      <div className="alert alert-error" role="status">
        {S.cancelled}
      </div>
    );
  }
  if (listing.status === 'draft') return <Notice>{S.draft}</Notice>;
  return mine ? <p className="hint">{S.yours}</p> : null;
}

/** The listing's facts: price, quantity left, seller, place. */
export function ListingDetails({ listing }: { listing: Listing }) {
  const { nameOf } = usePeople([listing.sellerId]);
  const place = listing.location
    ? [listing.location.city, listing.location.country].filter(Boolean).join(', ') ||
      `${listing.location.latitude.toFixed(2)}, ${listing.location.longitude.toFixed(2)}`
    : S.hidden;
  return (
    <section className="card" aria-labelledby="listing-details">
      <h2 id="listing-details">{S.details}</h2>
      {listing.description && <p className="prewrap">{listing.description}</p>}
      <dl className="facts">
        <dt>{S.status}</dt>
        <dd>
          <StatusBadge status={listing.status} />
        </dd>
        <dt>{S.price}</dt>
        <dd>{formatMoney(listing.price, listing.currency)}</dd>
        <dt>{S.left}</dt>
        <dd>{listing.quantity}</dd>
        <dt>{S.category}</dt>
        <dd>{MARKET.categories[listing.category]}</dd>
        <dt>{S.seller}</dt>
        <dd>
          <Link to={`/market/sellers/${listing.sellerId}`}>{nameOf(listing.sellerId) ?? S.sellerProfile}</Link>
        </dd>
        <dt>{S.location}</dt>
        <dd>{place}</dd>
        <dt>{S.listed}</dt>
        <dd>{formatDateTime(listing.createdAt)}</dd>
        {listing.lineage && (
          <>
            <dt>{S.plant}</dt>
            <dd>
              <Link to={`/plants/${listing.lineage.plantId}`}>{listing.lineage.commonName}</Link> (
              {S.generation(listing.lineage.generation)})
            </dd>
          </>
        )}
      </dl>
      <RecordIds
        ids={[
          { label: S.ids.listing, value: listing.id },
          { label: S.ids.seller, value: listing.sellerId },
          { label: S.ids.plant, value: listing.plantId },
        ]}
      />
    </section>
  );
}

/** The ancestors stored with the listing when it was made (the plant's live family is the lineage graph). */
export function ListingLineage({ listing }: { listing: Listing }) {
  if (!listing.lineage) return <p className="hint">{S.noPlant}</p>;
  const { ancestors } = listing.lineage;
  return (
    <section className="card" aria-labelledby="listing-lineage">
      <h2 id="listing-lineage">{S.lineage}</h2>
      <p className="hint">{S.lineageLead}</p>
      {ancestors.length === 0 ? (
        <p>{S.noAncestors}</p>
      ) : (
        <ol>
          {ancestors.map((a) => (
            <li key={a.id}>
              <Link to={`/plants/${a.id}`}>{a.commonName}</Link> · {S.generation(a.generation)}
              {a.propagationType && <span className="muted"> ({MARKET.propagation(a.propagationType)})</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
