import { PhotoFrame } from '../../../components/photo';
import type { Listing } from '../api/listings';
import { MARKET } from '../strings';

const S = MARKET.gallery;

/**
 * A listing's gallery: its images in the seller's order, the first one large and the others as tiles; each opens
 * its largest thumbnail. Nothing is shown for a listing without images.
 */
export function ListingGallery({ listing }: { listing: Listing }) {
  const photos = listing.photos ?? [];
  if (photos.length === 0) return null;
  return (
    <section className="card" aria-labelledby="listing-photos">
      <h2 id="listing-photos">{S.title}</h2>
      <ul className="photo-grid photo-grid--gallery">
        {photos.map((photo, i) => (
          <li key={photo.id} className={i === 0 ? 'photo-grid__first' : undefined}>
            <a href={largest(photo.thumbnails)} aria-label={S.open(photo.alt)}>
              <PhotoFrame photo={photo} size={i === 0 ? 'large' : 'medium'} />
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The URL of the largest thumbnail. */
function largest(thumbnails: Readonly<Record<string, string>>): string | undefined {
  const sizes = Object.keys(thumbnails).sort((a, b) => Number(b) - Number(a));
  return sizes[0] ? thumbnails[sizes[0]] : undefined;
}
