import type { components, paths } from '@rootline/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

export type Webhook = components['schemas']['Webhook'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type WebhookInput = paths['/api/transparency/webhooks']['post']['requestBody']['content']['application/json'];
export type WebhookChange = NonNullable<
  paths['/api/transparency/webhooks/{webhookId}']['patch']
>['requestBody']['content']['application/json'];

const WEBHOOKS = ['transparency', 'webhooks'] as const;

export function useWebhooks() {
  return useQuery({ queryKey: WEBHOOKS, queryFn: () => unwrap(api.GET('/api/transparency/webhooks')) });
}

export function useCreateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookInput) => unwrap(api.POST('/api/transparency/webhooks', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: WEBHOOKS }),
  });
}

/** Changes a webhook; a new `secret` answers the signing secret once. */
export function useUpdateWebhook(webhookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookChange) =>
      unwrap(api.PATCH('/api/transparency/webhooks/{webhookId}', { params: { path: { webhookId } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: WEBHOOKS }),
  });
}

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) =>
      unwrap(api.DELETE('/api/transparency/webhooks/{webhookId}', { params: { path: { webhookId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: WEBHOOKS }),
  });
}

export function useTestWebhook(webhookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/transparency/webhooks/{webhookId}/test', { params: { path: { webhookId } } })),
    onSettled: () => client.invalidateQueries({ queryKey: [...WEBHOOKS, webhookId] }),
  });
}

/** A webhook's deliveries, read again every few seconds while shown. */
export function useDeliveries(webhookId: string, page: number) {
  return useQuery({
    queryKey: [...WEBHOOKS, webhookId, 'deliveries', page],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/transparency/webhooks/{webhookId}/deliveries', {
          params: { path: { webhookId }, query: { page, limit: 20 } },
        }),
      ),
    placeholderData: keepPreviousData,
    // New deliveries appear as events are recorded; a pending one is followed closely.
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === 'pending') ? 2000 : 5000),
  });
}

export function useRedeliver(webhookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(
        api.POST('/api/transparency/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', {
          params: { path: { webhookId, deliveryId } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: [...WEBHOOKS, webhookId, 'deliveries'] }),
  });
}
