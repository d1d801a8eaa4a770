import { useState } from 'react';
import { Link } from 'react-router';
import { SelectField } from '../../../components/field';
import { Pager } from '../../../components/pager';
import { ErrorAlert, Loading } from '../../../components/status';
import { usePeople } from '../../../hooks/use-people';
import { formatDateTime } from '../../../lib/format';
import { useBuyerOffersLive } from '../api/live';
import { type OfferStatus, useBuyerOffers } from '../api/offers';
import { formatMoney } from '../lib/money';
import { MARKET } from '../strings';
import { OfferStatusBadge } from './offer-status-badge';
import { StatusBadge } from './status-badge';

const S = MARKET.buyerOffers;
const STATUSES = [
  'pending',
  'countered',
  'accepted',
  'rejected',
  'withdrawn',
] as const satisfies readonly OfferStatus[];

/**
 * The buyer's own offers on every listing (or those in one state), newest first: each with its state and, when
 * rejected, why, and the listing as it is now, linking to it. Follows those listings live.
 */
export function MyOffers({ userId }: { userId: string }) {
  const [status, setStatus] = useState<OfferStatus | ''>('');
  const [page, setPage] = useState(1);
  const offers = useBuyerOffers(status || undefined, page);
  // The sellers' names for the page of offers, in one read (ADR 200).
  const { nameOf } = usePeople((offers.data?.items ?? []).map((o) => o.sellerId));
  useBuyerOffersLive(userId, offers.data?.items.map((o) => o.listingId) ?? []);
  return (
    <section className="card" aria-labelledby="my-offers">
      <h2 id="my-offers" className="visually-hidden">
        {S.title}
      </h2>
      <SelectField
        label={S.status}
        name="status"
        value={status}
        onChange={(v) => {
          setStatus(v as OfferStatus | '');
          setPage(1);
        }}
        options={[
          { value: '', label: S.all },
          ...STATUSES.map((s) => ({ value: s, label: MARKET.offers.statuses[s] })),
        ]}
      />
      {offers.isPending ? (
        <Loading />
      ) : offers.error ? (
        <ErrorAlert error={offers.error} />
      ) : offers.data.items.length === 0 ? (
        <p>
          {S.none} <Link to="/market">{S.browse}</Link>
        </p>
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">{S.columns.listing}</th>
                  <th scope="col">{S.columns.seller}</th>
                  <th scope="col">{S.columns.offer}</th>
                  <th scope="col">{S.columns.status}</th>
                  <th scope="col">{S.columns.listingState}</th>
                  <th scope="col">{S.columns.updated}</th>
                </tr>
              </thead>
              <tbody>
                {offers.data.items.map((o) => (
                  <tr key={o.id}>
                    <td>
                      <Link to={`/market/listings/${o.listingId}`}>{o.listing.title}</Link>
                    </td>
                    <td>
                      <Link to={`/market/sellers/${o.sellerId}`}>{nameOf(o.sellerId) ?? S.aSeller}</Link>
                    </td>
                    <td>
                      {S.offer(o.quantity, formatMoney(o.price, o.currency))}
                      {o.counterPrice !== null && (
                        <span className="muted"> · {S.counter(formatMoney(o.counterPrice, o.currency))}</span>
                      )}
                    </td>
                    <td>
                      <OfferStatusBadge offer={o} />
                    </td>
                    <td>
                      <StatusBadge status={o.listing.status} />{' '}
                      <span className="muted">{formatMoney(o.listing.price, o.listing.currency)}</span>
                    </td>
                    <td>{formatDateTime(o.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={offers.data.pagination.page}
            totalPages={offers.data.pagination.totalPages}
            onPage={setPage}
            label={MARKET.browse.pages}
          />
        </>
      )}
    </section>
  );
}
