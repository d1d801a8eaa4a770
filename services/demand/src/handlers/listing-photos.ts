import {
  type CallContext,
  type Listing,
  mediaPhotoCovers,
  type Photo,
  type PhotoThumbnails,
} from '@rootline/contracts';
import { photoAlt } from '@rootline/domain';
import { call, type ServiceContext } from '@rootline/host';

/** How long a read waits for its photos before it answers without them. */
const PHOTOS_TIMEOUT_MS = 2000;

/**
 * The images named, with thumbnails, asked of media in one request (ADR 203); those that are no longer showable
 * (deleted, not processed) are missing from the map. Without an answer from media, none: the listing is still read.
 */
async function thumbnailsOf(
  ctx: ServiceContext,
  caller: CallContext,
  fileIds: string[],
): Promise<Map<string, PhotoThumbnails>> {
  const ids = [...new Set(fileIds)];
  if (ids.length === 0) return new Map();
  try {
    const { files } = await call(ctx.bus, mediaPhotoCovers, { fileIds: ids }, caller, PHOTOS_TIMEOUT_MS);
    return new Map(files.map((f) => [f.id, f]));
  } catch (err) {
    ctx.log.warn({ err }, 'listing photos unavailable: answered without them');
    return new Map();
  }
}

/** Each listing of a page with its first image as `coverPhoto` (one request to media for the whole page). */
export async function withListingCovers<T extends Listing>(
  ctx: ServiceContext,
  caller: CallContext,
  listings: T[],
): Promise<T[]> {
  const found = await thumbnailsOf(
    ctx,
    caller,
    listings.flatMap((l) => l.imageFileIds.slice(0, 1)),
  );
  return listings.map((l) => {
    const first = l.imageFileIds[0] ? found.get(l.imageFileIds[0]) : undefined;
    return { ...l, coverPhoto: first ? { ...first, alt: photoAlt(l.title) } : null };
  });
}

/** A listing with its gallery (`photos`, in the seller's order) and the first of them as `coverPhoto`. */
export async function withGallery(ctx: ServiceContext, caller: CallContext, listing: Listing): Promise<Listing> {
  const found = await thumbnailsOf(ctx, caller, listing.imageFileIds);
  const shown = listing.imageFileIds.flatMap((id) => {
    const t = found.get(id);
    return t ? [t] : [];
  });
  const photos: Photo[] = shown.map((t, i) => ({ ...t, alt: photoAlt(listing.title, i, shown.length) }));
  return { ...listing, coverPhoto: photos[0] ?? null, photos };
}
