import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

// The public reads a page's first paint waits for, apart from the hooks that use them, so the router can start them
// while the page's code is still coming (app/router.tsx, ADR 239). Small on purpose: they travel in the first chunk.

/** A plant, as its page shows it. */
export const plantQuery = (plantId: string) =>
  queryOptions({
    queryKey: ['plants', 'plant', plantId],
    queryFn: () => unwrap(api.GET('/api/plants/{plantId}', { params: { path: { plantId } } })),
  });

/** How many plants the landing page shows. */
export const RECENT_PLANTS = 8;

/** The network's newest plants (the landing page's cards). */
export const recentPlantsQuery = (limit: number) =>
  queryOptions({
    queryKey: ['plants', 'recent', limit],
    queryFn: () => unwrapPage(api.GET('/api/plants/recent', { params: { query: { page: 1, limit } } })),
  });

/** The network's counts (plants, growers, countries, ledger length), public. */
export const networkStatsQuery = () =>
  queryOptions({
    queryKey: ['plants', 'network'],
    queryFn: () => unwrap(api.GET('/api/plants/network')),
  });
