import type { Bus } from '@rootline/bus';
import type { Logger } from '@rootline/host';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import type { GatewayConfig } from './config.js';
import { failure } from './envelope.js';
import { formatValidationError, toHttpError } from './errors.js';
import { addOutboxBacklogGauge, createMetrics, instrumentBus } from './metrics.js';
import { authPlugin } from './plugins/auth.js';
import { httpMetricsPlugin } from './plugins/http-metrics.js';
import { openApiPlugin } from './plugins/openapi.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { requestIdPlugin } from './plugins/request-id.js';
import { requestIdOf } from './request-context.js';
import { DOCS_PREFIX, docsRoutes } from './routes/docs.js';
import { healthRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';
import { plantRoutes } from './routes/plants.js';

/** What the gateway is built from: one typed object, the same in tests and in production. */
export interface GatewayContext {
  bus: Bus;
  log: Logger;
  config: GatewayConfig;
}

/** Sends the failure envelope for anything thrown while serving; unexpected faults are logged in full. */
function sendError(err: unknown, reply: FastifyReply): FastifyReply {
  const { status, body, unexpected } = toHttpError(err);
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
  const { config } = ctx;
  const metrics = createMetrics();
  const bus = instrumentBus(ctx.bus, metrics.busDuration);
  addOutboxBacklogGauge(metrics.registry, bus);

  // Typed as Fastify's logger so the instance is the plain FastifyInstance callers expect.
  const logger: FastifyBaseLogger = ctx.log;
  const app = Fastify({
    loggerInstance: logger,
    genReqId: requestIdOf,
    // Log lines carry `requestId`, the same key the services use.
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: config.BODY_LIMIT_BYTES,
    schemaErrorFormatter: formatValidationError,
    // Unknown body fields are refused, not silently dropped: a misspelt optional field is a caller's bug.
    ajv: { customOptions: { removeAdditional: false } },
    // Errors Fastify raises before routing (a malformed URL) get the envelope too.
    frameworkErrors: (err, _req, reply) => {
      sendError(err, reply);
    },
  });

  // Bodies are JSON only; anything else is refused as an unsupported content type.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler((err, _req, reply) => sendError(err, reply));

  // Order matters: request ids and metrics see every request; rate limiting is registered before any
  // route (routes registered earlier are not limited) and before authentication (floods are cut first).
  await app.register(requestIdPlugin);
  await app.register(httpMetricsPlugin, { metrics });
  await app.register(rateLimitPlugin, { perMinute: config.RATE_LIMIT_PER_MINUTE });
  await app.register(authPlugin, { jwtSecret: config.JWT_SECRET, publicPrefixes: [DOCS_PREFIX] });
  await app.register(openApiPlugin, { perMinute: config.RATE_LIMIT_PER_MINUTE, publicUrl: config.PUBLIC_URL });

  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (req, reply) =>
    reply.code(404).send(failure({ code: 'NOT_FOUND', message: `No route ${req.method} ${req.url.split('?')[0]}` })),
  );

  const routeDeps = { bus, timeoutMs: config.REQUEST_TIMEOUT_MS };
  await app.register(healthRoutes, { prefix: '/api/health', bus });
  await app.register(metricsRoutes, { prefix: '/api', registry: metrics.registry });
  await app.register(docsRoutes, { prefix: '/api' });
  await app.register(plantRoutes, { prefix: '/api/plants', ...routeDeps });

  return app;
}
