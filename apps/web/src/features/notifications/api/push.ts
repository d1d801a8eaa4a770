import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { applicationServerKey, currentSubscription, pushSupported, serviceWorker } from '../lib/push';

const PUSH = ['notifications', 'push'] as const;

type SubscriptionJson = { endpoint: string; keys: { p256dh: string; auth: string } };

function asJson(subscription: PushSubscription): SubscriptionJson {
  const json = subscription.toJSON();
  return { endpoint: json.endpoint!, keys: { p256dh: json.keys!.p256dh!, auth: json.keys!.auth! } };
}

/** Whether this browser can and does receive pushes, and the permission it has. */
export function usePushState() {
  return useQuery({
    queryKey: PUSH,
    queryFn: async () => ({
      supported: pushSupported(),
      permission: pushSupported() ? Notification.permission : ('denied' as NotificationPermission),
      endpoint: (await currentSubscription())?.endpoint ?? null,
    }),
  });
}

/**
 * Subscribes this browser: registers the service worker, asks for permission, subscribes its PushManager with the
 * server's VAPID key and registers the subscription with the API (the same endpoint again only updates it).
 */
export function useSubscribePush() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const registration = await serviceWorker();
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') throw new Error('Notifications are blocked for this site in the browser');
      const { publicKey } = await unwrap(api.GET('/api/notifications/push/public-key'));
      let subscription = await registration.pushManager.getSubscription();
      const key = applicationServerKey(publicKey);
      const current = subscription?.options.applicationServerKey;
      if (subscription && current && !sameBytes(new Uint8Array(current), key)) {
        await subscription.unsubscribe();
        subscription = null;
      }
      subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
      return unwrap(api.POST('/api/notifications/push/subscriptions', { body: asJson(subscription) }));
    },
    onSettled: () => client.invalidateQueries({ queryKey: PUSH }),
  });
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Stops pushes to this browser: removes the subscription from the API, then from the browser. */
export function useUnsubscribePush() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const subscription = await currentSubscription();
      if (!subscription) return;
      // Registering the same endpoint again answers its id, which the removal names.
      const known = await unwrap(api.POST('/api/notifications/push/subscriptions', { body: asJson(subscription) }));
      await unwrap(
        api.DELETE('/api/notifications/push/subscriptions/{subscriptionId}', {
          params: { path: { subscriptionId: known.id } },
        }),
      );
      await subscription.unsubscribe();
    },
    onSettled: () => client.invalidateQueries({ queryKey: PUSH }),
  });
}
