import { useState } from 'react';
import { Link } from 'react-router';
import { Field, SelectField } from '../../../components/field';
import { Pager } from '../../../components/pager';
import { ErrorAlert, Loading, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { LISTING_CATEGORIES, type ListingCategory } from '../api/listings';
import { useAddWishlistItem, useRecommendations, useRemoveWishlistItem, useWishlist } from '../api/sellers';
import { formatMoney, toMinor } from '../lib/money';
import { MARKET } from '../strings';

const S = MARKET.wishlist;

/** The caller's private wishlist: add what they look for, see it, remove it. */
export function WishlistPanel() {
  const [page, setPage] = useState(1);
  const wishlist = useWishlist(page);
  const add = useAddWishlistItem();
  const remove = useRemoveWishlistItem();
  const [q, setQ] = useState('');
  const [category, setCategory] = useState<ListingCategory | ''>('');
  const [maxPrice, setMaxPrice] = useState('');
  return (
    <section className="card" aria-labelledby="wishlist-heading">
      <h2 id="wishlist-heading">{S.title}</h2>
      <p className="hint">{S.private}</p>
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const max = toMinor(maxPrice, 'EUR');
          add.mutate(
            {
              ...(q.trim() ? { q: q.trim() } : {}),
              ...(category ? { category } : {}),
              ...(max !== null ? { maxPrice: max } : {}),
            },
            {
              onSuccess: () => {
                setQ('');
                setCategory('');
                setMaxPrice('');
              },
            },
          );
        }}
      >
        <h3>{S.add}</h3>
        <Field label={S.q} name="q" value={q} onChange={(e) => setQ(e.target.value)} error={errorFor(add.error, 'q')} />
        <div className="row">
          <SelectField
            label={S.category}
            name="category"
            value={category}
            onChange={(v) => setCategory(v as ListingCategory | '')}
            options={[
              { value: '', label: S.anyCategory },
              ...LISTING_CATEGORIES.map((c) => ({ value: c, label: MARKET.categories[c] })),
            ]}
          />
          <Field
            label={S.maxPrice}
            name="maxPrice"
            inputMode="decimal"
            hint={S.maxPriceHint}
            value={maxPrice}
            onChange={(e) => setMaxPrice(e.target.value)}
            error={errorFor(add.error, 'maxPrice')}
          />
        </div>
        <ErrorAlert error={add.error} />
        <p className="actions">
          <button type="submit" disabled={add.isPending}>
            {S.submit}
          </button>
        </p>
      </form>
      <ErrorAlert error={remove.error} />
      {remove.isSuccess && <Notice>{S.removed}</Notice>}
      {wishlist.isPending ? (
        <Loading />
      ) : wishlist.error ? (
        <ErrorAlert error={wishlist.error} />
      ) : wishlist.data.items.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <>
          <ul className="results">
            {wishlist.data.items.map((item) => {
              const what = S.describe(item);
              return (
                <li key={item.id} className="actions">
                  <span>{what}</span>
                  <button
                    type="button"
                    className="secondary small"
                    aria-label={S.remove(what)}
                    disabled={remove.isPending}
                    onClick={() => remove.mutate(item.id)}
                  >
                    ✕
                  </button>
                </li>
              );
            })}
          </ul>
          <Pager
            page={wishlist.data.pagination.page}
            totalPages={wishlist.data.pagination.totalPages}
            onPage={setPage}
            label={MARKET.browse.pages}
          />
        </>
      )}
    </section>
  );
}

/** Listings the API recommends to the caller, with why. */
export function RecommendationsPanel() {
  const recommended = useRecommendations();
  const R = MARKET.recommendations;
  return (
    <section className="card" aria-labelledby="recommended-heading">
      <h2 id="recommended-heading">{R.title}</h2>
      <p className="hint">{R.lead}</p>
      {recommended.isPending ? (
        <Loading />
      ) : recommended.error ? (
        <ErrorAlert error={recommended.error} />
      ) : recommended.data.length === 0 ? (
        <p>{R.none}</p>
      ) : (
        <ul className="results">
          {recommended.data.map(({ listing, reasonCodes, score }) => (
            <li key={listing.id}>
              <Link to={`/market/listings/${listing.id}`}>{listing.title}</Link> ·{' '}
              {formatMoney(listing.price, listing.currency)} · {reasonCodes.map(R.reason).join('; ')}{' '}
              <span className="muted">({R.score(score)})</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
