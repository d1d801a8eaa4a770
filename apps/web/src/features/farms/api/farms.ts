import type { components, paths } from '@rootline/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

export type Farm = components['schemas']['Farm'];
export type Zone = components['schemas']['Zone'];
export type Recipe = components['schemas']['Recipe'];
export type Batch = components['schemas']['Batch'];
export type FarmInput = paths['/api/vertical-farm/register']['post']['requestBody']['content']['application/json'];
export type ZoneInput =
  paths['/api/vertical-farm/farms/{farmId}/zones']['post']['requestBody']['content']['application/json'];
export type RecipeInput = paths['/api/vertical-farm/recipes']['post']['requestBody']['content']['application/json'];
export type BatchStartInput =
  paths['/api/vertical-farm/batch/start']['post']['requestBody']['content']['application/json'];
export type HarvestInput =
  paths['/api/vertical-farm/batch/{batchId}/harvest']['post']['requestBody']['content']['application/json'];
export type ReadingsInput =
  paths['/api/vertical-farm/batch/{batchId}/environment']['put']['requestBody']['content']['application/json'];
export type ReadingInput = ReadingsInput['readings'][number];
export type FailInput =
  paths['/api/vertical-farm/batch/{batchId}/fail']['post']['requestBody']['content']['application/json'];
export type BatchReadings =
  paths['/api/vertical-farm/batch/{batchId}/readings']['get']['responses'][200]['content']['application/json']['data'];
export type ReadingPoint = BatchReadings['readings'][number];
export type Analytics =
  paths['/api/vertical-farm/farms/{farmId}/analytics']['get']['responses'][200]['content']['application/json']['data'];

/** Query keys of the farm pages, so live events refresh exactly what they change. */
export const FARM_KEYS = {
  mine: ['farms', 'mine'] as const,
  farm: (farmId: string) => ['farms', 'farm', farmId] as const,
  zones: (farmId: string) => ['farms', 'zones', farmId] as const,
  batches: (farmId: string) => ['farms', 'batches', farmId] as const,
  batch: (batchId: string) => ['farms', 'batch', batchId] as const,
  readings: (batchId: string) => ['farms', 'readings', batchId] as const,
  analytics: (farmId: string) => ['farms', 'analytics', farmId] as const,
  recipes: ['farms', 'recipes'] as const,
};

export function useMyFarms() {
  return useQuery({
    queryKey: FARM_KEYS.mine,
    queryFn: () => unwrap(api.GET('/api/vertical-farm/farms')),
  });
}

export function useFarm(farmId: string) {
  return useQuery({
    queryKey: FARM_KEYS.farm(farmId),
    queryFn: () => unwrap(api.GET('/api/vertical-farm/farms/{farmId}', { params: { path: { farmId } } })),
  });
}

export function useZones(farmId: string) {
  return useQuery({
    queryKey: FARM_KEYS.zones(farmId),
    queryFn: () => unwrap(api.GET('/api/vertical-farm/farms/{farmId}/zones', { params: { path: { farmId } } })),
  });
}

export function useRegisterFarm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: FarmInput) => unwrap(api.POST('/api/vertical-farm/register', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: FARM_KEYS.mine }),
  });
}

export function useAddZone(farmId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ZoneInput) =>
      unwrap(api.POST('/api/vertical-farm/farms/{farmId}/zones', { params: { path: { farmId } }, body })),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: FARM_KEYS.zones(farmId) }),
        client.invalidateQueries({ queryKey: FARM_KEYS.farm(farmId) }),
        client.invalidateQueries({ queryKey: FARM_KEYS.mine }),
      ]),
  });
}

/** Every recipe (they are few: the shipped ones and their versions), by crop then version. */
export function useRecipes(page = 1) {
  return useQuery({
    queryKey: [...FARM_KEYS.recipes, page],
    queryFn: () => unwrapPage(api.GET('/api/vertical-farm/recipes', { params: { query: { page, limit: 100 } } })),
    placeholderData: keepPreviousData,
  });
}

export function useCreateRecipe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RecipeInput) => unwrap(api.POST('/api/vertical-farm/recipes', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: FARM_KEYS.recipes }),
  });
}

export function useFarmBatches(farmId: string, page: number) {
  return useQuery({
    queryKey: [...FARM_KEYS.batches(farmId), page],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/vertical-farm/farms/{farmId}/batches', {
          params: { path: { farmId }, query: { page, limit: 20 } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useStartBatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BatchStartInput) => unwrap(api.POST('/api/vertical-farm/batch/start', { body })),
    onSuccess: (batch) =>
      Promise.all([
        client.invalidateQueries({ queryKey: FARM_KEYS.batches(batch.farmId) }),
        client.invalidateQueries({ queryKey: FARM_KEYS.zones(batch.farmId) }),
      ]),
  });
}

export function useBatch(batchId: string) {
  return useQuery({
    queryKey: FARM_KEYS.batch(batchId),
    queryFn: () => unwrap(api.GET('/api/vertical-farm/batch/{batchId}', { params: { path: { batchId } } })),
  });
}

export function useBatchReadings(batchId: string) {
  return useQuery({
    queryKey: FARM_KEYS.readings(batchId),
    queryFn: () =>
      unwrap(
        api.GET('/api/vertical-farm/batch/{batchId}/readings', {
          params: { path: { batchId }, query: { limit: 500 } },
        }),
      ),
  });
}

export function useHarvest(batchId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: HarvestInput) =>
      unwrap(api.POST('/api/vertical-farm/batch/{batchId}/harvest', { params: { path: { batchId } }, body })),
    onSuccess: (batch) =>
      Promise.all([
        client.setQueryData(FARM_KEYS.batch(batchId), batch),
        client.invalidateQueries({ queryKey: FARM_KEYS.batches(batch.farmId) }),
        client.invalidateQueries({ queryKey: FARM_KEYS.analytics(batch.farmId) }),
      ]),
  });
}

/** Records readings of a batch (taken by hand or by a sensor); the batch's summary and charts refetch. */
export function useRecordReadings(batchId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReadingsInput) =>
      unwrap(api.PUT('/api/vertical-farm/batch/{batchId}/environment', { params: { path: { batchId } }, body })),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: FARM_KEYS.batch(batchId) }),
        client.invalidateQueries({ queryKey: FARM_KEYS.readings(batchId) }),
      ]),
  });
}

/** Closes an open batch as failed, with the reason. */
export function useFailBatch(batchId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: FailInput) =>
      unwrap(api.POST('/api/vertical-farm/batch/{batchId}/fail', { params: { path: { batchId } }, body })),
    onSuccess: (batch) =>
      Promise.all([
        client.setQueryData(FARM_KEYS.batch(batchId), batch),
        client.invalidateQueries({ queryKey: FARM_KEYS.batches(batch.farmId) }),
        client.invalidateQueries({ queryKey: FARM_KEYS.zones(batch.farmId) }),
        client.invalidateQueries({ queryKey: FARM_KEYS.analytics(batch.farmId) }),
      ]),
  });
}

export function useFarmAnalytics(farmId: string) {
  return useQuery({
    queryKey: FARM_KEYS.analytics(farmId),
    queryFn: () => unwrap(api.GET('/api/vertical-farm/farms/{farmId}/analytics', { params: { path: { farmId } } })),
  });
}
