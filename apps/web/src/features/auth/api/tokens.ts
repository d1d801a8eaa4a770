import type { paths } from '@rootline/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export type NewToken = paths['/api/auth/tokens']['post']['requestBody']['content']['application/json'];
export type Permission = NonNullable<NewToken['scopes']>[number];

const TOKENS = ['auth', 'tokens'] as const;

export function useTokens() {
  return useQuery({ queryKey: TOKENS, queryFn: () => unwrap(api.GET('/api/auth/tokens')) });
}

export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewToken) => unwrap(api.POST('/api/auth/tokens', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: TOKENS }),
  });
}

export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) =>
      unwrap(api.DELETE('/api/auth/tokens/{tokenId}', { params: { path: { tokenId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: TOKENS }),
  });
}

/** The permissions a token may be given, those of every account (the API refuses any beyond the owner's). */
export const TOKEN_PERMISSIONS = [
  'plants:read',
  'plants:write',
  'transport:read',
  'transport:write',
  'environment:read',
  'environment:write',
  'uploads:write',
  'transparency:read',
  'demand:read',
  'demand:write',
  'marketplace:read',
  'marketplace:write',
  'notifications:read',
  'analytics:read',
  'account:read',
] as const satisfies readonly Permission[];
