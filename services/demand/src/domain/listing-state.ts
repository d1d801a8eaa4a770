import type { ListingStatus } from '@rootline/contracts/marketplace';

/**
 * The moves a listing may make, each with the reason it exists. sold and cancelled are final. active→sold happens
 * only through an accepted offer that takes the last unit, never by request.
 */
export const LISTING_MOVES: Readonly<Record<ListingStatus, readonly ListingStatus[]>> = {
  draft: ['active', 'cancelled'],
  active: ['draft', 'cancelled', 'sold'],
  sold: [],
  cancelled: [],
};

/** Moves a seller may ask for (sold comes from a sale). */
export const REQUESTABLE: ReadonlySet<ListingStatus> = new Set(['draft', 'active', 'cancelled']);

/** Why `from → to` is refused, or undefined when the move is allowed. */
export function refusedMove(from: ListingStatus, to: ListingStatus, requested = true): string | undefined {
  if (from === to) return `The listing is already ${from}`;
  if (from === 'sold' || from === 'cancelled') return `A ${from} listing cannot move to ${to} (${from} is final)`;
  if (requested && !REQUESTABLE.has(to)) return 'A listing becomes sold only when an offer takes its last unit';
  if (!LISTING_MOVES[from].includes(to)) return `A ${from} listing cannot move to ${to}`;
  return undefined;
}

/** Whether a listing in this state may have its fields changed. */
export function editable(status: ListingStatus): boolean {
  return status === 'draft' || status === 'active';
}
