import type { components } from '@rootline/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { plantNameOf, sendOrKeep } from '../../outbox/api/outbox';
import { useOutboxAccount } from '../../outbox/api/use-outbox';
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
  const { account } = useOutboxAccount();
  return useMutation({
    // Run offline too (not paused): the outbox keeps the write.
    networkMode: 'always',
    // Made at most 2048 px and stripped of its metadata in the browser, then sent as multipart by the outbox (which
    // keeps the file on this device while Rootline cannot be reached).
    mutationFn: async (chosen: File) => {
      const file = await preparePhoto(chosen);
      return sendOrKeep<FileInfo>({
        account: account ?? '',
        kind: 'photo',
        plantName: plantNameOf(plantId),
        plantId,
        body: {},
        file: { blob: file, name: file.name },
      });
    },
    onSuccess: (result) => {
      if (result.status !== 'sent') return;
      const added = result.data;
      client.setQueryData<FileInfo[]>(photosKey(plantId), (old) => [
        added,
        ...(old ?? []).filter((f) => f.id !== added.id),
      ]);
      void client.invalidateQueries({ queryKey: photosKey(plantId) });
      void client.invalidateQueries({ queryKey: ['plants'], predicate: (q) => q.queryKey[1] !== 'plant' });
    },
  });
}
