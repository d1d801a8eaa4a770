import { type components, type paths, RootlineError } from '@rootline/sdk';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { plantNameOf, sendOrKeep } from '../../outbox/api/outbox';
import { useOutboxAccount } from '../../outbox/api/use-outbox';

export type RecordInput = paths['/api/environment/records']['post']['requestBody']['content']['application/json'];
type EnvironmentRecord = components['schemas']['EnvironmentRecord'];
export type AnalysisQuery = NonNullable<paths['/api/environment/analysis']['get']['parameters']['query']>;

const ENVIRONMENT = ['environment'] as const;

/** One piece of advice: `code` names its sentence in the catalogs, `params` the values it may use. */
export type Recommendation =
  paths['/api/environment/recommendations']['get']['responses'][200]['content']['application/json']['data']['recommendations'][number];

/** The plant's health score with its recommendations, highest priority first. */
export function useRecommendations(plantId: string) {
  return useQuery({
    queryKey: [...ENVIRONMENT, plantId],
    queryFn: () => unwrap(api.GET('/api/environment/recommendations', { params: { query: { plantId } } })),
  });
}

/** A quick climate reading: one record of the climate category (kept on this device while offline). */
export function useRecordClimate(plantId: string) {
  return useRecordEnvironment<{ temperatureC: number; humidityPercent: number }>(plantId, (climate) => ({ climate }));
}

/** A page of the plant's records (newest first) and its current environment, category by category. */
export function useEnvironmentHistory(plantId: string, page = 1) {
  return useQuery({
    queryKey: [...ENVIRONMENT, plantId, 'records', page],
    queryFn: async () => {
      const result = await api.GET('/api/environment/records/{plantId}', {
        params: { path: { plantId }, query: { page, limit: 10 } },
      });
      if (!result.data) throw RootlineError.from(result);
      return { items: result.data.data, pagination: result.data.pagination, current: result.data.meta.current };
    },
    placeholderData: keepPreviousData,
  });
}

type RecordFields = Omit<RecordInput, 'plantId'>;

/**
 * Adds one record in the categories given, or keeps it on this device while Rootline cannot be reached (the
 * outbox); the plant's figures are read again. `toRecord` makes the record from what the form gives.
 */
export function useRecordEnvironment<V = RecordFields>(
  plantId: string,
  toRecord: (value: V) => RecordFields = (value) => value as RecordFields,
  /** The refused outbox item this record was edited from, removed once it is sent or kept. */
  replaces?: string,
) {
  const client = useQueryClient();
  const { account } = useOutboxAccount();
  return useMutation({
    // Run offline too (not paused): the outbox keeps the write.
    networkMode: 'always',
    mutationFn: (value: V) =>
      sendOrKeep<EnvironmentRecord>({
        account: account ?? '',
        kind: 'reading',
        plantName: plantNameOf(plantId),
        plantId,
        body: toRecord(value) as Record<string, unknown>,
        replaces,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...ENVIRONMENT, plantId] }),
  });
}

export function useSimilarPlants(plantId: string, limit = 10) {
  return useQuery({
    queryKey: [...ENVIRONMENT, plantId, 'similar', limit],
    queryFn: async () => {
      const result = await api.GET('/api/environment/similar', { params: { query: { plantId, limit } } });
      if (!result.data) throw RootlineError.from(result);
      return { items: result.data.data, compared: result.data.meta.compared };
    },
  });
}

export function useComparison(plantA: string, plantB: string) {
  return useQuery({
    queryKey: [...ENVIRONMENT, 'compare', plantA, plantB],
    queryFn: () => unwrap(api.GET('/api/environment/compare', { params: { query: { plantA, plantB } } })),
    enabled: Boolean(plantA && plantB),
  });
}

export function useAnalysis(query: AnalysisQuery) {
  return useQuery({
    queryKey: [...ENVIRONMENT, 'analysis', query],
    queryFn: () => unwrap(api.GET('/api/environment/analysis', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** The names of the plants listed (by their public record); a plant the caller may not read keeps its id. */
export function usePlantNames(plantIds: readonly string[]) {
  return useQueries({
    queries: plantIds.map((plantId) => ({
      queryKey: ['plants', 'plant', plantId],
      queryFn: () => unwrap(api.GET('/api/plants/{plantId}', { params: { path: { plantId } } })),
      retry: false,
    })),
    combine: (results) =>
      Object.fromEntries(
        results.flatMap((r, i) => (r.data ? [[plantIds[i] as string, r.data.commonName] as const] : [])),
      ) as Record<string, string>,
  });
}
