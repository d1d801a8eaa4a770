import { endSpan, type Span, SpanKind, startSpan, tracingEnabled } from '@rootline/host';
import fp from 'fastify-plugin';
import { UNMATCHED_ROUTE } from '../http/metrics.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span while tracing is on; its context is what bus calls carry on. */
    traceSpan: Span | null;
  }
}

/**
 * With tracing on, makes every request a server span, child of the caller's W3C `traceparent` when it sends one,
 * and ends it with the response status. Registers nothing when tracing is off, so requests pay nothing for it.
 */
export const tracingPlugin = fp(
  async (app) => {
    if (!tracingEnabled()) return;
    app.decorateRequest('traceSpan', null);
    app.addHook('onRequest', async (req) => {
      const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
      const traceparent = req.headers.traceparent;
      req.traceSpan =
        startSpan(
          `${req.method} ${route}`,
          SpanKind.SERVER,
          typeof traceparent === 'string' ? traceparent : undefined,
          {
            'http.request.method': req.method,
            'http.route': route,
          },
        ) ?? null;
    });
    app.addHook('onResponse', async (req, reply) => {
      const span = req.traceSpan;
      if (!span) return;
      span.setAttribute('http.response.status_code', reply.statusCode);
      endSpan(span, reply.statusCode >= 500 ? `HTTP ${reply.statusCode}` : undefined);
    });
  },
  { name: 'rootline-tracing' },
);
