import { useState } from 'react';
import { Link } from 'react-router';
import { SelectField } from '../../../components/field';
import { Pager } from '../../../components/pager';
import { PhotoFrame } from '../../../components/photo';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatDateTime } from '../../../lib/format';
import { type ListingStatus, useSellerListings } from '../api/listings';
import { formatMoney } from '../lib/money';
import { MARKET } from '../strings';
import { StatusBadge } from './status-badge';

const S = MARKET.mine;
const STATUSES = ['draft', 'active', 'sold', 'cancelled'] as const satisfies readonly ListingStatus[];

/** The seller's own listings in every state (or one), newest first, each linking to its page and offers. */
export function MyListings({ sellerId }: { sellerId: string }) {
  const [status, setStatus] = useState<ListingStatus | ''>('');
  const [page, setPage] = useState(1);
  const listings = useSellerListings(sellerId, status || undefined, page);
  return (
    <section className="card" aria-labelledby="my-listings">
      <h2 id="my-listings" className="visually-hidden">
        {S.title}
      </h2>
      <SelectField
        label={S.status}
        name="status"
        value={status}
        onChange={(v) => {
          setStatus(v as ListingStatus | '');
          setPage(1);
        }}
        options={[{ value: '', label: S.all }, ...STATUSES.map((s) => ({ value: s, label: MARKET.statuses[s] }))]}
      />
      {listings.isPending ? (
        <Loading />
      ) : listings.error ? (
        <ErrorAlert error={listings.error} />
      ) : listings.data.items.length === 0 ? (
        <p>
          {S.none} <Link to="/market/sell">{S.create}</Link>
        </p>
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">{S.columns.title}</th>
                  <th scope="col">{S.columns.status}</th>
                  <th scope="col">{S.columns.price}</th>
                  <th scope="col">{S.columns.left}</th>
                  <th scope="col">{S.columns.updated}</th>
                </tr>
              </thead>
              <tbody>
                {listings.data.items.map((l) => (
                  <tr key={l.id}>
                    <td>
                      <span className="photo-row">
                        <PhotoFrame photo={l.coverPhoto} />
                        <Link to={`/market/listings/${l.id}`}>{l.title}</Link>
                      </span>
                    </td>
                    <td>
                      <StatusBadge status={l.status} />
                    </td>
                    <td>{formatMoney(l.price, l.currency)}</td>
                    <td>{l.quantity}</td>
                    <td>{formatDateTime(l.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={listings.data.pagination.page}
            totalPages={listings.data.pagination.totalPages}
            onPage={setPage}
            label={MARKET.browse.pages}
          />
        </>
      )}
    </section>
  );
}
