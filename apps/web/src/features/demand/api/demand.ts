import type { components, paths } from '@rootline/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

export type Preference = components['schemas']['Preference'];
export type PreferenceInput = paths['/api/demand/preferences']['post']['requestBody']['content']['application/json'];
export type PreferenceItem = PreferenceInput['items'][number];
export type SignalInput = paths['/api/demand/signal']['post']['requestBody']['content']['application/json'];
export type Signal = components['schemas']['DemandSignal'];
export type RecommendationQuery = NonNullable<paths['/api/demand/recommendations']['get']['parameters']['query']>;
export type Recommendation =
  paths['/api/demand/recommendations']['get']['responses'][200]['content']['application/json']['data'][number];
export type ForecastQuery = NonNullable<paths['/api/demand/forecast']['get']['parameters']['query']>;
export type Forecast = components['schemas']['Forecast'];
export type SupplyInput = paths['/api/demand/supply']['post']['requestBody']['content']['application/json'];
export type Supply = components['schemas']['Supply'];
export type MatchInput = paths['/api/demand/match']['post']['requestBody']['content']['application/json'];
export type Match = components['schemas']['Match'];

export const DEMAND_KEYS = {
  mine: ['demand', 'preferences', 'mine'] as const,
  recommendations: (q: RecommendationQuery) => ['demand', 'recommendations', q] as const,
  forecast: (q: ForecastQuery) => ['demand', 'forecast', q] as const,
  /** Every query of the caller's supply: its commitments and their matches. */
  supply: ['demand', 'supply'] as const,
  supplies: (page: number) => ['demand', 'supply', 'mine', page] as const,
  matches: (supplyId: string) => ['demand', 'supply', 'matches', supplyId] as const,
};

/** Commitments shown on one page of the supply list. */
export const SUPPLIES_PER_PAGE = 10;
/** Matches shown under one commitment (the API's largest page). */
export const MATCHES_SHOWN = 100;

/** The caller's own household preferences, or null before they state any. */
export function useMyPreferences() {
  return useQuery({
    queryKey: DEMAND_KEYS.mine,
    queryFn: async () =>
      (await unwrapPage(api.GET('/api/demand/preferences', { params: { query: { scope: 'mine' } } }))).items[0] ?? null,
  });
}

export function useSavePreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PreferenceInput) => unwrap(api.POST('/api/demand/preferences', { body })),
    onSuccess: (saved) => client.setQueryData(DEMAND_KEYS.mine, saved),
  });
}

export function useDemandSignal() {
  return useMutation({
    mutationFn: (body: SignalInput) => unwrap(api.POST('/api/demand/signal', { body })),
  });
}

/** Crops ranked for a place and area; asked only once a query is given. */
export function useRecommendations(query: RecommendationQuery | null) {
  return useQuery({
    queryKey: DEMAND_KEYS.recommendations(query ?? ({} as RecommendationQuery)),
    queryFn: () => unwrap(api.GET('/api/demand/recommendations', { params: { query: query! } })),
    enabled: query !== null,
  });
}

/** A crop's weekly demand forecast in a region; asked only once a query is given. */
export function useForecast(query: ForecastQuery | null) {
  return useQuery({
    queryKey: DEMAND_KEYS.forecast(query ?? ({} as ForecastQuery)),
    queryFn: () => unwrap(api.GET('/api/demand/forecast', { params: { query: query! } })),
    enabled: query !== null,
    retry: false,
  });
}

export function useCommitSupply() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SupplyInput) => unwrap(api.POST('/api/demand/supply', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: DEMAND_KEYS.supply }),
  });
}

/** Matching changes what the commitments have matched and the matches under them. */
export function useMatchSupply() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MatchInput) => unwrap(api.POST('/api/demand/match', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: DEMAND_KEYS.supply }),
  });
}

/** A page of the caller's supply commitments, newest first. */
export function useMySupplies(page: number) {
  return useQuery({
    queryKey: DEMAND_KEYS.supplies(page),
    queryFn: () => unwrapPage(api.GET('/api/demand/supply', { params: { query: { page, limit: SUPPLIES_PER_PAGE } } })),
    placeholderData: keepPreviousData,
  });
}

/** The matches of one of the caller's commitments, nearest household first. */
export function useSupplyMatches(supplyId: string) {
  return useQuery({
    queryKey: DEMAND_KEYS.matches(supplyId),
    queryFn: () =>
      unwrapPage(
        api.GET('/api/demand/supply/{supplyId}/matches', {
          params: { path: { supplyId }, query: { limit: MATCHES_SHOWN } },
        }),
      ),
  });
}
