import { type Static, Type } from '@sinclair/typebox';
import { PrefixedId, Text, Timestamp } from './common.js';
import { defineEvent, defineSubject, Named } from './define.js';
import { PAGE_DEFAULTS } from './envelope.js';
import { PhotoThumbnails } from './photos.js';
import { PlantId, StringEnum } from './plants.js';

export const FileId = PrefixedId('fil', 'File identifier');

/**
 * The limits of uploads. Sizes are of the file as sent; pixels of the decoded image (width × height), which
 * refuses decompression bombs before they are decoded.
 */
export const MEDIA_LIMITS = {
  imageMaxBytes: 15 * 1024 * 1024,
  documentMaxBytes: 20 * 1024 * 1024,
  maxPixels: 50_000_000,
  /** Square thumbnails, in pixels; each is a WebP. */
  thumbnailSizes: [150, 300, 600, 1200],
  /** Lifetime of the signed URLs in a file's information. */
  urlSeconds: 900,
  /** Lifetime of a presigned upload before it expires and is removed. */
  presignSeconds: 900,
} as const;

export const FILE_KINDS = ['image', 'document'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** Image types accepted, decided by the file's bytes. */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'] as const;
/** Document types accepted, decided by the file's bytes (DOC: an OLE2 compound file; DOCX: an OOXML zip). */
export const DOCUMENT_TYPES = [
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
] as const;
export const MEDIA_TYPES = [...IMAGE_TYPES, ...DOCUMENT_TYPES] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export const FILE_CATEGORIES = ['plant-photo', 'profile', 'farm', 'product', 'certificate', 'report', 'other'] as const;
export type FileCategory = (typeof FILE_CATEGORIES)[number];
export const FileCategorySchema = StringEnum(FILE_CATEGORIES, {
  description: 'What the file is: plant-photo, profile (avatar), farm, product (a listing), certificate, report, other',
});
export const ENTITY_TYPES = ['plant', 'farm', 'listing', 'user'] as const;
export const EntityTypeSchema = StringEnum(ENTITY_TYPES, { description: 'The kind of record the file belongs to' });
export const EntityId = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,120}$',
  description: 'The id of the record the file belongs to (e.g. a plant id)',
});

/** What a client says about a file besides its bytes. */
export const FileFields = {
  category: Type.Optional(
    StringEnum(FILE_CATEGORIES, {
      description:
        'What the file is: plant-photo, profile (avatar), farm, product (a listing), certificate, report, other. ' +
        'Default: `plant-photo` for an image attached to a plant (`entityType` plant), else `other`',
    }),
  ),
  entityType: Type.Optional(EntityTypeSchema),
  entityId: Type.Optional(EntityId),
};

export const FileName = Text({ minLength: 1, maxLength: 255, description: 'The name the file was sent with' });

export const Gps = Type.Object({
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
  altitude: Type.Union([Type.Number(), Type.Null()]),
});

export const ExifData = Type.Object(
  {
    takenAt: Type.Union([Type.String(), Type.Null()], { description: 'DateTimeOriginal as written by the camera' }),
    make: Type.Union([Type.String(), Type.Null()]),
    model: Type.Union([Type.String(), Type.Null()]),
    orientation: Type.Union([Type.Integer(), Type.Null()], { description: 'EXIF orientation 1–8 (applied)' }),
    exposureTime: Type.Union([Type.Number(), Type.Null()]),
    fNumber: Type.Union([Type.Number(), Type.Null()]),
    iso: Type.Union([Type.Number(), Type.Null()]),
    focalLength: Type.Union([Type.Number(), Type.Null()]),
    gps: Type.Union([Gps, Type.Null()], {
      description:
        'Where the photo was taken, read from the original’s EXIF: answered to the file’s owner and ADMINs only, ' +
        'null to everyone else whatever the privacy level of its plant. No served copy carries it',
    }),
  },
  { description: 'EXIF metadata read from the original' },
);
export type ExifData = Static<typeof ExifData>;

export const FileInfo = Named(
  'File',
  Type.Object({
    id: FileId,
    kind: StringEnum(FILE_KINDS),
    mimeType: Type.String({
      description:
        'Type decided by the bytes of the upload. An image is stored and served as WebP (its URLs answer ' +
        '`Content-Type: image/webp`); a document is served with this type',
    }),
    bytes: Type.Integer({ minimum: 0, description: 'Size of the original as uploaded' }),
    width: Type.Union([Type.Integer(), Type.Null()], { description: 'Images: width after orientation' }),
    height: Type.Union([Type.Integer(), Type.Null()]),
    originalName: Type.String(),
    category: FileCategorySchema,
    entityType: Type.Union([EntityTypeSchema, Type.Null()]),
    entityId: Type.Union([Type.String(), Type.Null()]),
    ownerId: Type.String(),
    exif: Type.Union([ExifData, Type.Null()], { description: 'Images with EXIF only' }),
    urls: Type.Object({
      original: Type.String({
        description:
          'Images: the full-size WebP, served as `image/webp`; documents: the file as uploaded, served as `mimeType`',
      }),
      thumbnails: Type.Union([Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.String()), Type.Null()], {
        description: 'Images: square WebP thumbnails by size in pixels (150, 300, 600, 1200)',
      }),
      expiresAt: Timestamp,
    }),
    createdAt: Timestamp,
  }),
);
export type FileInfo = Static<typeof FileInfo>;

export const UploadKey = Type.String({
  pattern: '^pending/[A-Za-z0-9_-]{16,64}$',
  description: 'Where the gateway streamed the upload in storage',
});

export const mediaUploadProcess = defineSubject({
  subject: 'media.upload.process',
  request: Type.Object({
    kind: StringEnum(FILE_KINDS),
    uploadKey: UploadKey,
    filename: FileName,
    ...FileFields,
  }),
  reply: FileInfo,
  summary: 'Validate and process a file the gateway streamed into storage (the bus carries its key only)',
});

export const PresignInput = Type.Object(
  {
    kind: StringEnum(FILE_KINDS),
    filename: FileName,
    contentType: StringEnum(MEDIA_TYPES, {
      description: 'The type the file will be sent with (checked again by bytes)',
    }),
    bytes: Type.Integer({
      minimum: 1,
      maximum: MEDIA_LIMITS.documentMaxBytes,
      description: 'The exact size of the file (signed: the store refuses another size)',
    }),
    ...FileFields,
  },
  { additionalProperties: false },
);

export const PresignedUpload = Type.Object({
  fileId: FileId,
  upload: Type.Object({
    url: Type.String(),
    method: Type.Literal('PUT'),
    headers: Type.Record(Type.String(), Type.String(), { description: 'Send these headers unchanged' }),
  }),
  expiresAt: Timestamp,
});

export const mediaUploadPresign = defineSubject({
  subject: 'media.upload.presign',
  request: PresignInput,
  reply: PresignedUpload,
  summary: 'A signed URL for a direct upload',
});

export const mediaUploadComplete = defineSubject({
  subject: 'media.upload.complete',
  request: Type.Object({ fileId: FileId }),
  reply: FileInfo,
  summary: 'Validate and process a direct upload that arrived',
});

export const mediaFileGet = defineSubject({
  subject: 'media.file.get',
  request: Type.Object({ fileId: FileId }),
  reply: FileInfo,
  summary:
    'A file’s information and time-limited URLs, to its owner, an ADMIN, and whoever may read the record it ' +
    'belongs to when that record is public (NOT_FOUND to anyone else)',
});

/** How many files of a plant `media.file.list-plant` answers at most, newest first. */
export const PLANT_FILES_LIMIT = 100;

export const mediaFileListPlant = defineSubject({
  subject: 'media.file.list-plant',
  request: Type.Object({ plantId: PlantId }),
  reply: Type.Object({ items: Type.Array(FileInfo) }),
  summary: 'The processed files attached to a plant, newest first, to whoever may read the plant',
});

/**
 * Who owns each of some files and what they are, for a service that lets a record carry files (a listing's
 * images): only processed files that are not deleted are answered; an id missing from `items` is no file.
 */
export const mediaFileOwned = defineSubject({
  subject: 'media.file.owned',
  request: Type.Object({ fileIds: Type.Array(FileId, { minItems: 1, maxItems: 50, uniqueItems: true }) }),
  reply: Type.Object({
    items: Type.Array(Type.Object({ id: FileId, ownerId: Type.String(), kind: StringEnum(FILE_KINDS) })),
  }),
  summary: 'The owner and kind of each of some files (those that exist)',
});

/** How many records or files one `media.photo.covers` request names at most: a page of a list. */
export const COVERS_LIMIT = PAGE_DEFAULTS.maxLimit;

/**
 * The photos a page of a list shows, in one request for the whole page (ADR 203): the newest image of each plant
 * named, and each image file named (a listing's images). Bus only, asked by the service answering the list, which
 * names only records the caller may read: plants are public, and a listing's images are asked only for listings the
 * caller may see. Only processed images that are not deleted and whose stored copies carry no metadata are answered;
 * a plant or file missing from the answer has no photo to show.
 */
export const mediaPhotoCovers = defineSubject({
  subject: 'media.photo.covers',
  request: Type.Object({
    plantIds: Type.Optional(Type.Array(PlantId, { maxItems: COVERS_LIMIT, uniqueItems: true })),
    fileIds: Type.Optional(Type.Array(FileId, { maxItems: COVERS_LIMIT, uniqueItems: true })),
  }),
  reply: Type.Object({
    plants: Type.Array(Type.Object({ plantId: PlantId, ...PhotoThumbnails.properties })),
    files: Type.Array(PhotoThumbnails),
  }),
  summary: 'Thumbnails of the newest photo of each plant and of each image named, for one page of a list',
});

export const DeletedFile = Type.Object({ id: FileId, deletedAt: Timestamp });
export const mediaFileDelete = defineSubject({
  subject: 'media.file.delete',
  request: Type.Object({ fileId: FileId }),
  reply: DeletedFile,
  summary: 'Soft-delete a file (hidden at once, purged later)',
});

/**
 * Internal events (no public kind): a file's id, owner and record are not for every signed-in user, as the public
 * event history and stream are, since most files are private (unlinked files, profile photos, a draft listing's).
 * They reach the audit log (ADMIN only).
 */
export const mediaFileStored = defineEvent({
  subject: 'evt.media.file.stored',
  payload: Type.Object({
    fileId: FileId,
    ownerId: Type.String(),
    kind: StringEnum(FILE_KINDS),
    mimeType: Type.String(),
    bytes: Type.Integer({ minimum: 0 }),
    category: FileCategorySchema,
    entityType: Type.Union([EntityTypeSchema, Type.Null()]),
    entityId: Type.Union([Type.String(), Type.Null()]),
  }),
});

export const mediaFileDeleted = defineEvent({
  subject: 'evt.media.file.deleted',
  payload: Type.Object({ fileId: FileId, ownerId: Type.String(), deletedAt: Timestamp }),
});
