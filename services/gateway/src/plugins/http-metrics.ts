import fp from 'fastify-plugin';
import { type GatewayMetrics, UNMATCHED_ROUTE } from '../http/metrics.js';

/** Observes every response in the HTTP latency histogram, labelled with the route pattern, not the raw URL. */
export const httpMetricsPlugin = fp<{ metrics: GatewayMetrics }>(
  async (app, { metrics }) => {
    // A callback-style hook: no promise per request for work that never waits.
    app.addHook('onResponse', (req, reply, done) => {
      const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
      metrics.httpDuration.observe(
        { method: req.method, route, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
      done();
    });
  },
  { name: 'rootline-http-metrics' },
);
