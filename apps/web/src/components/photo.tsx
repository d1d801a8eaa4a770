import './photo.css';

/** What an image needs to be shown from its square WebP thumbnails (a list's `coverPhoto`, a gallery's photo). */
export interface Thumbnailed {
  alt: string;
  thumbnails: Readonly<Record<string, string>> | null;
}

/** `srcset` of square thumbnails by size in pixels: "url 150w, url 300w, …", smallest first. */
export function srcSetOf(thumbnails: Readonly<Record<string, string>>): string {
  return Object.entries(thumbnails)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([size, url]) => `${url} ${size}w`)
    .join(', ');
}

/**
 * A photo in a square frame of a fixed size: the browser picks the thumbnail for the frame's width and the screen's
 * density (`srcset`, `sizes`), loads it when it comes near the view (`loading="lazy"`), and the page does not move
 * when it arrives (the frame has its size before the image does). Without a photo, an empty frame keeps rows lined
 * up and says nothing to a screen reader.
 */
export function PhotoFrame({
  photo,
  size = 'small',
  fallback,
}: {
  photo: Thumbnailed | null | undefined;
  /** small: a row of a list (72 px); medium: a gallery tile (up to 180 px); large: the first photo of a gallery. */
  size?: 'small' | 'medium' | 'large';
  /** The URL to show when there are no thumbnails (a document's or an unprocessed file's). */
  fallback?: string;
}) {
  const frame = `photo photo--${size}`;
  if (!photo || (!photo.thumbnails && !fallback))
    return <span className={`${frame} photo--empty`} aria-hidden="true" />;
  const thumbs = photo.thumbnails;
  const px = SIZES_PX[size];
  return (
    <span className={frame}>
      <img
        src={thumbs ? (thumbs['300'] ?? Object.values(thumbs)[0]) : fallback}
        srcSet={thumbs ? srcSetOf(thumbs) : undefined}
        sizes={thumbs ? SIZES[size] : undefined}
        width={px}
        height={px}
        loading="lazy"
        decoding="async"
        alt={photo.alt}
      />
    </span>
  );
}

/** The width each frame is drawn at, for `width`/`height` (the square the image fills). */
const SIZES_PX = { small: 72, medium: 180, large: 480 } as const;
/** How wide each frame is drawn, for the browser's choice among the thumbnails. */
const SIZES = {
  small: '72px',
  medium: '(max-width: 480px) 45vw, 180px',
  large: '(max-width: 600px) 90vw, 480px',
} as const;
