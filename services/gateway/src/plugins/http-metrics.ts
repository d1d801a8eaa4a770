import fp from 'fastify-plugin';
import { type GatewayMetrics, UNMATCHED_ROUTE } from '../metrics.js';

/** Observes every response in the HTTP latency histogram, labelled with the route pattern, not the raw URL. */
export const httpMetricsPlugin = fp<{ metrics: GatewayMetrics }>(
  async (app, { metrics }) => {
    app.addHook('onResponse', async (req, reply) => {
      const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
      metrics.httpDuration.observe(
        { method: req.method, route, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });
  },
  { name: 'rootline-http-metrics' },
);
