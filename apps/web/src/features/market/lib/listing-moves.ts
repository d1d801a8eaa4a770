import type { ListingStatus } from '../api/listings';

/** What a seller can ask of a listing; the state each leads to. */
export type ListingMove = 'publish' | 'unpublish' | 'cancel';
export const MOVE_TARGET: Readonly<Record<ListingMove, 'active' | 'draft' | 'cancelled'>> = {
  publish: 'active',
  unpublish: 'draft',
  cancel: 'cancelled',
};

/**
 * The moves the API takes from each state (docs/marketplace.md "States", the same table the demand service
 * enforces): draft→active, draft→cancelled, active→draft, active→cancelled. sold comes only from a sale; sold and
 * cancelled are final. Offering exactly these means no button leads to a 409.
 */
export const LISTING_MOVES: Readonly<Record<ListingStatus, readonly ListingMove[]>> = {
  draft: ['publish', 'cancel'],
  active: ['unpublish', 'cancel'],
  sold: [],
  cancelled: [],
};

/** Whether the API lets the seller change the listing's fields in this state. */
export function editable(status: ListingStatus): boolean {
  return status === 'draft' || status === 'active';
}
