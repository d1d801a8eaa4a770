import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Registry } from 'prom-client';
import { errorResponses } from '../plugins/openapi.js';
import { NoQuery } from './health.js';

export interface MetricsDeps {
  registry: Registry;
}

/** Prometheus scrape endpoint at /api/metrics (register under /api): public and not rate limited, like the probes. */
export const metricsRoutes: FastifyPluginAsyncTypebox<MetricsDeps> = async (app, { registry }) => {
  app.get(
    '/metrics',
    {
      config: { public: true, rateLimit: false, object: { rule: 'none', why: 'the platform’s own state' } },
      logLevel: 'warn',
      schema: {
        operationId: 'getMetrics',
        summary: 'Prometheus metrics',
        description:
          'Prometheus text format: HTTP latency by method, route and status; bus latency by subject and ' +
          "outcome; each service's outbox backlog and ledger intents (read at scrape time); WebSocket and " +
          'event-stream clients; process metrics. In embedded mode (one process) also every service’s own: ' +
          'request rate, errors and latency of its endpoints, consumer lag and delivery latency, background runs, ' +
          'and domain figures (blocks, hashes, mempool, webhook deliveries, notifications, uploads). In cluster ' +
          'mode each service process serves its own on METRICS_PORT. It takes no query parameters (an unknown one ' +
          'is 400 VALIDATION_ERROR).',
        tags: ['Operations'],
        querystring: NoQuery,
        response: {
          200: {
            description: 'Metrics in Prometheus text format',
            content: { [registry.contentType]: { schema: { type: 'string' } } },
          },
          ...errorResponses(['VALIDATION_ERROR']),
        },
      },
    },
    async (_req, reply) => {
      const text = await registry.metrics();
      return reply.type(registry.contentType).send(text);
    },
  );
};
