import { useId } from 'react';
import { PhotoFrame } from '../../../components/photo';
import { ErrorAlert } from '../../../components/status';
import { type UploadedImage, useUploadListingImage } from '../api/listings';
import { MARKET } from '../strings';

/** Images a listing shows at most (the API's limit on `imageFileIds`). */
const MAX_IMAGES = 10;

const S = MARKET.photos;

/**
 * The photos of a listing being written: each chosen image is uploaded at once and shown as it will be, and the form
 * sends their ids (`imageFileIds`), in the order shown.
 */
export function ListingPhotosField({
  title,
  images,
  onChange,
}: {
  title: string;
  images: readonly UploadedImage[];
  onChange: (images: UploadedImage[]) => void;
}) {
  const upload = useUploadListingImage();
  const id = useId();
  const name = title.trim() || S.untitled;
  return (
    <div className="field">
      <label htmlFor={id}>{S.label}</label>
      <input
        id={id}
        type="file"
        multiple
        accept="image/jpeg,image/png,image/webp,image/avif"
        disabled={upload.isPending || images.length >= MAX_IMAGES}
        aria-describedby={`${id}-hint`}
        onChange={async (e) => {
          const input = e.target;
          const files = [...(input.files ?? [])].slice(0, MAX_IMAGES - images.length);
          const added: UploadedImage[] = [];
          for (const file of files) {
            try {
              added.push(await upload.mutateAsync(file));
            } catch {
              break; // The error is shown below; what was uploaded stays.
            }
          }
          input.value = '';
          onChange([...images, ...added]);
        }}
      />
      <p className="hint" id={`${id}-hint`} role="status">
        {upload.isPending ? S.busy : S.hint(MAX_IMAGES)}
      </p>
      <ErrorAlert error={upload.error} />
      {images.length > 0 && (
        <ul className="photo-grid">
          {images.map((img, i) => (
            <li key={img.id}>
              <PhotoFrame
                size="medium"
                photo={{ alt: S.alt(name, i, images.length), thumbnails: img.urls.thumbnails }}
                fallback={img.urls.original}
              />
              <button
                type="button"
                className="secondary"
                onClick={() => onChange(images.filter((other) => other.id !== img.id))}
              >
                {S.remove(i)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
