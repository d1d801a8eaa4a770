import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

// A listing's read apart from the hooks that use it, so the router can start it while the page's code is still
// coming (app/router.tsx, ADR 239). Small on purpose: it travels in the first chunk.

/** Every marketplace query lives under this key, so one live event can refresh what a page shows. */
export const MARKET_KEY = ['market'] as const;
export const listingKey = (listingId: string) => ['market', 'listing', listingId] as const;

/** A listing, public. */
export const listingQuery = (listingId: string) =>
  queryOptions({
    queryKey: listingKey(listingId),
    queryFn: () => unwrap(api.GET('/api/marketplace/listings/{listingId}', { params: { path: { listingId } } })),
  });
