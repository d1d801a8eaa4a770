import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrapPage } from '../../../lib/api-client';

export function useNearby(point: { lat: number; lon: number } | null, radius: number) {
  return useQuery({
    queryKey: ['plants', 'nearby', point, radius],
    enabled: point !== null,
    queryFn: () =>
      unwrapPage(
        api.GET('/api/plants/nearby', { params: { query: { lat: point!.lat, lon: point!.lon, radius, limit: 100 } } }),
      ),
  });
}

export function useSearch(q: string, page: number) {
  return useQuery({
    queryKey: ['plants', 'search', q, page],
    enabled: q.trim().length > 0,
    queryFn: () => unwrapPage(api.GET('/api/plants/search', { params: { query: { q, page, limit: 10 } } })),
    placeholderData: keepPreviousData,
  });
}
