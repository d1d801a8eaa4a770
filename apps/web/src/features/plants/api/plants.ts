import type { components, paths } from '@rootline/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';
import { sendOrKeep } from '../../outbox/api/outbox';
import { useOutboxAccount } from '../../outbox/api/use-outbox';
import { networkStatsQuery, plantQuery, recentPlantsQuery } from './plant-queries';

export type Plant = components['schemas']['Plant'];
export type RegisterInput = paths['/api/plants/register']['post']['requestBody']['content']['application/json'];
export type CloneInput = paths['/api/plants/clone']['post']['requestBody']['content']['application/json'];
export type PropagationType = CloneInput['propagationType'];

export const PROPAGATION_TYPES = [
  'clone',
  'seed',
  'cutting',
  'graft',
  'division',
  'layering',
  'tissue-culture',
] as const satisfies readonly PropagationType[];

export function usePlant(plantId: string) {
  return useQuery(plantQuery(plantId));
}

/** A plant other pages name (a parent, say): read only when there is one; its name is all that is shown. */
export function useRelatedPlant(plantId: string | null) {
  return useQuery({
    queryKey: ['plants', 'plant', plantId],
    queryFn: () => unwrap(api.GET('/api/plants/{plantId}', { params: { path: { plantId: plantId as string } } })),
    enabled: plantId !== null,
    retry: false,
  });
}

export function useOwnedPlants(ownerId: string, page: number) {
  return useQuery({
    queryKey: ['plants', 'owned', ownerId, page],
    queryFn: () =>
      unwrapPage(api.GET('/api/plants/owned/{ownerId}', { params: { path: { ownerId }, query: { page, limit: 20 } } })),
    placeholderData: keepPreviousData,
  });
}

/** Registers a plant, or keeps the registration on this device while Rootline cannot be reached (the outbox). */
export function useRegisterPlant() {
  const client = useQueryClient();
  const { account } = useOutboxAccount();
  return useMutation({
    // Run offline too (not paused): the outbox keeps the write.
    networkMode: 'always',
    /** `replaces`: the refused outbox item this registration was edited from. */
    mutationFn: ({ replaces, ...body }: RegisterInput & { replaces?: string | undefined }) =>
      sendOrKeep<Plant>({
        account: account ?? '',
        kind: 'plant',
        plantName: body.commonName,
        plantId: '',
        body,
        replaces,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['plants', 'owned'] }),
  });
}

export function useClonePlant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CloneInput) => unwrap(api.POST('/api/plants/clone', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['plants'] }),
  });
}

/** The network's newest plants (the landing page), public. */
export function useRecentPlants(limit: number) {
  return useQuery(recentPlantsQuery(limit));
}

/** The network's counts (plants, growers, countries, ledger length), public. */
export function useNetworkStats() {
  return useQuery(networkStatsQuery());
}
