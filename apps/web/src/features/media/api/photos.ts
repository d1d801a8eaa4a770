import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export function usePlantPhotos(plantId: string) {
  return useQuery({
    queryKey: ['media', 'plant', plantId],
    queryFn: () => unwrap(api.GET('/api/upload/plants/{plantId}', { params: { path: { plantId } } })),
  });
}

/** Uploads one image attached to the plant (multipart: the fields first, then the file). */
export function useUploadPhoto(plantId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('category', 'plant-photo');
      form.append('entityType', 'plant');
      form.append('entityId', plantId);
      form.append('file', file);
      return unwrap(
        api.POST('/api/upload/image', {
          body: form as never,
          // The browser writes the multipart boundary itself.
          bodySerializer: (body: unknown) => body as FormData,
        }),
      );
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['media', 'plant', plantId] }),
  });
}
