import { Type } from '@sinclair/typebox';

/**
 * Every public event kind, sorted: the `kind` of each `defineEvent` that has one (a test keeps this list equal to
 * the declared events). Fields that take kinds list them as an enum, so clients see them in the document.
 */
export const PUBLIC_EVENT_KINDS = [
  'demand.match',
  'demand.signal',
  'farm.harvest',
  'listing.cancelled',
  'listing.published',
  'listing.sold',
  'offer.accepted',
  'offer.countered',
  'offer.made',
  'offer.rejected',
  'offer.withdrawn',
  'plant.registered',
  'supply.committed',
  'transport.completed',
] as const;
export type PublicEventKind = (typeof PUBLIC_EVENT_KINDS)[number];

/**
 * One public event kind (see docs/event-kinds.md), as an enum: the gateway refuses any other kind (400
 * VALIDATION_ERROR naming the field), and the transparency service checks the kinds again.
 */
export const PublicEventKind = Type.String({
  enum: [...PUBLIC_EVENT_KINDS],
  description: 'A public event kind (see the event catalogue)',
});
