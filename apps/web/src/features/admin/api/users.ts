import type { components, paths } from '@rootline/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

export type User = components['schemas']['User'];
export type Role = User['role'];
export type UserFilter = NonNullable<paths['/api/admin/users']['get']['parameters']['query']>;

export const ROLES = ['USER', 'GROWER', 'FARM_MANAGER', 'ADMIN'] as const satisfies readonly Role[];

const USERS = ['admin', 'users'] as const;

/** A page of accounts, narrowed by text and role. */
export function useUsers(filter: { q: string; role: Role | ''; page: number }) {
  const query: UserFilter = { page: filter.page, limit: 20 };
  if (filter.q) query.q = filter.q;
  if (filter.role) query.role = filter.role;
  return useQuery({
    queryKey: [...USERS, query],
    queryFn: () => unwrapPage(api.GET('/api/admin/users', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** Sets an account's role; the API refuses to demote the last ADMIN (403 with its reason). */
export function useSetRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      unwrap(api.PUT('/api/admin/users/{userId}/role', { params: { path: { userId } }, body: { role } })),
    onSuccess: () => client.invalidateQueries({ queryKey: USERS }),
  });
}
