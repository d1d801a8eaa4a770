import { type Static, Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';
import { Named } from './define.js';

/** An image's thumbnails as media answers them; the service that shows it adds what it shows (`alt`). */
export const PhotoThumbnails = Type.Object({
  id: Type.String({ pattern: '^fil_[A-Za-z0-9]{10,40}$', description: 'The image file' }),
  width: Type.Union([Type.Integer(), Type.Null()], { description: 'The full image’s width after orientation' }),
  height: Type.Union([Type.Integer(), Type.Null()]),
  thumbnails: Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.String(), {
    description:
      'Square WebP thumbnails by size in pixels (150, 300, 600, 1200), cover-cropped to the centre, without any ' +
      'metadata in their bytes (no EXIF, no GPS); for `srcset` with `w` descriptors',
  }),
  expiresAt: Timestamp,
});
export type PhotoThumbnails = Static<typeof PhotoThumbnails>;

/**
 * The photo a list shows for each of its rows (a plant's newest photo, a listing's first image), and a listing's
 * gallery: square WebP thumbnails with URLs signed like a file's (ADR 203). Kept apart from media.ts so plants and
 * marketplace answers can name it without importing the media subjects.
 */
export const Photo = Named(
  'Photo',
  Type.Object({
    ...PhotoThumbnails.properties,
    alt: Type.String({
      description:
        'What the image shows, for `alt`: "Photo of <plant>" or "Photo of <listing title>", numbered past the first',
      examples: ["Photo of Tomato 'Brandywine'"],
    }),
  }),
);
export type Photo = Static<typeof Photo>;

/** A photo or none: the cover of a row that has no photo is null. */
export const CoverPhoto = Type.Union([Photo, Type.Null()], {
  description:
    'The photo shown for this row (null without one): signed thumbnail URLs of a photo that everyone who reads the ' +
    'row may see, valid 15 minutes',
});
