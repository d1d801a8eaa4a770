import { useState } from 'react';
import { Pager } from '../../../components/pager';
import { RecordIds } from '../../../components/record-ids';
import { ErrorAlert, Loading } from '../../../components/status';
import { usePeople } from '../../../hooks/use-people';
import { formatDateTime } from '../../../lib/format';
import { useSellerListings } from '../api/listings';
import { useSellerProfile } from '../api/sellers';
import { MARKET } from '../strings';
import { ListingList } from './listing-search';

const S = MARKET.seller;

/** A seller's public record: sales, rating, what they sell, and their active listings. */
export function SellerProfilePanel({ sellerId }: { sellerId: string }) {
  const profile = useSellerProfile(sellerId);
  const [page, setPage] = useState(1);
  const listings = useSellerListings(sellerId, 'active', page, 10);
  const { nameOf } = usePeople([sellerId]);
  if (profile.isPending) return <Loading />;
  if (profile.error) return <ErrorAlert error={profile.error} />;
  const p = profile.data;
  return (
    <>
      <section className="card" aria-labelledby="seller-record">
        <h2 id="seller-record">{nameOf(p.sellerId) ?? S.unnamed}</h2>
        <p className="hint">{S.lead}</p>
        <dl className="facts">
          <dt>{S.active}</dt>
          <dd>{p.activeListings}</dd>
          <dt>{S.sales}</dt>
          <dd>{p.completedSales}</dd>
          <dt>{S.units}</dt>
          <dd>{p.unitsSold}</dd>
          <dt>{S.rating}</dt>
          <dd>{p.rating.average === null ? S.noRating : S.ratingOf(p.rating.average, p.rating.count)}</dd>
          <dt>{S.categories}</dt>
          <dd>{p.categories.map((c) => MARKET.categories[c]).join(', ') || '–'}</dd>
          <dt>{S.since}</dt>
          <dd>{p.memberSince ? formatDateTime(p.memberSince) : '–'}</dd>
        </dl>
        <RecordIds ids={[{ label: S.id, value: p.sellerId }]} />
      </section>
      <section className="card" aria-labelledby="seller-listings">
        <h2 id="seller-listings">{S.listings}</h2>
        {listings.isPending ? (
          <Loading />
        ) : listings.error ? (
          <ErrorAlert error={listings.error} />
        ) : listings.data.items.length === 0 ? (
          <p>{S.noListings}</p>
        ) : (
          <>
            <ListingList items={listings.data.items} showSeller={false} />
            <Pager
              page={listings.data.pagination.page}
              totalPages={listings.data.pagination.totalPages}
              onPage={setPage}
              label={MARKET.browse.pages}
            />
          </>
        )}
      </section>
    </>
  );
}
