import { useEffect, useId, useState } from 'react';
import { PhotoFrame } from '../../../components/photo';
import { ErrorAlert, Loading } from '../../../components/status';
import { KeptNotice } from '../../outbox/components/kept-notice';
import { usePlantPhotos, useUploadPhoto } from '../api/photos';
import { MEDIA } from '../strings';
import './photos-panel.css';

/** The image types the server takes (docs/media.md). */
const ACCEPT = 'image/jpeg,image/png,image/webp,image/avif';

const S = MEDIA;

/**
 * The plant's gallery: its photos as square thumbnails, newest first (each opens the full size), and an upload for
 * its owner. A photo being sent shows at once from the chosen file; the uploaded one takes its place when it is in.
 */
export function PhotosPanel({
  plantId,
  plantName,
  canUpload,
}: {
  plantId: string;
  plantName: string;
  canUpload: boolean;
}) {
  const photos = usePlantPhotos(plantId);
  const upload = useUploadPhoto(plantId);
  const inputId = useId();
  const cameraId = useId();
  const preview = usePreview(upload.isPending ? upload.variables : undefined);
  const images = (photos.data ?? []).filter((f) => f.kind === 'image');
  const send = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (file) upload.mutate(file, { onSettled: () => (input.value = '') });
  };
  const count = images.length;
  return (
    <section className="card" aria-labelledby="photos-heading">
      <h2 id="photos-heading">{S.title}</h2>
      {photos.isPending ? (
        <Loading />
      ) : photos.error ? (
        <ErrorAlert error={photos.error} />
      ) : count === 0 && !preview ? (
        <p>{S.none}</p>
      ) : (
        <ul className="photo-grid">
          {preview && (
            <li aria-busy="true">
              <PhotoFrame size="medium" photo={{ alt: S.uploading(plantName), thumbnails: null }} fallback={preview} />
            </li>
          )}
          {images.map((f, i) => (
            <li key={f.id}>
              <a href={f.urls.original}>
                <PhotoFrame
                  size="medium"
                  photo={{ alt: S.alt(plantName, i, count), thumbnails: f.urls.thumbnails }}
                  fallback={f.urls.original}
                />
              </a>
            </li>
          ))}
        </ul>
      )}
      {canUpload && (
        <div className="field photo-upload">
          <label htmlFor={inputId}>{S.upload}</label>
          <input
            id={inputId}
            type="file"
            accept={ACCEPT}
            disabled={upload.isPending}
            aria-describedby={`${inputId}-hint`}
            onChange={(e) => send(e.target)}
          />
          {/* Phones and tablets open the back camera from this one; a desktop hides it (photos-panel.css). */}
          <div className="photo-take">
            <label htmlFor={cameraId}>{S.take}</label>
            <input
              id={cameraId}
              type="file"
              accept="image/*"
              capture="environment"
              disabled={upload.isPending}
              aria-describedby={`${inputId}-hint`}
              onChange={(e) => send(e.target)}
            />
          </div>
          <p className="hint" id={`${inputId}-hint`} role="status">
            {upload.isPending ? S.busy : upload.data?.status === 'sent' ? S.added : S.hint}
          </p>
          <ErrorAlert error={upload.error} />
          <KeptNotice result={upload.data} />
        </div>
      )}
    </section>
  );
}

/** A URL showing the chosen file while it is sent, released when it is no longer shown. */
function usePreview(file: File | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!file) {
      setUrl(undefined);
      return;
    }
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}
