import { outboxTable, scheduledJobsTable } from '@rootline/db';
import { boolean, index, integer, jsonb, pgSchema, text, timestamp } from 'drizzle-orm/pg-core';

export const mediaSchema = pgSchema('media');

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/**
 * Files and their metadata. A presigned upload is a `pending` row until completed (or expired); a refused
 * upload leaves no row. A deleted file keeps its row, hidden, until the purge job removes its objects and it.
 */
export const files = mediaSchema.table(
  'files',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    /** Decided by the bytes once processed; for a pending upload, the type announced. */
    mimeType: text('mime_type').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width'),
    height: integer('height'),
    originalName: text('original_name').notNull(),
    category: text('category').notNull(),
    entityType: text('entity_type'),
    entityId: text('entity_id'),
    /** EXIF read from the original, GPS included: the GPS is shown to the file's owner and ADMINs only (ADR 179). */
    exif: jsonb('exif'),
    /**
     * The stored copies still carry EXIF: written before every copy was stripped (a photo of its owner's exact plant
     * kept it). The `strip-metadata` job clears it from their bytes and then this flag; no new file sets it.
     */
    metadataInCopies: boolean('gps_served').notNull().default(false),
    /** The served original: the full-size WebP of an image, the document as uploaded. */
    originalKey: text('original_key').notNull(),
    /** Thumbnail keys by size in pixels (images). */
    thumbnails: jsonb('thumbnails').$type<Record<string, string>>(),
    createdAt: at('created_at').notNull(),
    /** Pending uploads: when the signed URL expires and the upload is removed if not completed. */
    expiresAt: at('expires_at'),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    index('files_owner_idx').on(t.ownerId),
    index('files_entity_idx').on(t.entityType, t.entityId),
    index('files_expiry_idx').on(t.status, t.expiresAt),
    index('files_deleted_idx').on(t.deletedAt),
  ],
);

/** Scheduled jobs shared by the replicas: one row each, claimed by one replica per run. */
export const jobs = scheduledJobsTable(mediaSchema);

export const outbox = outboxTable(mediaSchema);

/**
 * Photo identifications: what the provider answered, kept so a candidate can be accepted onto a plant with its
 * source. No photo is kept here (the photos of uploads stay files; streamed ones are removed once sent).
 */
export const identifications = mediaSchema.table(
  'identifications',
  {
    id: text('id').primaryKey(),
    requestedBy: text('requested_by').notNull(),
    provider: text('provider').notNull(),
    organs: jsonb('organs').$type<string[]>().notNull(),
    candidates: jsonb('candidates').$type<unknown[]>().notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('identifications_requested_by_idx').on(t.requestedBy)],
);
