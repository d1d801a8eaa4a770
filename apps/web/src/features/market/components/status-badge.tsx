import type { ListingStatus } from '../api/listings';
import { MARKET } from '../strings';

/** A listing's state as a badge; the final ones in the warning colour. */
export function StatusBadge({ status }: { status: ListingStatus }) {
  const over = status === 'sold' || status === 'cancelled';
  return <span className={over ? 'badge bad' : 'badge'}>{MARKET.statuses[status]}</span>;
}
