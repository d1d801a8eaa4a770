import type { components, paths } from '@rootline/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrapPage } from '../../../lib/api-client';
import { plantNameOf, sendOrKeep } from '../../outbox/api/outbox';
import { useOutboxAccount } from '../../outbox/api/use-outbox';

export type TransportEvent = components['schemas']['TransportEvent'];
export type EventInput = paths['/api/transport/distribution']['post']['requestBody']['content']['application/json'];
export type TransportMode = NonNullable<EventInput['transportMode']>;

/** The kinds a grower records from a plant's page (seed sharing, which names a recipient account, is not here). */
export const EVENT_KINDS = [
  'planting',
  'growing',
  'harvest',
  'distribution',
  'seed-acquisition',
  'seed-saving',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const TRANSPORT_MODES = [
  'none',
  'walking',
  'bicycle',
  'cargo-bike',
  'electric-van',
  'diesel-van',
  'car',
  'hgv-diesel',
  'hgv-refrigerated',
  'rail',
  'ship',
  'air',
] as const satisfies readonly TransportMode[];

export function useJourney(plantId: string) {
  return useQuery({
    queryKey: ['journeys', plantId],
    queryFn: async () => {
      const result = await api.GET('/api/transport/journey/{plantId}', {
        params: { path: { plantId }, query: { limit: 1000 } },
      });
      const page = await unwrapPage(Promise.resolve(result));
      return { events: page.items, totals: result.data!.meta.totals };
    },
  });
}

/** Records a journey event, or keeps it on this device while Rootline cannot be reached (the outbox). */
export function useRecordEvent(plantId: string, replaces?: string) {
  const client = useQueryClient();
  const { account } = useOutboxAccount();
  return useMutation({
    // Run offline too (not paused): the outbox keeps the write.
    networkMode: 'always',
    // Every kind takes the same body; the kind is the last segment of the path.
    mutationFn: ({ kind, body }: { kind: EventKind; body: EventInput }) => {
      const { plantId: _plant, ...rest } = body;
      return sendOrKeep<TransportEvent>({
        account: account ?? '',
        kind: 'event',
        eventKind: kind,
        plantName: plantNameOf(plantId),
        plantId,
        body: rest,
        replaces,
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['journeys', plantId] }),
  });
}
