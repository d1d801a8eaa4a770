import { useId } from 'react';
import { ErrorAlert, Loading } from '../../../components/status';
import { usePlantPhotos, useUploadPhoto } from '../api/photos';

const S = {
  title: 'Photos',
  none: 'No photos yet.',
  upload: 'Add a photo',
  hint: 'JPEG, PNG, WebP or AVIF, up to 15 MB. Location data in the photo is kept only for exact plants.',
  busy: 'Uploading…',
  photo: (name: string) => `Photo ${name}`,
} as const;

/** The plant's photos as thumbnails (each opens the full size), and an upload for its owner. */
export function PhotosPanel({ plantId, canUpload }: { plantId: string; canUpload: boolean }) {
  const photos = usePlantPhotos(plantId);
  const upload = useUploadPhoto(plantId);
  const inputId = useId();
  return (
    <section className="card" aria-labelledby="photos-heading">
      <h2 id="photos-heading">{S.title}</h2>
      {photos.isPending ? (
        <Loading />
      ) : photos.error ? (
        <ErrorAlert error={photos.error} />
      ) : photos.data.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <ul className="thumbs">
          {photos.data.map((f) => (
            <li key={f.id}>
              <a href={f.urls.original}>
                <img src={f.urls.thumbnails?.['300'] ?? f.urls.original} alt={S.photo(f.originalName)} loading="lazy" />
              </a>
            </li>
          ))}
        </ul>
      )}
      {canUpload && (
        <div className="field">
          <label htmlFor={inputId}>{S.upload}</label>
          <input
            id={inputId}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/avif"
            disabled={upload.isPending}
            aria-describedby={`${inputId}-hint`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) upload.mutate(file, { onSettled: () => (e.target.value = '') });
            }}
          />
          <p className="hint" id={`${inputId}-hint`}>
            {upload.isPending ? S.busy : S.hint}
          </p>
          <ErrorAlert error={upload.error} />
        </div>
      )}
    </section>
  );
}
