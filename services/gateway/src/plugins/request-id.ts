import { HEADER } from '@rootline/contracts';
import fp from 'fastify-plugin';

/**
 * Echoes the request id (the caller's `x-request-id` or a new one, see `requestIdOf`) on every response,
 * errors and 404s included, so a caller can quote it when reporting a problem.
 */
export const requestIdPlugin = fp(
  async (app) => {
    // Callback-style hooks: no promise per request for work that never waits.
    app.addHook('onRequest', (req, reply, done) => {
      reply.header(HEADER.requestId, req.id);
      done();
    });
  },
  { name: 'rootline-request-id' },
);
