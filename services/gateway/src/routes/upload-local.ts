import { AppError } from '@rootline/contracts';
import { type Clock, systemClock } from '@rootline/host';
import { LOCAL_URL_PATH, type LocalGrant, type LocalStorage, type Storage, verifyGrant } from '@rootline/storage';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';

interface Query {
  expires?: string;
  type?: string;
  bytes?: string;
  sig?: string;
}

/** A bad or expired signature reveals nothing, not even whether the object exists: 404, as for a missing one. */
function denied(): AppError {
  return new AppError('NOT_FOUND', 'The signed URL is invalid or has expired');
}

/**
 * The local storage's signed URLs under /api/upload/local/<key>: GET streams the object, PUT streams a body of the
 * signed size and type into it. Each URL is checked against its HMAC and expiry; no session is needed (the
 * signature is the permission).
 */
export const localStorageRoutes: FastifyPluginAsync<{ storage: Storage; clock?: Clock }> = async (app, opts) => {
  const storage = opts.storage as LocalStorage;
  const clock = opts.clock ?? systemClock;
  // The PUT body is the file itself, of any type: handed over as a stream, never parsed or buffered.
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

  const grantOf = (req: FastifyRequest, method: 'GET' | 'PUT'): LocalGrant => {
    const q = req.query as Query;
    const key = (req.params as { '*': string })['*'];
    const grant: LocalGrant = {
      method,
      key,
      expires: Number(q.expires),
      contentType: q.type ?? '',
      ...(method === 'PUT' ? { bytes: Number(q.bytes) } : {}),
    };
    const now = Math.floor(clock.now().getTime() / 1000);
    if (!q.sig || !verifyGrant(storage.secret(), grant, q.sig, now)) throw denied();
    return grant;
  };
  const prefix = LOCAL_URL_PATH.replace('/api/upload', '');
  const config = { public: true, object: { rule: 'none', why: 'the URL’s signature is the grant' } } as const;

  app.get(`${prefix}/*`, { config, schema: { hide: true } }, async (req, reply) => {
    const grant = grantOf(req, 'GET');
    const stream = await storage.get(grant.key);
    return reply.type(grant.contentType).header('cache-control', 'private, max-age=60').send(stream);
  });

  app.put(`${prefix}/*`, { config, schema: { hide: true } }, async (req, reply) => {
    const grant = grantOf(req, 'PUT');
    if (req.headers['content-type'] !== grant.contentType) {
      throw new AppError('VALIDATION_ERROR', `Send the signed Content-Type, ${grant.contentType}`);
    }
    const bytes = grant.bytes ?? 0;
    const { bytes: got } = await storage.put(grant.key, req.raw, { contentType: grant.contentType, maxBytes: bytes });
    if (got !== bytes) {
      await storage.delete([grant.key]);
      throw new AppError('VALIDATION_ERROR', `The signed size is ${bytes} bytes; ${got} arrived`);
    }
    return reply.code(200).send({ success: true, data: { key: grant.key, bytes: got }, error: null });
  });
};
