/** Words of the photos of a plant (features/media). */
export const MEDIA = {
  title: 'Photos',
  none: 'No photos yet.',
  upload: 'Add a photo',
  /** Shown on phones and tablets: opens the camera at once. */
  take: 'Take a photo',
  hint: 'JPEG, PNG, WebP or AVIF. Photos are made smaller before they are sent, and where they were taken is left out.',
  busy: 'Uploading…',
  added: 'Photo added.',
  /** What a photo of the plant shows, as the lists say it (ADR 203). */
  alt: (plant: string, i: number, n: number) => (n > 1 ? `Photo ${i + 1} of ${n} of ${plant}` : `Photo of ${plant}`),
  uploading: (plant: string) => `Photo of ${plant}, uploading`,
} as const;
