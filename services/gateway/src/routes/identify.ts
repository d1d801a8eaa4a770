import { randomBytes } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AppError,
  Envelope,
  IDENTIFY_LIMITS,
  Identification,
  identificationCreate,
  identificationCreateStreamed,
  MEDIA_LIMITS,
  ORGANS,
  type Organ,
  Plant,
  plantSpeciesAccept,
} from '@rootline/contracts';
import { call } from '@rootline/host';
import type { Storage } from '@rootline/storage';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';
import { ok } from '../http/envelope.js';
import { callContext } from '../http/request-context.js';
import { gatewayErrorCodes, operationSchema } from '../plugins/openapi.js';

const TAGS = ['Plants'];
/** The provider may take seconds per photo. */
const IDENTIFY_TIMEOUT_MS = 60_000;

const PRIVACY =
  'Each photo leaves decoded and encoded anew as a JPEG of at most 1600 pixels a side, with no metadata: no EXIF, ' +
  'no GPS position, no camera serial. Answers 503 UNAVAILABLE (`details.reason` not-configured or ' +
  'provider-failed) when no provider is configured (`PLANT_ID_URL`, `PLANT_ID_API_KEY`) or it fails; never a 500. ' +
  'The identification is kept (its id, the candidates, who asked) so that one candidate can be accepted onto a ' +
  'plant with `POST /api/plants/{plantId}/species`.';

const ANSWER =
  'Candidates are ranked best first with the provider’s score (0 to 1): accepted name, author, genus, family, ' +
  'common names and GBIF and POWO ids; none when no species was recognised.';

export interface IdentifyRouteDeps extends BusRouteDeps {
  storage: Storage;
}

/** Streams the photos of a multipart identification into storage: `images` files and `organs` fields, in order. */
async function streamPhotos(req: FastifyRequest, storage: Storage): Promise<{ uploadKey: string; organ: Organ }[]> {
  const keys: string[] = [];
  const organs: string[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.fieldname !== 'organs') {
          throw new AppError('VALIDATION_ERROR', 'Only the fields "organs" and "images" are read', {
            field: part.fieldname,
          });
        }
        organs.push(String(part.value));
        continue;
      }
      if (part.fieldname !== 'images') {
        throw new AppError('VALIDATION_ERROR', 'Photos go in fields named "images"', { field: part.fieldname });
      }
      const uploadKey = `pending/${randomBytes(18).toString('base64url')}`;
      keys.push(uploadKey);
      await storage.put(uploadKey, part.file, {
        contentType: 'application/octet-stream',
        maxBytes: MEDIA_LIMITS.imageMaxBytes,
      });
      if (part.file.truncated) {
        throw new AppError('PAYLOAD_TOO_LARGE', `A photo is larger than ${MEDIA_LIMITS.imageMaxBytes} bytes`, {
          reason: 'file-too-large',
          maxBytes: MEDIA_LIMITS.imageMaxBytes,
        });
      }
    }
    if (keys.length < IDENTIFY_LIMITS.minPhotos || keys.length > IDENTIFY_LIMITS.maxPhotos) {
      throw new AppError('VALIDATION_ERROR', 'Send one to five photos in fields "images"', {
        field: 'images',
        reason: 'photo-count',
      });
    }
    if (organs.length !== keys.length || organs.some((o) => !(ORGANS as readonly string[]).includes(o))) {
      throw new AppError('VALIDATION_ERROR', `Send one "organs" field per photo, each one of ${ORGANS.join(', ')}`, {
        field: 'organs',
        reason: 'organ-per-photo',
      });
    }
    return keys.map((uploadKey, i) => ({ uploadKey, organ: organs[i] as Organ }));
  } catch (err) {
    await storage.delete(keys).catch(() => {});
    const status = (err as { statusCode?: number }).statusCode;
    if (status === 413) {
      throw new AppError('PAYLOAD_TOO_LARGE', `A photo is larger than ${MEDIA_LIMITS.imageMaxBytes} bytes`, {
        reason: 'file-too-large',
        maxBytes: MEDIA_LIMITS.imageMaxBytes,
      });
    }
    throw err;
  }
}

/** Plant identification from photos and the acceptance of a candidate, under /api/plants. */
export const identifyRoutes: FastifyPluginAsyncTypebox<IdentifyRouteDeps> = async (app, deps) => {
  await app.register(multipart, {
    limits: {
      files: IDENTIFY_LIMITS.maxPhotos,
      fields: IDENTIFY_LIMITS.maxPhotos,
      fieldSize: 20,
      parts: 2 * IDENTIFY_LIMITS.maxPhotos,
      fileSize: MEDIA_LIMITS.imageMaxBytes + 1,
    },
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/identify',
    summary: 'Identify a plant from uploaded photos',
    description:
      'One to five photos of the same plant, uploaded first (`POST /api/upload/image`; your own files), each with ' +
      'the organ it shows (leaf, flower, fruit, bark, habit), are sent to the configured plant-identification ' +
      `provider (the Pl@ntNet identification API). ${ANSWER}\n\n${PRIVACY}\n\nTo send the photos themselves in ` +
      'the request, use `POST /api/plants/identify/photos`.',
    tags: TAGS,
    policy: {
      permission: 'plants:write',
      object: { rule: 'own', why: 'photos must be the caller’s own files (checked by media)' },
    },
    subject: identificationCreate,
    status: 201,
    timeoutMs: IDENTIFY_TIMEOUT_MS,
    errors: ['NOT_FOUND', 'UNAVAILABLE', 'PAYLOAD_TOO_LARGE'],
    example: {
      photos: [
        { fileId: 'fil_01HZX3K6Q2W8N4B7T5R9V0C1MD', organ: 'leaf' },
        { fileId: 'fil_01HZX3K6Q2W8N4B7T5R9V0C1ME', organ: 'flower' },
      ],
    },
  });

  const policy = {
    permission: 'plants:write',
    object: { rule: 'none', why: 'photos sent in the request, no stored record' },
  } as const;
  const config: FastifyContextConfig = {
    ...policy,
    documentedForm: {
      schema: {
        type: 'object',
        properties: {
          images: {
            type: 'array',
            minItems: 1,
            maxItems: 5,
            items: { type: 'string', format: 'binary' },
            description: 'One to five photos of the same plant (JPEG, PNG, WebP, HEIC…)',
          },
          organs: {
            type: 'array',
            items: { type: 'string', enum: [...ORGANS] },
            description: 'The organ each photo shows, in the order of the photos',
          },
        },
        required: ['images', 'organs'],
        examples: [{ images: ['(the bytes of a photo of a leaf)'], organs: ['leaf'] }],
      },
      encoding: { images: { contentType: 'image/*' } },
    },
  };
  app.route({
    method: 'POST',
    url: '/identify/photos',
    config,
    schema: operationSchema({
      operationId: 'identifyPlantPhotos',
      summary: 'Identify a plant from photos sent in the request',
      description:
        'A `multipart/form-data` body as the Pl@ntNet identification API takes it: one to five files in fields ' +
        '`images` and, for each, a field `organs` (leaf, flower, fruit, bark or habit), in the same order. The ' +
        'photos are streamed into storage, sent, and removed; they become no file of yours. ' +
        `At most ${MEDIA_LIMITS.imageMaxBytes} bytes each. ${ANSWER}\n\n${PRIVACY}`,
      tags: TAGS,
      status: 201,
      success: Envelope(Identification),
      errors: [...gatewayErrorCodes({ policy }), 'VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'UNAVAILABLE'],
    }),
    handler: async (req, reply) => {
      const photos = await streamPhotos(req, deps.storage);
      try {
        const found = await call(
          deps.bus,
          identificationCreateStreamed,
          { photos },
          callContext(req),
          IDENTIFY_TIMEOUT_MS,
        );
        reply.code(201);
        return ok(found);
      } catch (err) {
        await deps.storage.delete(photos.map((p) => p.uploadKey)).catch(() => {});
        throw err;
      }
    },
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/species/:plantId',
    aliases: ['/:plantId/species'],
    summary: 'Accept an identified species',
    description:
      'Makes one candidate of an identification (yours) the plant’s scientific name, recorded in ' +
      '`scientificNameSource` with the identification id, the provider, its score, the author and the family. ' +
      'The plant must be yours (an ADMIN may act for anyone). A name that is not a candidate of the ' +
      'identification is refused (400, `details.candidates` lists them); an identification that is not yours is ' +
      '404. The ledger keeps the name the plant was registered with.',
    tags: TAGS,
    policy: { permission: 'plants:write', object: { rule: 'owner', field: 'plantId', record: 'plant' } },
    subject: plantSpeciesAccept,
    reply: Plant,
    errors: ['NOT_FOUND'],
    example: { identificationId: 'pid_01HZX3K6Q2W8N4B7T5R9V0C1MD', scientificName: 'Solanum lycopersicum' },
  });
};
