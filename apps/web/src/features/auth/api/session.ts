import { type components, RootlineError } from '@rootline/sdk';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { currentLanguage } from '../../../i18n';
import { api, unwrap } from '../../../lib/api-client';
import { isUnauthorized } from '../../../lib/errors';
import { clearRuntimeCaches } from '../../../lib/service-worker';
import type { KeptIdentity } from './kept-identity';

/** The device's copy of the identity (IndexedDB): loaded when first used, so it stays out of the first paint's code. */
const identityStore = () => import('./kept-identity');
const keepIdentity = async (user: ApiUser) => (await identityStore()).keepIdentity(user);
const forgetIdentity = async () => (await identityStore()).forgetIdentity();
const keptIdentity = async () => (await identityStore()).keptIdentity();

type ApiUser = components['schemas']['User'];

/**
 * The signed-in person: as the API answered, or, while the API cannot be reached, as this device last knew them
 * (`onDevice`, only the fields of `KeptIdentity`; ADR 252).
 */
export type User =
  | (ApiUser & { onDevice?: undefined })
  | (KeptIdentity & { onDevice: true; email?: undefined; emailVerified?: undefined; createdAt?: undefined });

/** The query key of the session: invalidate it to ask the server again who is signed in. */
export const SESSION = ['auth', 'session'] as const;

/** Whether a failed call never reached Rootline (no network, or the gateway away), as opposed to an answer. */
function unreachable(err: unknown): boolean {
  return !(err instanceof RootlineError) || [502, 503, 504].includes(err.status);
}

/**
 * Who is signed in: the user, or null when there is no session. When the check cannot reach the API (not a 401), the
 * identity kept on the device stands in, marked `onDevice`, and is asked again as soon as the network is back. The
 * router starts it with the page's code.
 */
export const sessionQuery = () =>
  queryOptions<User | null>({
    queryKey: SESSION,
    queryFn: async () => {
      try {
        const user = (await unwrap(api.GET('/api/auth/session'))).user;
        // Kept beside the answer, not before it: the page need not wait for IndexedDB.
        void keepIdentity(user).catch(() => undefined);
        return user;
      } catch (err) {
        if (isUnauthorized(err)) {
          await forgetIdentity();
          return null;
        }
        const kept = unreachable(err) ? await keptIdentity() : undefined;
        if (kept) return { ...kept, onDevice: true };
        throw err;
      }
    },
    // Asked even offline (the kept identity answers then); an identity from the device is stale at once.
    networkMode: 'offlineFirst',
    staleTime: (query) => (query.state.data?.onDevice ? 0 : 60_000),
  });

/** The signed-in user, or null when there is no session. */
export function useSession() {
  return useQuery(sessionQuery());
}

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ email, password }: { email: string; password: string }) => api.signIn(email, password),
    onSuccess: async (result) => {
      client.setQueryData(SESSION, result.user);
      await keepIdentity(result.user);
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
      await forgetIdentity();
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
    onSuccess: async (user) => {
      client.setQueryData(SESSION, user);
      await keepIdentity(user);
    },
  });
}
