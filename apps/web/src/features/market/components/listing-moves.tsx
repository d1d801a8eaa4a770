import { useState } from 'react';
import { ErrorAlert, Notice } from '../../../components/status';
import { type Listing, useMoveListing } from '../api/listings';
import { editable, LISTING_MOVES, MOVE_TARGET } from '../lib/listing-moves';
import { MARKET } from '../strings';

const S = MARKET.moves;

/** The seller's controls: exactly the moves the API takes from the listing's state, and Edit while editable. */
export function ListingMoves({ listing, onEdit }: { listing: Listing; onEdit: () => void }) {
  const move = useMoveListing(listing.id);
  const [done, setDone] = useState<string | null>(null);
  const moves = LISTING_MOVES[listing.status];
  return (
    <section className="card" aria-labelledby="listing-moves">
      <h2 id="listing-moves">{S.title}</h2>
      {moves.length === 0 ? (
        <p>{S.final[listing.status]}</p>
      ) : (
        <>
          {listing.status === 'active' && <p className="hint">{S.leavingActive}</p>}
          <p className="actions">
            {editable(listing.status) && (
              <button type="button" className="secondary" onClick={onEdit}>
                {S.edit}
              </button>
            )}
            {moves.map((m) => (
              <button
                key={m}
                type="button"
                className={m === 'cancel' ? 'danger' : m === 'publish' ? undefined : 'secondary'}
                disabled={move.isPending}
                onClick={() => {
                  if (m === 'cancel' && !window.confirm(S.confirmCancel)) return;
                  setDone(null);
                  move.mutate(MOVE_TARGET[m], {
                    onSuccess: (l) => setDone(S.done[l.status]),
                  });
                }}
              >
                {S[m]}
              </button>
            ))}
          </p>
        </>
      )}
      <ErrorAlert error={move.error} />
      {done && <Notice>{done}</Notice>}
    </section>
  );
}
