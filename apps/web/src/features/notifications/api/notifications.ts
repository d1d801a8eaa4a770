import type { components, paths } from '@rootline/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';
import { useLiveRoom } from '../../../lib/live';

export type Notification = components['schemas']['Notification'];
export type Preferences = components['schemas']['NotificationPreferences'];
export type PreferenceType = keyof Preferences;
export type Channel = keyof Preferences[PreferenceType];
export type PreferenceChange = NonNullable<
  paths['/api/notifications/preferences']['patch']['requestBody']
>['content']['application/json'];

/** Every query of the inbox: a new notification or a change refreshes them all. */
export const NOTIFICATIONS = ['notifications'] as const;

export function useNotifications(page: number, unreadOnly: boolean) {
  return useQuery({
    queryKey: [...NOTIFICATIONS, 'list', page, unreadOnly],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/notifications', {
          params: { query: { page, limit: 20, ...(unreadOnly ? { unread: true } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useUnreadCount(enabled: boolean) {
  return useQuery({
    queryKey: [...NOTIFICATIONS, 'unread-count'],
    enabled,
    queryFn: async () => (await unwrap(api.GET('/api/notifications/unread-count'))).unread,
  });
}

/** Refreshes the inbox and its count when a notification arrives in the person's room. */
export function useNotificationsLive(userId: string | undefined) {
  const client = useQueryClient();
  useLiveRoom(userId ? `user:${userId}` : null, (event) => {
    if (event.event === 'notification') void client.invalidateQueries({ queryKey: NOTIFICATIONS });
  });
}

function useInboxMutation<T>(fn: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => client.invalidateQueries({ queryKey: NOTIFICATIONS }),
  });
}

export const useMarkRead = () =>
  useInboxMutation((notificationId: string) =>
    unwrap(api.POST('/api/notifications/{notificationId}/read', { params: { path: { notificationId } } })),
  );

export const useMarkAllRead = () => useInboxMutation(() => unwrap(api.POST('/api/notifications/read-all')));

export const useDeleteNotification = () =>
  useInboxMutation((notificationId: string) =>
    unwrap(api.DELETE('/api/notifications/{notificationId}', { params: { path: { notificationId } } })),
  );

export function usePreferences() {
  return useQuery({
    queryKey: [...NOTIFICATIONS, 'preferences'],
    queryFn: () => unwrap(api.GET('/api/notifications/preferences')),
  });
}

export function useSavePreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PreferenceChange) => unwrap(api.PATCH('/api/notifications/preferences', { body })),
    onSuccess: (saved) => client.setQueryData([...NOTIFICATIONS, 'preferences'], saved),
  });
}

/** Turns off the email type an unsubscribe token names (no session needed). */
export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) => unwrap(api.POST('/api/notifications/unsubscribe', { params: { query: { token } } })),
  });
}
