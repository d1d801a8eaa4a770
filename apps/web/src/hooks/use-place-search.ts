import type { components } from '@rootline/sdk';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrapPage } from '../lib/api-client';

export type GeocodedPlace = components['schemas']['GeocodedPlace'];

/** Fewest letters a place search is sent for. */
export const PLACE_SEARCH_MIN = 2;
/** Places shown for a search. */
export const PLACE_SEARCH_LIMIT = 8;

/**
 * Places whose name matches `q` (`GET /api/geocode`, public: visitors get the gazetteer's towns). Shared rather than a feature's: every location
 * picker offers it, and the pickers live in several features.
 */
export function usePlaceSearch(q: string) {
  const text = q.trim();
  return useQuery({
    queryKey: ['places', 'search', text.toLowerCase()],
    enabled: text.length >= PLACE_SEARCH_MIN,
    queryFn: () => unwrapPage(api.GET('/api/geocode', { params: { query: { q: text, limit: PLACE_SEARCH_LIMIT } } })),
    // Place names do not change while a form is open.
    staleTime: 10 * 60_000,
    placeholderData: keepPreviousData,
  });
}
