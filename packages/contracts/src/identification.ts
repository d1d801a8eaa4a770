import { type Static, Type } from '@sinclair/typebox';
import { PrefixedId, Text, Timestamp } from './common.js';
import { defineSubject, Named } from './define.js';
import { FileId } from './media.js';
import { Plant, PlantId, StringEnum } from './plants.js';

/** The organs a photo may show, as the Pl@ntNet identification API names them. */
export const ORGANS = ['leaf', 'flower', 'fruit', 'bark', 'habit'] as const;
export type Organ = (typeof ORGANS)[number];
export const OrganSchema = StringEnum(ORGANS, {
  description: 'What the photo shows: leaf, flower, fruit, bark or habit (the whole plant)',
});

/** Bounds of an identification request. */
export const IDENTIFY_LIMITS = { minPhotos: 1, maxPhotos: 5, maxCandidates: 10 } as const;

export const IdentificationId = PrefixedId('pid', 'Plant identification identifier');

const UploadKey = Type.String({ pattern: '^pending/[A-Za-z0-9_-]{16,64}$' });

/** POST /api/plants/identify: photos already uploaded (their file ids). */
export const IdentifyInput = Type.Object(
  {
    photos: Type.Array(Type.Object({ fileId: FileId, organ: OrganSchema }, { additionalProperties: false }), {
      minItems: IDENTIFY_LIMITS.minPhotos,
      maxItems: IDENTIFY_LIMITS.maxPhotos,
      description: 'One to five photos of the same plant, each with the organ it shows',
    }),
  },
  { additionalProperties: false },
);

export const SpeciesCandidate = Named(
  'SpeciesCandidate',
  Type.Object({
    scientificName: Type.String({ description: 'Accepted name without author, e.g. "Solanum lycopersicum"' }),
    author: Type.Union([Type.String(), Type.Null()], { description: 'Authorship of the name, e.g. "L."' }),
    genus: Type.Union([Type.String(), Type.Null()]),
    family: Type.Union([Type.String(), Type.Null()]),
    commonNames: Type.Array(Type.String()),
    score: Type.Number({ minimum: 0, maximum: 1, description: 'The provider’s confidence, 0 to 1' }),
    gbifId: Type.Union([Type.String(), Type.Null()]),
    powoId: Type.Union([Type.String(), Type.Null()]),
  }),
);
export type SpeciesCandidate = Static<typeof SpeciesCandidate>;

export const Identification = Named(
  'Identification',
  Type.Object(
    {
      id: IdentificationId,
      provider: Type.String({ description: 'Which service answered (its host)' }),
      organs: Type.Array(OrganSchema),
      candidates: Type.Array(SpeciesCandidate, { description: 'Best first; empty when no species was recognised' }),
      requestedBy: Type.String(),
      createdAt: Timestamp,
    },
    {
      examples: [
        {
          id: 'pid_01HZX3K6Q2W8N4B7T5R9V0C1MD',
          provider: 'my-api.plantnet.org',
          organs: ['leaf', 'flower'],
          candidates: [
            {
              scientificName: 'Solanum lycopersicum',
              author: 'L.',
              genus: 'Solanum',
              family: 'Solanaceae',
              commonNames: ['Tomato'],
              score: 0.91,
              gbifId: '2930137',
              powoId: '316947-2',
            },
          ],
          requestedBy: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD',
          createdAt: '2026-05-01T09:30:00.000Z',
        },
      ],
    },
  ),
);
export type Identification = Static<typeof Identification>;

export const identificationCreate = defineSubject({
  subject: 'media.identification.create',
  request: IdentifyInput,
  reply: Identification,
  summary: 'Ranked candidate species for photos of a plant, from the configured identification provider',
});

/** The same for photos the gateway streamed into storage from a multipart request (the bus carries their keys). */
export const identificationCreateStreamed = defineSubject({
  subject: 'media.identification.create-streamed',
  request: Type.Object({
    photos: Type.Array(Type.Object({ uploadKey: UploadKey, organ: OrganSchema }), {
      minItems: IDENTIFY_LIMITS.minPhotos,
      maxItems: IDENTIFY_LIMITS.maxPhotos,
    }),
  }),
  reply: Identification,
  summary: 'Ranked candidate species for photos streamed into storage by the gateway (removed once sent)',
});

export const identificationGet = defineSubject({
  subject: 'media.identification.get',
  request: Type.Object({ identificationId: IdentificationId }),
  reply: Identification,
  summary: 'An identification, to the user who asked for it (or an ADMIN)',
});

/** POST /api/plants/{plantId}/species: a candidate of an identification accepted as the plant's scientific name. */
export const AcceptSpeciesInput = Type.Object(
  {
    plantId: PlantId,
    identificationId: IdentificationId,
    scientificName: Text({
      minLength: 1,
      maxLength: 200,
      description: 'One of the identification’s candidates',
    }),
  },
  { additionalProperties: false },
);

export const plantSpeciesAccept = defineSubject({
  subject: 'plants.species.accept',
  request: AcceptSpeciesInput,
  reply: Plant,
  summary: 'Accept a candidate of an identification as a plant’s scientific name',
});
