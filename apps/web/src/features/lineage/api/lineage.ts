import type { components } from '@rootline/sdk';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export type Lineage = components['schemas']['Lineage'];
export type LineageNode = components['schemas']['LineageNode'];
export type RemoteRelative = components['schemas']['RemoteRelative'];

export function useLineage(plantId: string) {
  return useQuery({
    queryKey: ['plants', 'lineage', plantId],
    queryFn: () =>
      unwrap(api.GET('/api/plants/lineage/{plantId}', { params: { path: { plantId }, query: { progenyDepth: 3 } } })),
  });
}
