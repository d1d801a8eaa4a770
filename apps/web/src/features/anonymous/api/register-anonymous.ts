import type { paths } from '@rootline/sdk';
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export type AnonymousInput =
  paths['/api/plants/register-anonymous']['post']['requestBody']['content']['application/json'];

/** Registers a plant with no account; the body carries only the public key of the wallet. */
export function useRegisterAnonymous() {
  return useMutation({
    mutationFn: (body: AnonymousInput) => unwrap(api.POST('/api/plants/register-anonymous', { body })),
  });
}
