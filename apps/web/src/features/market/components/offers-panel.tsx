import { type FormEvent, useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { Pager } from '../../../components/pager';
import { RecordIds } from '../../../components/record-ids';
import { ErrorAlert, Loading, Notice } from '../../../components/status';
import { usePeople } from '../../../hooks/use-people';
import { errorFor } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import type { Listing } from '../api/listings';
import { type Offer, useMakeOffer, useOfferMove, useOffers, useReviewOffer } from '../api/offers';
import { acceptRefusal } from '../lib/accept-refusal';
import { formatMoney, toMajorText, toMinor } from '../lib/money';
import { MARKET } from '../strings';
import { OfferStatusBadge } from './offer-status-badge';

const S = MARKET.offers;

/**
 * The offers on a listing as its seller or a buyer sees them, each with the moves whose turn it is (a pending offer
 * awaits the seller, a countered one the buyer), and, for a buyer, the form to make one.
 */
export function OffersPanel({ listing, userId }: { listing: Listing; userId: string }) {
  const [page, setPage] = useState(1);
  const offers = useOffers(listing.id, page);
  const seller = listing.sellerId === userId;
  // The buyers' names for the seller, read once for the page of offers (ADR 200).
  const { nameOf } = usePeople(seller ? (offers.data?.items ?? []).map((o) => o.buyerId) : []);
  return (
    <section className="card" aria-labelledby="offers-heading">
      <h2 id="offers-heading">{S.title}</h2>
      <p className="hint">{seller ? S.leadSeller : S.leadBuyer}</p>
      {offers.isPending ? (
        <Loading />
      ) : offers.error ? (
        <ErrorAlert error={offers.error} />
      ) : offers.data.items.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <>
          {/* Said again when offers arrive or change, live. */}
          <p role="status" className="hint">
            {S.count(
              offers.data.items.filter((o) => o.status === 'pending' || o.status === 'countered').length,
              offers.data.pagination.total,
            )}
          </p>
          <ul className="results offers">
            {offers.data.items.map((o) => (
              <OfferItem key={o.id} offer={o} listing={listing} asSeller={seller} buyer={nameOf(o.buyerId)} />
            ))}
          </ul>
          <Pager
            page={offers.data.pagination.page}
            totalPages={offers.data.pagination.totalPages}
            onPage={setPage}
            label={MARKET.browse.pages}
          />
        </>
      )}
      {!seller && (listing.status === 'active' ? <MakeOfferForm listing={listing} /> : <p>{S.closed}</p>)}
    </section>
  );
}

function OfferItem({
  offer,
  listing,
  asSeller,
  buyer,
}: {
  offer: Offer;
  listing: Listing;
  asSeller: boolean;
  /** The buyer's display name, when known. */
  buyer?: string | undefined;
}) {
  const move = useOfferMove();
  const money = (minor: number) => formatMoney(minor, offer.currency);
  const agreed = offer.counterPrice ?? offer.price;
  const open = offer.status === 'pending' || offer.status === 'countered';
  const act = (action: 'accept' | 'reject' | 'withdraw') => move.mutate({ offerId: offer.id, action });
  // A buyer who lost the race for the last units is told so plainly, not with the API's 409 message.
  const refusal = !asSeller && move.variables?.action === 'accept' ? acceptRefusal(move.error, offer) : undefined;
  return (
    <li aria-label={S.item(offer.quantity, money(offer.price))}>
      <p>
        <strong>
          {offer.quantity} × {money(offer.price)}
        </strong>
        {offer.counterPrice !== null && (
          <>
            {' '}
            · {S.counter}: <strong>{money(offer.counterPrice)}</strong>
          </>
        )}{' '}
        · <OfferStatusBadge offer={offer} />
        <span className="muted"> · {formatDateTime(offer.updatedAt)}</span>
      </p>
      {asSeller && (
        <p className="hint">
          {S.buyer}: <strong>{buyer ?? S.someBuyer}</strong>
        </p>
      )}
      {offer.message && <p className="prewrap">“{offer.message}”</p>}
      {offer.status === 'accepted' && (
        <Notice>{asSeller ? S.sold(offer.quantity, money(agreed)) : S.bought(offer.quantity, money(agreed))}</Notice>
      )}
      {offer.status === 'rejected' &&
        !asSeller &&
        (offer.rejectionReason === 'sold-out' || listing.status !== 'active') && (
          <div className="alert alert-error" role="status">
            {offer.rejectionReason === 'sold-out' ? S.soldOut : S.lost}
          </div>
        )}
      {open && asSeller && (
        <>
          {offer.status === 'pending' ? (
            <p className="actions">
              <button type="button" disabled={move.isPending} onClick={() => act('accept')}>
                {S.accept}
              </button>
              <button type="button" className="danger" disabled={move.isPending} onClick={() => act('reject')}>
                {S.reject}
              </button>
            </p>
          ) : (
            <p className="hint">{S.awaitingBuyer}</p>
          )}
          <CounterForm offer={offer} again={offer.status === 'countered'} move={move} />
        </>
      )}
      {open && !asSeller && (
        <>
          {offer.status === 'pending' && <p className="hint">{S.awaitingSeller}</p>}
          <p className="actions">
            {offer.status === 'countered' && (
              <>
                <button type="button" disabled={move.isPending} onClick={() => act('accept')}>
                  {S.acceptCounter}
                </button>
                <button type="button" className="danger" disabled={move.isPending} onClick={() => act('reject')}>
                  {S.rejectCounter}
                </button>
              </>
            )}
            <button type="button" className="secondary" disabled={move.isPending} onClick={() => act('withdraw')}>
              {S.withdraw}
            </button>
          </p>
        </>
      )}
      {refusal ? (
        <div className="alert alert-error" role="alert">
          {refusal}
        </div>
      ) : (
        <ErrorAlert error={move.error} />
      )}
      {offer.status === 'accepted' && !asSeller && <ReviewForm offerId={offer.id} />}
      <RecordIds
        ids={[
          { label: S.ids.offer, value: offer.id },
          { label: S.ids.buyer, value: asSeller ? offer.buyerId : null },
        ]}
      />
    </li>
  );
}

function CounterForm({ offer, again, move }: { offer: Offer; again: boolean; move: ReturnType<typeof useOfferMove> }) {
  const [price, setPrice] = useState(toMajorText(offer.counterPrice ?? offer.price, offer.currency));
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className="inline-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const minor = toMinor(price, offer.currency);
        if (minor === null) return setProblem(MARKET.form.badPrice);
        setProblem(null);
        move.mutate({ offerId: offer.id, action: 'counter', price: minor });
      }}
    >
      <Field
        label={S.counterPrice(offer.currency)}
        name="counterPrice"
        inputMode="decimal"
        value={price}
        onChange={(e) => setPrice(e.target.value)}
        error={problem ?? errorFor(move.error, 'price')}
      />
      <button type="submit" className="secondary" disabled={move.isPending}>
        {again ? S.counterAgain : S.sendCounter}
      </button>
    </form>
  );
}

function MakeOfferForm({ listing }: { listing: Listing }) {
  const make = useMakeOffer(listing.id);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [quantity, setQuantity] = useState('1');
  const [price, setPrice] = useState(toMajorText(listing.price, listing.currency));
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const minor = toMinor(price, listing.currency);
    if (minor === null) return setProblem(MARKET.form.badPrice);
    setProblem(null);
    make.mutate(
      { key, body: { quantity: Number(quantity), price: minor, message: message.trim() } },
      { onSuccess: () => setKey(crypto.randomUUID()) },
    );
  };
  return (
    <form className="form" onSubmit={submit} noValidate aria-labelledby="make-offer">
      <h3 id="make-offer">{S.make}</h3>
      <p className="hint">{S.makeLead(listing.quantity)}</p>
      <div className="row">
        <Field
          label={S.offerQuantity}
          name="quantity"
          type="number"
          min="1"
          max={listing.quantity}
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
          error={errorFor(make.error, 'quantity')}
        />
        <Field
          label={S.offerPrice(listing.currency)}
          name="price"
          inputMode="decimal"
          value={price}
          onChange={(e) => setPrice(e.target.value)}
          error={problem ?? errorFor(make.error, 'price')}
        />
      </div>
      <Field
        label={S.offerMessage}
        name="message"
        maxLength={1000}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        error={errorFor(make.error, 'message')}
      />
      <ErrorAlert error={make.error} />
      {make.isSuccess && <Notice>{S.sent}</Notice>}
      <p className="actions">
        <button type="submit" disabled={make.isPending}>
          {S.send}
        </button>
      </p>
    </form>
  );
}

function ReviewForm({ offerId }: { offerId: string }) {
  const review = useReviewOffer();
  const [rating, setRating] = useState('5');
  const [comment, setComment] = useState('');
  if (review.isSuccess) return <Notice>{S.reviewed}</Notice>;
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        review.mutate({ offerId, body: { rating: Number(rating), comment: comment.trim() } });
      }}
    >
      <fieldset className="form">
        <legend>{S.review}</legend>
        <SelectField
          label={S.rating}
          name="rating"
          value={rating}
          onChange={setRating}
          options={['5', '4', '3', '2', '1'].map((v) => ({ value: v, label: v }))}
        />
        <Field
          label={S.comment}
          name="comment"
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          error={errorFor(review.error, 'comment')}
        />
        <ErrorAlert error={review.error} />
        <p className="actions">
          <button type="submit" className="secondary" disabled={review.isPending}>
            {S.sendReview}
          </button>
        </p>
      </fieldset>
    </form>
  );
}
