import {
  AppError,
  IDENTIFY_LIMITS,
  type Identification,
  identificationCreate,
  identificationCreateStreamed,
  identificationGet,
  MEDIA_LIMITS,
  newId,
  type Organ,
  type RefusalReason,
  type SpeciesCandidate,
} from '@rootline/contracts';
import { actingUser } from '@rootline/domain';
import { type HandlerContext, handle, notFound, outgoingAgent, type ServiceContext } from '@rootline/host';
import type { Storage } from '@rootline/storage';
import { IdentificationUnavailable, identifyWithPlantNet, type OutgoingPhoto } from '../adapters/identify/plantnet.js';
import { photoForProvider, readAll } from '../adapters/identify/prepare.js';
import type { MediaConfig } from '../config.js';
import { findFile } from '../db/files.repo.js';
import { findIdentification, insertIdentification } from '../db/identifications.repo.js';
import { mayChange } from '../domain/access.js';

const unavailable = (message: string, reason: RefusalReason) => new AppError('UNAVAILABLE', message, { reason });

type Photo = { fileId?: string; uploadKey?: string; organ: Organ };

/**
 * Candidate species for one to five photos, from the configured provider speaking the Pl@ntNet identification
 * API. A photo is an image file of the caller's (or any, for an ADMIN) or one the gateway streamed for this request
 * (removed afterwards). Each leaves re-encoded without metadata. UNAVAILABLE (503) when no provider is configured
 * or it fails; the answer is kept so a candidate can be accepted onto a plant later.
 */
async function identify(
  ctx: ServiceContext<MediaConfig>,
  storage: Storage,
  caller: HandlerContext,
  photos: readonly Photo[],
): Promise<Identification> {
  const actor = actingUser(caller);
  const streamed = photos.flatMap((p) => (p.uploadKey ? [p.uploadKey] : []));
  try {
    const { PLANT_ID_URL: url, PLANT_ID_API_KEY: apiKey } = ctx.config;
    if (!url || !apiKey) {
      throw unavailable('Plant identification is not configured on this installation', 'not-configured');
    }
    const outgoing: OutgoingPhoto[] = [];
    for (const [i, photo] of photos.entries()) {
      const field = `photos/${i}`;
      let key = photo.uploadKey;
      if (photo.fileId) {
        const file = await findFile(ctx.db, photo.fileId);
        // Another's photo is no file to the caller, readable or not (`mayChange`).
        if (file?.status !== 'ready' || file.kind !== 'image' || !mayChange(file, caller.actor)) {
          throw notFound('File', photo.fileId);
        }
        key = file.originalKey;
      }
      if (!key) throw new AppError('VALIDATION_ERROR', 'Each photo needs a fileId', { field: `${field}/fileId` });
      const bytes = await readAll(await storage.get(key), MEDIA_LIMITS.imageMaxBytes);
      outgoing.push({ jpeg: await photoForProvider(bytes, ctx.config.MEDIA_MAX_PIXELS, field), organ: photo.organ });
    }
    let candidates: SpeciesCandidate[];
    try {
      candidates = await identifyWithPlantNet(
        {
          url,
          apiKey,
          project: ctx.config.PLANT_ID_PROJECT,
          agent: outgoingAgent(ctx.config.SOCKS_PROXY_URL),
          timeoutMs: ctx.config.PLANT_ID_TIMEOUT_MS,
        },
        outgoing,
        IDENTIFY_LIMITS.maxCandidates,
      );
    } catch (err) {
      if (!(err instanceof IdentificationUnavailable)) throw err;
      ctx.log.warn({ err: err.message, status: err.status }, 'plant identification provider failed');
      throw unavailable('The plant identification service did not answer; try again later', 'provider-failed');
    }
    return await insertIdentification(ctx.db, {
      id: newId('pid', ctx.clock.now().getTime()),
      provider: new URL(url).host,
      organs: photos.map((p) => p.organ),
      candidates,
      requestedBy: actor.id,
      createdAt: ctx.clock.now().toISOString(),
    });
  } finally {
    if (streamed.length) await storage.delete(streamed).catch(() => {});
  }
}

/** media.identification.create: identification of uploaded photos (file ids). */
export const createIdentification = (ctx: ServiceContext<MediaConfig>, storage: Storage) =>
  handle(identificationCreate, ({ photos }, caller) => identify(ctx, storage, caller, photos));

/** media.identification.create-streamed: identification of photos the gateway streamed from a multipart request. */
export const createStreamedIdentification = (ctx: ServiceContext<MediaConfig>, storage: Storage) =>
  handle(identificationCreateStreamed, ({ photos }, caller) => identify(ctx, storage, caller, photos));

/** media.identification.get: an identification, to the user who asked for it or an ADMIN (NOT_FOUND to others). */
export const getIdentification = (ctx: ServiceContext<MediaConfig>) =>
  handle(identificationGet, async ({ identificationId }, caller) => {
    const found = await findIdentification(ctx.db, identificationId);
    if (!found) throw notFound('Identification', identificationId);
    if (caller.actor?.id !== found.requestedBy && caller.actor?.role !== 'ADMIN') {
      throw notFound('Identification', identificationId);
    }
    return found;
  });
