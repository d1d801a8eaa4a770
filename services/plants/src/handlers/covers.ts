import { type CallContext, mediaPhotoCovers, type Photo } from '@rootline/contracts';
import { photoAlt } from '@rootline/domain';
import { call, type ServiceContext } from '@rootline/host';

/** How long a list waits for its photos before it answers without them. */
const COVERS_TIMEOUT_MS = 2000;

/**
 * The rows of a page with the photo each shows (`coverPhoto`: the plant's newest photo, null without one), asked of
 * media in one request for the whole page (ADR 203). The rows are plants the caller reads (plants are public). When
 * media does not answer, the page is answered without photos rather than not at all.
 */
export async function withCoverPhotos<T extends { id: string; commonName: string }>(
  ctx: ServiceContext,
  caller: CallContext,
  rows: T[],
): Promise<(T & { coverPhoto: Photo | null })[]> {
  const covers = new Map<string, Photo>();
  if (rows.length > 0) {
    const names = new Map(rows.map((r) => [r.id, r.commonName]));
    try {
      const { plants } = await call(
        ctx.bus,
        mediaPhotoCovers,
        { plantIds: [...names.keys()] },
        caller,
        COVERS_TIMEOUT_MS,
      );
      for (const { plantId, ...photo } of plants) {
        covers.set(plantId, { ...photo, alt: photoAlt(names.get(plantId) ?? '') });
      }
    } catch (err) {
      ctx.log.warn({ err }, 'plant photos unavailable: the page is answered without them');
    }
  }
  return rows.map((r) => ({ ...r, coverPhoto: covers.get(r.id) ?? null }));
}
