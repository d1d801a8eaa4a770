import type { components } from '@rootline/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { preparePhoto } from '../lib/prepare-photo';

export type FileInfo = components['schemas']['File'];

const photosKey = (plantId: string) => ['media', 'plant', plantId] as const;

export function usePlantPhotos(plantId: string) {
  return useQuery({
    queryKey: photosKey(plantId),
    queryFn: () => unwrap(api.GET('/api/upload/plants/{plantId}', { params: { path: { plantId } } })),
  });
}

/**
 * Uploads one image attached to the plant (multipart: the fields first, then the file), made smaller and without its
 * metadata first (preparePhoto). The answer is the file with
 * its thumbnails: it goes first in the plant's photos at once, before they are read again, and the lists that show
 * the plant's newest photo (search, nearby, my plants) are read again.
 */
export function useUploadPhoto(plantId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (chosen: File) => {
      const file = await preparePhoto(chosen);
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
    onSuccess: (added) => {
      client.setQueryData<FileInfo[]>(photosKey(plantId), (old) => [
        added,
        ...(old ?? []).filter((f) => f.id !== added.id),
      ]);
      void client.invalidateQueries({ queryKey: photosKey(plantId) });
      void client.invalidateQueries({ queryKey: ['plants'], predicate: (q) => q.queryKey[1] !== 'plant' });
    },
  });
}
