import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { AppError } from '@rootline/contracts';
import type { Database } from '@rootline/db';
import { type Clock, type Logger, systemClock } from '@rootline/host';
import canonicalize from 'canonicalize';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type {
  FastifyReply,
  FastifyRequest,
  onResponseHookHandler,
  onSendHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { idempotencyKeys } from '../identity/db/schema.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on a request that holds its Idempotency-Key: the scoped reference passed on to the service. */
    idempotency: { ref: string; key: string; release: () => void } | null;
  }
}

/** The request header (IETF httpapi idempotency-key draft). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set on an answer replayed from the store. */
export const REPLAYED_HEADER = 'idempotent-replayed';
/** Accepted keys: 16 to 255 visible ASCII characters, e.g. a UUID; the key is what protects a stored answer. */
const KEY_PATTERN = /^[\x21-\x7e]{16,255}$/;
/** Keys are kept at least this long. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Default lease on an in-flight key: short, as it is renewed while its request runs (ADR 185). */
export const IDEMPOTENCY_LEASE_MS = 5000;

export interface IdempotencyOptions {
  database: Database;
  log: Logger;
  /** How long keys are kept (default 24 h). */
  ttlMs?: number;
  /**
   * The lease on an in-flight key (default `IDEMPOTENCY_LEASE_MS`): renewed every third of it while its request
   * runs, so a retry takes over at most this long after the gateway holding it died.
   */
  lockMs?: number;
  clock?: Clock;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The text a request's digest is made of: its RFC 8785 canonical JSON, so the same body sent twice hashes the same,
 * whatever its key order; a request without a body is `null`. These are the bytes of the key-sorted JSON stored
 * digests were made with before, for every request that passes validation (exported for that test).
 */
export function requestText(request: unknown): string {
  return canonicalize(request ?? null) as string;
}

/** The AES-256-GCM key of a stored answer: derived from the client's key, which Rootline does not keep. */
function answerKey(key: string, scopeHash: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, scopeHash, 'rootline idempotent answer', 32));
}

function seal(text: string, key: string, scopeHash: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', answerKey(key, scopeHash), iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** A stored answer in clear, given the client's key (exported for tests that read the store). */
export function openStoredAnswer(sealed: string, key: string, scopeHash: string): string {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', answerKey(key, scopeHash), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/**
 * The answer as stored: the fields of its `data` a route shows once (`replayWithout`) set to null. An answer that is
 * not an object envelope is stored as it is.
 */
export function withoutOnceFields(payload: string, fields: readonly string[] | undefined): string {
  if (!fields || fields.length === 0) return payload;
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return payload;
  }
  const data = (body as { data?: unknown } | null)?.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return payload;
  const kept = { ...(data as Record<string, unknown>) };
  for (const f of fields) if (f in kept) kept[f] = null;
  return JSON.stringify({ ...(body as object), data: kept });
}

/** Answers worth replaying: successes and the client's own errors; 409 and 429 (try again) and 5xx are not. */
const isFinal = (status: number) =>
  (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 409 && status !== 429);

/**
 * `Idempotency-Key` on the routes whose config says `idempotent: true` (every POST that creates something). A
 * request with a key claims `<principal, route, key>`; the first answer (status and body) is stored and
 * replayed to every later request with the same key and body (`Idempotent-Replayed: true`). The same key with
 * another body is 422 IDEMPOTENCY_KEY_REUSED; while the first request is in flight, 409 DUPLICATE. A 5xx is not
 * stored: the retry runs again, and the service, given the same reference (`idempotencyRef`), converges on the
 * same record. The claim on an in-flight key is a lease of `lockMs` renewed while the request runs: when its
 * gateway dies, a retry takes over within `lockMs` (ADR 185). Keys are kept `ttlMs` (24 h), then pruned. Only a
 * digest of the key is stored, and the answer is encrypted under a key derived from it. Fields a route shows once (`replayWithout`, e.g. an anonymous
 * registration's private key) are null in the stored answer: never kept, and a replay, which anyone holding the same
 * key on a public route would get, answers without them. A request without the header is served as before.
 */
export const idempotencyPlugin = fp<IdempotencyOptions>(
  async (app, opts) => {
    const { db } = opts.database;
    const ttlMs = opts.ttlMs ?? IDEMPOTENCY_TTL_MS;
    const lockMs = opts.lockMs ?? IDEMPOTENCY_LEASE_MS;
    const clock = opts.clock ?? systemClock;
    let lastPrune = 0;
    app.decorateRequest('idempotency', null);

    async function prune(now: Date): Promise<void> {
      if (now.getTime() - lastPrune < Math.min(PRUNE_EVERY_MS, ttlMs)) return;
      lastPrune = now.getTime();
      await db
        .delete(idempotencyKeys)
        .where(lt(idempotencyKeys.expiresAt, now))
        .catch((err: unknown) => opts.log.warn({ err }, 'could not prune idempotency keys'));
    }

    /**
     * Keeps the claim alive while its request runs: the lease is pushed `lockMs` ahead every third of it. A holder
     * that dies stops renewing, so its lease runs out within `lockMs` and a retry takes over; the services answer a
     * rerun from the first run's record (`idempotencyRef`), so a takeover while the first run is still busy
     * downstream converges on one write. Returns the function that stops renewing.
     */
    function holdLease(scopeHash: string, log: FastifyRequest['log']): () => void {
      let renewing: Promise<unknown> = Promise.resolve();
      const timer = setInterval(
        () => {
          renewing = renewing.then(() =>
            db
              .update(idempotencyKeys)
              .set({ lockedUntil: new Date(clock.now().getTime() + lockMs) })
              .where(and(eq(idempotencyKeys.scopeHash, scopeHash), isNull(idempotencyKeys.status)))
              .catch((err: unknown) => log.warn({ err }, 'could not renew the lease on an Idempotency-Key')),
          );
        },
        Math.max(1, Math.floor(lockMs / 3)),
      );
      timer.unref();
      return () => clearInterval(timer);
    }

    /** Claims the key for this request: a new row, or one whose holder's lease ran out (its gateway died). */
    async function claim(scopeHash: string, requestHash: string, now: Date): Promise<boolean> {
      const lockedUntil = new Date(now.getTime() + lockMs);
      const inserted = await db
        .insert(idempotencyKeys)
        .values({ scopeHash, requestHash, createdAt: now, lockedUntil, expiresAt: new Date(now.getTime() + ttlMs) })
        .onConflictDoNothing()
        .returning({ scopeHash: idempotencyKeys.scopeHash });
      if (inserted.length > 0) return true;
      const taken = await db
        .update(idempotencyKeys)
        .set({ lockedUntil })
        .where(
          and(
            eq(idempotencyKeys.scopeHash, scopeHash),
            eq(idempotencyKeys.requestHash, requestHash),
            isNull(idempotencyKeys.status),
            or(isNull(idempotencyKeys.lockedUntil), lt(idempotencyKeys.lockedUntil, now)),
          ),
        )
        .returning({ scopeHash: idempotencyKeys.scopeHash });
      return taken.length > 0;
    }

    const before: preHandlerHookHandler = async (req: FastifyRequest, reply: FastifyReply) => {
      const header = req.headers[IDEMPOTENCY_HEADER];
      if (header === undefined) return;
      const key = Array.isArray(header) ? header[0] : header;
      if (!key || !KEY_PATTERN.test(key)) {
        throw new AppError('VALIDATION_ERROR', 'Idempotency-Key must be 16 to 255 visible ASCII characters', {
          field: 'header/idempotency-key',
        });
      }
      const now = clock.now();
      await prune(now);
      const principal = req.actor?.id ?? 'anonymous';
      const scopeHash = sha256(`${principal}\n${req.method} ${req.routeOptions.url}\n${key}`);
      // Keyed by the client's key: a body holding a secret (a password) cannot be guessed from the stored digest.
      // The path's parameters and the query are part of the request: one key sent to another batch's URL is another
      // request (422), not a replay of the first. A route without either hashes its body alone, as it always did.
      const params = (req.params ?? {}) as object;
      const query = (req.query ?? {}) as object;
      const request =
        Object.keys(params).length + Object.keys(query).length === 0 ? req.body : { params, query, body: req.body };
      const requestHash = createHmac('sha256', key).update(requestText(request)).digest('hex');
      // An expired key is as good as none.
      await db
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.scopeHash, scopeHash), lt(idempotencyKeys.expiresAt, now)));
      if (await claim(scopeHash, requestHash, now)) {
        req.idempotency = { ref: scopeHash, key, release: holdLease(scopeHash, req.log) };
        return;
      }
      const [first] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.scopeHash, scopeHash));
      if (!first) throw new AppError('DUPLICATE', 'A request with this Idempotency-Key is in progress; retry shortly');
      if (first.requestHash !== requestHash) {
        throw new AppError(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was already used with a different request body; use a new key for a new request',
          { field: 'header/idempotency-key' },
        );
      }
      if (first.status === null || first.response === null) {
        reply.header('retry-after', 1);
        throw new AppError('DUPLICATE', 'A request with this Idempotency-Key is still in progress; retry shortly', {
          reason: 'in-flight',
        });
      }
      reply.header(REPLAYED_HEADER, 'true');
      return reply
        .code(first.status)
        .type('application/json; charset=utf-8')
        .send(openStoredAnswer(first.response, key, scopeHash));
    };

    const after: onSendHookHandler = async (req, reply, payload) => {
      const held = req.idempotency;
      if (!held) return payload;
      req.idempotency = null;
      held.release();
      const status = reply.statusCode;
      try {
        if (isFinal(status) && typeof payload === 'string') {
          await db
            .update(idempotencyKeys)
            .set({
              status,
              response: seal(withoutOnceFields(payload, req.routeOptions.config?.replayWithout), held.key, held.ref),
              lockedUntil: null,
            })
            .where(eq(idempotencyKeys.scopeHash, held.ref));
        } else {
          // Not an answer to replay: the key is free again, and a retry runs the request anew.
          await db.delete(idempotencyKeys).where(eq(idempotencyKeys.scopeHash, held.ref));
        }
      } catch (err) {
        req.log.warn({ err }, 'could not store the answer of an idempotent request');
      }
      return payload;
    };

    const release: onResponseHookHandler = async (req) => {
      req.idempotency?.release();
    };

    app.addHook('onRoute', (route) => {
      if (!route.config?.idempotent) return;
      const pre = route.preHandler ?? [];
      route.preHandler = [...(Array.isArray(pre) ? pre : [pre]), before];
      const send = route.onSend ?? [];
      route.onSend = [...(Array.isArray(send) ? send : [send]), after];
      // A request that ends without an answer sent (its client went away) stops renewing too.
      const done = route.onResponse ?? [];
      route.onResponse = [...(Array.isArray(done) ? done : [done]), release];
    });
  },
  { name: 'rootline-idempotency' },
);
