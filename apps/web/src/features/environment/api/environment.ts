import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

/** The plant's health score with its recommendations, highest priority first. */
export function useRecommendations(plantId: string) {
  return useQuery({
    queryKey: ['environment', plantId],
    queryFn: () => unwrap(api.GET('/api/environment/recommendations', { params: { query: { plantId } } })),
  });
}

export function useRecordClimate(plantId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (climate: { temperatureC: number; humidityPercent: number }) =>
      unwrap(api.POST('/api/environment/records', { body: { plantId, climate } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['environment', plantId] }),
  });
}
