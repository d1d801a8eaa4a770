import type { components, paths } from '@rootline/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

export type SeedLot = components['schemas']['SeedLot'];
export type GerminationTest = components['schemas']['GerminationTest'];
type CreateBody = NonNullable<paths['/api/seed-lots']['post']['requestBody']>['content']['application/json'];
type TestBody = NonNullable<
  paths['/api/seed-lots/{seedLotId}/germination-tests']['post']['requestBody']
>['content']['application/json'];
type ListQuery = NonNullable<paths['/api/seed-lots']['get']['parameters']['query']>;
export type SeedLotInput = CreateBody;
export type GerminationTestInput = TestBody;
export type SeedLotUnit = SeedLot['quantity'] extends infer Q ? (Q extends { unit: infer U } ? U : never) : never;
export type GerminationMethod = GerminationTest['method'];

export const SEED_LOT_UNITS = ['seeds', 'grams', 'packets'] as const satisfies readonly SeedLotUnit[];
export const GERMINATION_METHODS = [
  'paper-towel',
  'between-paper',
  'sand',
  'soil',
  'tetrazolium',
  'other',
] as const satisfies readonly GerminationMethod[];

const LOTS = ['seed-lots'] as const;

export interface SeedLotFilter {
  crop: string;
  harvestYear: string;
  lowOnly: boolean;
  page: number;
}

/** A page of the lots of whoever the tab acts as (the organization acted for, else the person). */
export function useSeedLots(filter: SeedLotFilter) {
  const query: ListQuery = { page: filter.page, limit: 20 };
  if (filter.crop.trim()) query.crop = filter.crop.trim();
  if (/^\d{4}$/.test(filter.harvestYear)) query.harvestYear = Number(filter.harvestYear);
  if (filter.lowOnly) query.lowViability = true;
  return useQuery({
    queryKey: [...LOTS, 'list', query],
    queryFn: () => unwrapPage(api.GET('/api/seed-lots', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

export function useSeedLot(seedLotId: string) {
  return useQuery({
    queryKey: [...LOTS, 'one', seedLotId],
    queryFn: () => unwrap(api.GET('/api/seed-lots/{seedLotId}', { params: { path: { seedLotId } } })),
    retry: false,
  });
}

export function useGerminationTests(seedLotId: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: [...LOTS, 'tests', seedLotId, page],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/seed-lots/{seedLotId}/germination-tests', {
          params: { path: { seedLotId }, query: { page, limit: 10 } },
        }),
      ),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useCreateSeedLot() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SeedLotInput) =>
      unwrap(api.POST('/api/seed-lots', { body, headers: { 'Idempotency-Key': crypto.randomUUID() } })),
    onSuccess: () => client.invalidateQueries({ queryKey: LOTS }),
  });
}

export function useRecordTest(seedLotId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: GerminationTestInput) =>
      unwrap(
        api.POST('/api/seed-lots/{seedLotId}/germination-tests', {
          params: { path: { seedLotId } },
          body,
          headers: { 'Idempotency-Key': crypto.randomUUID() },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: LOTS }),
  });
}

export function useDiscardSeedLot(seedLotId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/seed-lots/{seedLotId}', { params: { path: { seedLotId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: LOTS }),
  });
}
