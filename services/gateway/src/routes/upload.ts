import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DOCUMENT_TYPES,
  ENTITY_TYPES,
  Envelope,
  FILE_CATEGORIES,
  FileInfo,
  type FileKind,
  IMAGE_TYPES,
  MEDIA_LIMITS,
  mediaFileDelete,
  mediaFileGet,
  mediaFileListPlant,
  mediaUploadComplete,
  mediaUploadPresign,
  mediaUploadProcess,
  PLANT_FILES_LIMIT,
} from '@rootline/contracts';
import { type Clock, call } from '@rootline/host';
import type { Storage } from '@rootline/storage';
import type { FastifyContextConfig } from 'fastify';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';
import { ok } from '../http/envelope.js';
import { callContext } from '../http/request-context.js';
import type { DocumentedForm } from '../plugins/auth.js';
import { gatewayErrorCodes, operationSchema } from '../plugins/openapi.js';
import { localStorageRoutes } from './upload-local.js';
import { streamUpload } from './upload-stream.js';

/** An upload names the record it is attached to, which must be the caller's. */
const ATTACHED_TO_OWN = {
  rule: 'owner',
  field: 'entityId',
  record: 'record the file is attached to',
  why: 'attached only to the caller’s own records',
} as const;

const TAGS = ['Uploads'];
/** Processing a large image takes seconds on a busy machine: more than the default bus wait. */
const PROCESS_TIMEOUT_MS = 120_000;

const FORM =
  'A `multipart/form-data` body: first the optional fields `category` (one of ' +
  `${FILE_CATEGORIES.join(', ')}; default \`plant-photo\` for an image attached to a plant, else \`other\`) and ` +
  `\`entityType\` (${ENTITY_TYPES.join(', ')}) with \`entityId\` ` +
  '(the record the file belongs to: it must exist, 404, and be yours, 403 with `details.reason` not-owner — your ' +
  'plant, a listing you sell, a farm you own, your own user), then one file in the field `file`. ' +
  'Fields after the file are ignored. The type is decided by the file’s bytes, never by its name or declared ' +
  'type. The body is streamed into storage and processed from there: it is never held whole in memory.';

const IMAGE =
  `Accepted: ${IMAGE_TYPES.join(', ')}; at most ${MEDIA_LIMITS.imageMaxBytes} bytes (413 PAYLOAD_TOO_LARGE ` +
  `beyond) and ${MEDIA_LIMITS.maxPixels} pixels (decompression bombs are refused from the header, before ` +
  'decoding). Truncated or corrupt images are refused. Orientation is applied; EXIF is read and stored. Every ' +
  `copy is a WebP: the full-size original and square thumbnails of ${MEDIA_LIMITS.thumbnailSizes.join(', ')} ` +
  'pixels. No copy carries metadata (no EXIF, so no GPS; no XMP, no IPTC), whatever the privacy level of a plant ' +
  'it shows: that level governs the plant’s place, not where a photo was taken. The GPS read from the original is ' +
  'answered as `exif.gps` to the file’s owner and ADMINs only (null to everyone else).';

const DOCUMENT =
  `Accepted: PDF, DOC (an OLE2 compound file) and DOCX (an OOXML zip with \`[Content_Types].xml\` and ` +
  `\`word/document.xml\`, whose directory is checked for zip bombs without inflating anything); at most ` +
  `${MEDIA_LIMITS.documentMaxBytes} bytes (413 beyond). Stored as uploaded.`;

/** The form of a multipart upload, for the document (the route streams the body and checks it itself). */
function uploadForm(kind: FileKind, types: readonly string[]): DocumentedForm {
  return {
    schema: {
      type: 'object',
      properties: {
        category: {
          type: 'string',
          enum: [...FILE_CATEGORIES],
          description: 'What the file shows; default `plant-photo` for an image attached to a plant, else `other`.',
        },
        entityType: {
          type: 'string',
          enum: [...ENTITY_TYPES],
          description: 'The kind of record the file belongs to; sent together with `entityId`.',
        },
        entityId: {
          type: 'string',
          description: 'The record the file belongs to (yours); sent together with `entityType`.',
        },
        file: {
          type: 'string',
          format: 'binary',
          description: `The ${kind}, after the other fields (fields after it are ignored).`,
        },
      },
      required: ['file'],
      examples: [
        kind === 'image'
          ? {
              entityType: 'plant',
              entityId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
              file: '(the bytes of a JPEG, PNG or WebP photo)',
            }
          : { category: 'certificate', file: '(the bytes of a PDF)' },
      ],
    },
    encoding: { file: { contentType: types.join(', ') } },
  };
}

export interface UploadRouteDeps extends BusRouteDeps {
  storage: Storage;
  clock: Clock;
}

/** Uploads under /api/upload: multipart images and documents, presigned uploads, file information, deletion. */
export const uploadRoutes: FastifyPluginAsyncTypebox<UploadRouteDeps> = async (app, deps) => {
  await app.register(multipart, {
    // busboy stops one byte past the largest limit; each kind's own limit is applied while streaming.
    limits: { files: 1, fields: 5, fieldSize: 200, parts: 8, fileSize: MEDIA_LIMITS.documentMaxBytes + 1 },
  });

  const upload = (kind: FileKind, url: string, summary: string, text: string, maxBytes: number) => {
    const types = kind === 'image' ? IMAGE_TYPES : DOCUMENT_TYPES;
    const policy = {
      permission: 'uploads:write',
      idempotent: true,
      object: ATTACHED_TO_OWN,
    } as const;
    const config: FastifyContextConfig = { ...policy, documentedForm: uploadForm(kind, types) };
    app.route({
      method: 'POST',
      url,
      config,
      schema: operationSchema({
        operationId: `upload${kind.charAt(0).toUpperCase()}${kind.slice(1)}`,
        summary,
        description: `${FORM}\n\n${text}\n\nSend an \`Idempotency-Key\` to make a retry safe: the key names the upload (the file is not part of its fingerprint).`,
        tags: TAGS,
        status: 201,
        success: Envelope(FileInfo),
        errors: [
          ...gatewayErrorCodes({ policy }),
          'VALIDATION_ERROR',
          'PAYLOAD_TOO_LARGE',
          'NOT_FOUND',
          'UNAVAILABLE',
          'IDEMPOTENCY_KEY_REUSED',
        ],
      }),
      handler: async (req, reply) => {
        const streamed = await streamUpload(req, deps.storage, maxBytes);
        try {
          const input = { kind, uploadKey: streamed.uploadKey, filename: streamed.filename, ...streamed.fields };
          const info = await call(deps.bus, mediaUploadProcess, input, callContext(req), PROCESS_TIMEOUT_MS);
          reply.code(201);
          return ok(info);
        } catch (err) {
          // Media removes it too; this covers a request it refused before its handler ran, or never answered.
          await deps.storage.delete([streamed.uploadKey]).catch(() => {});
          throw err;
        }
      },
    });
  };
  upload('image', '/image', 'Upload an image', IMAGE, MEDIA_LIMITS.imageMaxBytes);
  upload('document', '/document', 'Upload a document', DOCUMENT, MEDIA_LIMITS.documentMaxBytes);

  busRoute(app, deps, {
    method: 'POST',
    url: '/presigned',
    summary: 'Presign a direct upload',
    description:
      'Answers a URL to `PUT` the file to directly (object storage, or a signed local URL), with the headers to ' +
      'send unchanged: its size and type are signed, so another size is refused. Then call ' +
      '`POST /api/upload/presigned/{fileId}/complete`: the file is validated and processed like a multipart ' +
      `upload. A URL lives ${MEDIA_LIMITS.presignSeconds} s; an upload not completed by then is removed by the ` +
      `expiry job.\n\nImages: ${IMAGE_TYPES.join(', ')}; documents: ${DOCUMENT_TYPES.join(', ')}.`,
    tags: TAGS,
    policy: {
      permission: 'uploads:write',
      idempotent: true,
      object: ATTACHED_TO_OWN,
    },
    subject: mediaUploadPresign,
    status: 201,
    errors: ['PAYLOAD_TOO_LARGE', 'NOT_FOUND', 'IDEMPOTENCY_KEY_REUSED'],
    example: {
      kind: 'image',
      filename: 'tomato.jpg',
      contentType: 'image/jpeg',
      bytes: 2_345_678,
      category: 'plant-photo',
      entityType: 'plant',
      entityId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
    },
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/presigned/:fileId/complete',
    summary: 'Complete a direct upload',
    description:
      'Validates and processes what arrived at the presigned URL, by the rules of the multipart uploads. A ' +
      'refused file is removed with its pending upload. Owner or ADMIN only: anyone else gets 404, as for a file ' +
      'that does not exist. Completing twice answers the file.',
    tags: TAGS,
    policy: { permission: 'uploads:write', object: { rule: 'owner', field: 'fileId', record: 'file' } },
    subject: mediaUploadComplete,
    timeoutMs: PROCESS_TIMEOUT_MS,
    errors: ['NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/plants/:plantId',
    summary: 'Files of a plant',
    description:
      `The processed files attached to the plant (its photos first of all), newest first, at most ${PLANT_FILES_LIMIT}, ` +
      'each as `GET /api/upload/{fileId}` answers it: type, size, dimensions and URLs of the original and each ' +
      `thumbnail, valid ${MEDIA_LIMITS.urlSeconds} s. Attach a photo with \`POST /api/upload/image\` and the fields ` +
      '`entityType=plant`, `entityId`. Readable by everyone who may read the plant; deleted files are left out.',
    tags: TAGS,
    policy: { public: true, identifiesCaller: true, object: { rule: 'public', field: 'plantId', record: 'plant' } },
    subject: mediaFileListPlant,
    list: { item: FileInfo },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/:fileId',
    summary: 'File information',
    description:
      'Type, size, dimensions, category, the record it belongs to, EXIF (`exif.gps`, where the photo was taken, to ' +
      'the file’s owner and ADMINs only; null to others) and URLs of the original and each thumbnail, valid ' +
      `${MEDIA_LIMITS.urlSeconds} s, without any metadata in their bytes, ` +
      'each served with the type of its stored bytes (`image/webp` for every copy of an image, `mimeType` for a ' +
      'document). ' +
      'Read by its owner and ADMINs, and by every signed-in user when the record it belongs to is public to them (a ' +
      'plant, a farm, a listing that is not a draft), and an image that a listing which is not a draft shows among ' +
      'its `imageFileIds`; otherwise a profile photo or a file of no record is its owner’s only. Anyone else gets ' +
      '404, as for a file that does not exist.',
    tags: TAGS,
    policy: {
      permission: 'uploads:write',
      object: {
        rule: 'attached-to',
        field: 'fileId',
        record: 'file',
        why: 'its uploader, whoever may read its record, everyone when that record (or a listing showing the image) is public',
      },
    },
    subject: mediaFileGet,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'DELETE',
    url: '/:fileId',
    summary: 'Delete a file',
    description:
      'Hidden at once (404 afterwards); its stored copies are removed later by the purge job, which runs on one ' +
      'replica at a time. Owner or ADMIN only: anyone else gets 404, as for a file that does not exist, even when ' +
      'they may read it.',
    tags: TAGS,
    policy: { permission: 'uploads:write', object: { rule: 'owner', field: 'fileId', record: 'file' } },
    subject: mediaFileDelete,
    errors: ['NOT_FOUND'],
  });

  if (deps.storage.driver === 'local')
    await app.register(localStorageRoutes, { storage: deps.storage, clock: deps.clock });
};
