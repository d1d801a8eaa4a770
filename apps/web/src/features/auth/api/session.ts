import type { components } from '@rootline/sdk';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { currentLanguage } from '../../../i18n';
import { api, unwrap } from '../../../lib/api-client';
import { isUnauthorized } from '../../../lib/errors';
import { clearRuntimeCaches } from '../../../lib/service-worker';

export type User = components['schemas']['User'];

/** The query key of the session: invalidate it to ask the server again who is signed in. */
export const SESSION = ['auth', 'session'] as const;

/** Who is signed in: the user, or null when there is no session. The router starts it with the page's code. */
export const sessionQuery = () =>
  queryOptions({
    queryKey: SESSION,
    queryFn: async () => {
      try {
        return (await unwrap(api.GET('/api/auth/session'))).user;
      } catch (err) {
        if (isUnauthorized(err)) return null;
        throw err;
      }
    },
    staleTime: 60_000,
  });

/** The signed-in user, or null when there is no session. */
export function useSession() {
  return useQuery(sessionQuery());
}

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ email, password }: { email: string; password: string }) => api.signIn(email, password),
    onSuccess: (result) => {
      client.setQueryData(SESSION, result.user);
    },
  });
}

export function useSignUp() {
  return useMutation({
    // The account starts in the language the app is shown in: its welcome email is written in it.
    mutationFn: (body: { email: string; password: string; name: string }) =>
      unwrap(api.POST('/api/auth/register', { body: { ...body, locale: currentLanguage() } })),
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/signout')),
    onSettled: async () => {
      client.setQueryData(SESSION, null);
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== 'auth' });
      // Nothing read while signed in stays on the device (ADR 226).
      await clearRuntimeCaches();
    },
  });
}

export function useProviders() {
  return useQuery({
    queryKey: ['auth', 'providers'],
    queryFn: () => unwrap(api.GET('/api/auth/providers')),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Changes the signed-in account's settings (its language); the session then shows the account as saved. */
export function useUpdateAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { locale: User['locale'] }) => unwrap(api.PATCH('/api/auth/account', { body })),
    onSuccess: (user) => {
      client.setQueryData(SESSION, user);
    },
  });
}
