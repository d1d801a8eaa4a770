import type { Bus } from '@rootline/bus';
import { newId } from '@rootline/contracts';
import type { Database } from '@rootline/db';
import { type Clock, type Logger, systemClock } from '@rootline/host';
import { storageFromConfig } from '@rootline/storage';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import { type GatewayConfig, trustProxyOf } from './config.js';
import { allowedMethodsOf } from './http/allowed-methods.js';
import { answerClientError } from './http/client-errors.js';
import { failure } from './http/envelope.js';
import { formatValidationError, toHttpError } from './http/errors.js';
import { compiledOnFirstUse, lazySerializers } from './http/lazy-compile.js';
import { gatewayLogger, lazyRequestLogger } from './http/logging.js';
import { addOutboxBacklogGauge, createMetrics, instrumentBus } from './http/metrics.js';
import { cachedAccountNames } from './http/party-names.js';
import { requestIdOf } from './http/request-context.js';
import { requestValidatorCompiler } from './http/validation.js';
import { createMemoryStore } from './identity/attempts/memory-store.js';
import { createRedisStore } from './identity/attempts/redis-store.js';
import { createIdentity } from './identity/identity.js';
import { authPlugin } from './plugins/auth.js';
import { httpMetricsPlugin } from './plugins/http-metrics.js';
import { idempotencyPlugin } from './plugins/idempotency.js';
import { openApiPlugin } from './plugins/openapi.js';
import { publicUrlPlugin } from './plugins/public-url.js';
import { browserSessionOf, rateLimitPlugin } from './plugins/rate-limit.js';
import { readYourWritesPlugin } from './plugins/read-your-writes.js';
import { requestIdPlugin } from './plugins/request-id.js';
import { tracingPlugin } from './plugins/tracing.js';
import { DEFAULT_WEB_APP_DIR, isAppPath, serveWebApp } from './plugins/web-app.js';
import { adminRoutes } from './routes/admin.js';
import { agentRoutes } from './routes/agents.js';
import { analyticsRoutes } from './routes/analytics.js';
import { authRoutes } from './routes/auth.js';
import { chainRoutes } from './routes/chain.js';
import { demandRoutes } from './routes/demand.js';
import { DOCS_PREFIX, docsRoutes } from './routes/docs.js';
import { environmentRoutes } from './routes/environment.js';
import { epcisRoutes, identifierRoutes } from './routes/epcis.js';
import { farmRoutes } from './routes/farm.js';
import { federationRoutes } from './routes/federation.js';
import { geocodeRoutes } from './routes/geocode.js';
import { healthRoutes } from './routes/health.js';
import { identifyRoutes } from './routes/identify.js';
import { importRoutes } from './routes/imports.js';
import { marketplaceRoutes } from './routes/marketplace.js';
import { metricsRoutes } from './routes/metrics.js';
import { notificationRoutes } from './routes/notifications.js';
import { organizationRoutes } from './routes/organizations.js';
import { peopleRoutes } from './routes/people.js';
import { plantRoutes } from './routes/plants.js';
import { privacyRoutes } from './routes/privacy.js';
import { realtimeRoutes } from './routes/realtime.js';
import { seedHandoffRoutes } from './routes/seed-handoffs.js';
import { seedLoanRoutes, seedLotLendRoute } from './routes/seed-loans.js';
import { seedLotRoutes } from './routes/seed-lots.js';
import { ownershipHistoryRoute, transferRoutes } from './routes/transfers.js';
import { transparencyRoutes, webhookRoutes } from './routes/transparency.js';
import { transparencyLogRoutes } from './routes/transparency-log.js';
import { transparencyRecordRoutes } from './routes/transparency-records.js';
import { transparencySignatureRoutes } from './routes/transparency-signatures.js';
import { transparencyWebhookRoutes } from './routes/transparency-webhooks.js';
import { transparencyWitnessRoutes } from './routes/transparency-witness.js';
import { transportPublicRoutes, transportRoutes } from './routes/transport.js';
import { transportTrackerRoutes } from './routes/transport-tracker.js';
import { uploadRoutes } from './routes/upload.js';

/** What the gateway is built from: one typed object, the same in tests and in production. */
export interface GatewayContext {
  bus: Bus;
  log: Logger;
  config: GatewayConfig;
  /** Holds the gateway's own schema, `identity` (accounts, sessions, API tokens), migrated at start. */
  database: Database;
  /** Time of expiries and limits (default the system clock; tests pass their own). */
  clock?: Clock;
  /**
   * The process's metrics registry when the gateway shares its process with the services (embedded mode), so
   * /api/metrics serves theirs too; default a registry of the gateway's own.
   */
  metrics?: Registry;
}

/**
 * The Redis client of the rate limits when REDIS_URL is set (counters shared by replicas), else null. ioredis is
 * loaded only then: a gateway without Redis does not carry its modules (docs/perf/startup.md).
 */
async function rateLimitRedis(config: GatewayConfig): Promise<Redis | null> {
  if (!config.REDIS_URL) return null;
  const { Redis } = await import('ioredis');
  const redis = new Redis(config.REDIS_URL, {
    keyPrefix: config.REDIS_KEY_PREFIX,
    // Fail a command fast while Redis is away rather than queueing requests behind it.
    maxRetriesPerRequest: 1,
  });
  // Connection errors surface on the commands that fail; the 'error' event only needs a listener.
  redis.on('error', () => {});
  return redis;
}

/** Sends the failure envelope for anything thrown while serving; unexpected faults are logged in full. */
function sendError(err: unknown, reply: FastifyReply): FastifyReply {
  const { status, body, unexpected, retryAfterSeconds } = toHttpError(err);
  if (retryAfterSeconds !== undefined) reply.header('retry-after', retryAfterSeconds);
  if (unexpected) reply.log.error({ err }, 'unexpected error');
  else if (status >= 500) reply.log.warn({ code: body.code, details: body.details }, body.message);
  return reply.code(status).send(failure(body));
}

/**
 * Builds the HTTP gateway (it does not listen): envelope and error mapping, request ids, rate limiting,
 * authentication, metrics, the OpenAPI document, and one encapsulated route plugin per domain under
 * /api/<domain>. More plugins may be registered on the result before it is started.
 */
export async function buildGateway(ctx: GatewayContext): Promise<FastifyInstance> {
  const { config, database } = ctx;
  const clock = ctx.clock ?? systemClock;
  const metrics = createMetrics(ctx.metrics);
  const bus = instrumentBus(ctx.bus, metrics.busDuration);
  addOutboxBacklogGauge(metrics.registry, bus, clock);

  // Typed as Fastify's logger so the instance is the plain FastifyInstance callers expect.
  const log = gatewayLogger(ctx.log);
  const logger: FastifyBaseLogger = log;
  const app = Fastify({
    loggerInstance: logger,
    genReqId: requestIdOf(clock),
    // Log lines carry `requestId`, the same key the services use.
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    // X-Forwarded-For/-Proto/-Host are read only from these peers (client IP, Secure cookies, public links).
    trustProxy: trustProxyOf(config),
    schemaErrorFormatter: formatValidationError,
    // Errors Fastify raises before routing (a malformed URL) get the envelope too.
    frameworkErrors: (err, _req, reply) => {
      sendError(err, reply);
    },
    // So do requests Node's HTTP parser refuses (URL and headers over 16 KB, malformed HTTP).
    clientErrorHandler: answerClientError,
    // Response serializers are compiled on first use, not before listening (a faster start).
    schemaController: lazySerializers,
  });
  const allowedMethods = allowedMethodsOf(app);

  app.setValidatorCompiler(compiledOnFirstUse(requestValidatorCompiler()));
  // Bodies are JSON only; anything else is refused as an unsupported content type.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler((err, _req, reply) => sendError(err, reply));

  // Identity (accounts, sessions, API tokens, sign-in) lives in the gateway's own schema; its sign-in
  // protection counts on the Redis of the general limits (when set), so replicas share both.
  const redis = await rateLimitRedis(config);
  const store = redis ? createRedisStore(redis, clock) : createMemoryStore(() => clock.now().getTime());
  const identity = createIdentity({ database, bus, config, log, store, clock });
  app.addHook('onReady', identity.start);
  app.addHook('onClose', identity.stop);
  app.addHook('onClose', async () => {
    await store.close();
    await redis?.quit().catch(() => redis.disconnect());
  });

  // Order matters: request ids and metrics see every request; rate limiting is registered before any
  // route and before authentication (floods are cut first).
  await app.register(requestIdPlugin);
  await app.register(publicUrlPlugin, { publicUrl: config.PUBLIC_URL });
  if (!config.PUBLIC_URL) {
    log.warn(
      'PUBLIC_URL is not set: links (QR codes, certificates, emails, signed URLs) use the origin of each request, ' +
        'which its Host header names; set PUBLIC_URL in production',
    );
  }
  await app.register(httpMetricsPlugin, { metrics });
  await app.register(tracingPlugin);
  await app.register(rateLimitPlugin, {
    redis,
    clock,
    perMinute: config.RATE_LIMIT_PER_MINUTE,
    perHourPerUser: config.RATE_LIMIT_PER_HOUR_PER_USER,
    anonymousPerMinute: config.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
    perMinutePerSession: config.RATE_LIMIT_SESSION_PER_MINUTE,
    sessionOf: browserSessionOf(config.JWT_SECRET, () => clock.now().getTime()),
  });
  await app.register(authPlugin, {
    jwtSecret: config.JWT_SECRET,
    publicPrefixes: [DOCS_PREFIX],
    sessions: identity.sessions,
    apiTokens: identity.apiTokens,
    csrfKey: identity.csrfKey,
    membership: identity.organizations.membership,
  });
  await app.register(readYourWritesPlugin, { bus, clock, windowMs: config.READ_YOUR_WRITES_MS });
  // Before the routes: it hooks the routes whose config says `idempotent: true`.
  await app.register(idempotencyPlugin, {
    database,
    log,
    ttlMs: config.IDEMPOTENCY_KEY_TTL_SECONDS * 1000,
    lockMs: config.IDEMPOTENCY_LOCK_SECONDS * 1000,
  });
  await app.register(openApiPlugin, {
    perMinute: config.RATE_LIMIT_PER_MINUTE,
    perHourPerUser: config.RATE_LIMIT_PER_HOUR_PER_USER,
    anonymousPerMinute: config.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
    perMinutePerSession: config.RATE_LIMIT_SESSION_PER_MINUTE,
    publicUrl: config.PUBLIC_URL,
  });

  // The web app at `/` (when built): unknown paths outside /api are its pages, answered with index.html.
  const appPage = serveWebApp(app, {
    dir: config.WEB_APP_DIR ?? DEFAULT_WEB_APP_DIR,
    map: { tileUrl: config.MAP_TILE_URL, tileAttribution: config.MAP_TILE_ATTRIBUTION },
  });
  if (!appPage) log.info('No web app build found: / is not served (run pnpm build)');

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if (appPage && isAppPath(req.method, path)) return appPage(req, reply);
    const allow = allowedMethods(path);
    if (allow.length > 0) {
      const message = `${req.method} is not supported on ${path}; it supports ${allow.join(', ')}`;
      return reply
        .code(405)
        .header('allow', allow.join(', '))
        .send(failure({ code: 'METHOD_NOT_ALLOWED', message }));
    }
    return reply.code(404).send(failure({ code: 'NOT_FOUND', message: `No route ${req.method} ${path}` }));
  });

  const routeDeps = { bus, timeoutMs: config.REQUEST_TIMEOUT_MS };
  await app.register(healthRoutes, { prefix: '/api/health', bus });
  await app.register(metricsRoutes, { prefix: '/api', registry: metrics.registry });
  await app.register(docsRoutes, { prefix: '/api' });
  await app.register(authRoutes, {
    prefix: '/api/auth',
    ...identity,
    authPerMinute: config.AUTH_RATE_LIMIT_PER_MINUTE,
  });
  await app.register(adminRoutes, { prefix: '/api/admin', accounts: identity.accounts });
  await app.register(organizationRoutes, { prefix: '/api/organizations', organizations: identity.organizations });
  // Writes that name people bind an account's name to its id (ADR 176): the accounts are the gateway's.
  // An organization's id names the organization (records it owns, ADR 237), by its name.
  const accountName = async (id: string) =>
    id.startsWith('org_')
      ? ((await identity.organizations.names([id])).get(id) ?? null)
      : ((await identity.accounts.findUser(id))?.name ?? null);
  // Reads that name people show the accounts' current names beside the recorded ones (ADR 194).
  const accountNames = cachedAccountNames(
    async (ids) => {
      const [people, orgs] = await Promise.all([identity.accounts.names(ids), identity.organizations.names(ids)]);
      return orgs.size === 0 ? people : new Map([...people, ...orgs]);
    },
    {
      ttlMs: config.ACCOUNT_NAMES_CACHE_MS,
      max: 100_000,
      now: () => clock.now().getTime(),
    },
  );
  await app.register(peopleRoutes, { prefix: '/api/people', accountNames });
  await app.register(plantRoutes, { prefix: '/api/plants', ...routeDeps, accountName, accountNames });
  await app.register(seedLotRoutes, { prefix: '/api/seed-lots', ...routeDeps, accountName, accountNames });
  await app.register(seedLotLendRoute, { prefix: '/api/seed-lots', ...routeDeps, accountName, accountNames });
  await app.register(seedHandoffRoutes, { prefix: '/api/seed-lots', ...routeDeps, accountName, accountNames });
  await app.register(seedLoanRoutes, { prefix: '/api/loans', ...routeDeps, accountName, accountNames });
  await app.register(ownershipHistoryRoute, { prefix: '/api/plants', ...routeDeps, accountName, accountNames });
  await app.register(transferRoutes, { prefix: '/api/transfers', ...routeDeps, accountName, accountNames });
  await app.register(geocodeRoutes, { prefix: '/api/geocode', ...routeDeps });
  await app.register(chainRoutes, { prefix: '/api/chain', ...routeDeps });
  await app.register(agentRoutes, { prefix: '/api/agents', ...routeDeps });
  await app.register(demandRoutes, { prefix: '/api/demand', ...routeDeps });
  await app.register(marketplaceRoutes, { prefix: '/api/marketplace', ...routeDeps });
  // Uploads stream into the storage media reads from (the same settings in both); the bus carries references.
  const storage = storageFromConfig(config, () => clock.now().getTime());
  app.addHook('onClose', () => storage.close());
  await app.register(uploadRoutes, { prefix: '/api/upload', ...routeDeps, storage, clock });
  await app.register(identifyRoutes, { prefix: '/api/plants', ...routeDeps, storage });
  await app.register(importRoutes, { prefix: '/api', ...routeDeps, storage, accountName });
  await app.register(environmentRoutes, { prefix: '/api/environment', ...routeDeps });
  await app.register(farmRoutes, { prefix: '/api/vertical-farm', ...routeDeps });
  await app.register(transportRoutes, { prefix: '/api/transport', ...routeDeps, accountName, accountNames });
  await app.register(transportPublicRoutes, { prefix: '/api/transport', ...routeDeps });
  await app.register(epcisRoutes, { prefix: '/api/epcis', ...routeDeps, accountName });
  await app.register(identifierRoutes, { companyPrefix: config.GS1_COMPANY_PREFIX });
  await app.register(transportTrackerRoutes, { prefix: '/api/agents', ...routeDeps });
  await app.register(notificationRoutes, { prefix: '/api/notifications', ...routeDeps });
  await app.register(webhookRoutes, { prefix: '/api/webhooks', ...routeDeps });
  await app.register(transparencyRoutes, {
    prefix: '/api/transparency',
    ...routeDeps,
    log,
    sse: {
      heartbeatMs: config.SSE_HEARTBEAT_SECONDS * 1000,
      pollMs: config.SSE_POLL_MS,
      maxQueued: config.SSE_CLIENT_QUEUE,
    },
    metrics: metrics.registry,
  });
  await app.register(realtimeRoutes, {
    prefix: '/api/realtime',
    ...routeDeps,
    log,
    database,
    clock,
    replicaId: newId('gw', clock.now().getTime()),
    publicUrl: config.PUBLIC_URL,
    heartbeatSeconds: config.WS_HEARTBEAT_SECONDS,
    maxBufferedBytes: config.WS_MAX_BUFFERED_BYTES,
    maxRooms: config.WS_MAX_ROOMS,
    ticketSeconds: config.WS_TICKET_SECONDS,
    store,
    events: { pollMs: config.SSE_POLL_MS, heartbeatMs: config.SSE_HEARTBEAT_SECONDS * 1000, maxQueued: 1 },
    metrics: metrics.registry,
  });
  await app.register(privacyRoutes, {
    prefix: '/api/privacy',
    clock,
    socksProxyUrl: config.SOCKS_PROXY_URL,
    checkTarget: config.SOCKS_CHECK_TARGET,
    timeoutMs: config.PRIVACY_CHECK_TIMEOUT_MS,
    hiddenServiceHostname: config.HIDDEN_SERVICE_HOSTNAME,
  });
  await app.register(transparencyLogRoutes, { prefix: '/api/transparency', ...routeDeps });
  await app.register(transparencyWebhookRoutes, { prefix: '/api/transparency', ...routeDeps });
  await app.register(transparencySignatureRoutes, { prefix: '/api/transparency', ...routeDeps });
  await app.register(transparencyRecordRoutes, { prefix: '/api/transparency', ...routeDeps });
  await app.register(transparencyWitnessRoutes, { prefix: '/api/transparency', ...routeDeps });
  await app.register(federationRoutes, { prefix: '/api/federation', ...routeDeps });
  await app.register(analyticsRoutes, { prefix: '/api/analytics', ...routeDeps });

  return app;
}
