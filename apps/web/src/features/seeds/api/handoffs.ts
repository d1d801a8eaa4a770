import type { components, paths } from '@rootline/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

export type SeedHandoff = components['schemas']['SeedHandoff'];
type HandBody = NonNullable<
  paths['/api/seed-lots/{seedLotId}/handoffs']['post']['requestBody']
>['content']['application/json'];
type ReceiveBody = NonNullable<paths['/api/seed-lots/incoming']['post']['requestBody']>['content']['application/json'];

/** The names of this node's peers: where seed can be handed to, and received from. */
export function usePeerNames() {
  return useQuery({
    queryKey: ['federation', 'peers'],
    queryFn: async () => (await unwrap(api.GET('/api/federation/peers'))).map((p) => p.name),
    staleTime: 60_000,
  });
}

/** The handoffs across nodes of a lot (to its holder), newest first. */
export function useHandoffs(seedLotId: string) {
  return useQuery({
    queryKey: ['seed-lots', seedLotId, 'handoffs'],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/seed-lots/{seedLotId}/handoffs', { params: { path: { seedLotId }, query: { limit: 20 } } }),
      ),
  });
}

/** Hands part of a lot to a grower on a peer node; the answer carries the handoff id to pass on. */
export function useHandOn(seedLotId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<HandBody, 'callerName'>) =>
      unwrap(
        api.POST('/api/seed-lots/{seedLotId}/handoffs', {
          params: { path: { seedLotId } },
          body,
          headers: { 'Idempotency-Key': crypto.randomUUID() },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ['seed-lots'] }),
  });
}

/** Receives seed a grower on a peer node handed on: a new lot once the peer's record verifies. */
export function useReceive() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<ReceiveBody, 'callerName'>) =>
      unwrap(api.POST('/api/seed-lots/incoming', { body, headers: { 'Idempotency-Key': crypto.randomUUID() } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['seed-lots'] }),
  });
}
