import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';

/** Where the routes of this plugin are mounted (the prefix it is registered under). */
const MOUNT = '/api';
/** Where the documentation UI is served; its routes come from a plugin and are public by prefix. */
export const DOCS_PREFIX = `${MOUNT}/docs`;

/** The OpenAPI document at /api/openapi.json and the Swagger UI at /api/docs. Register under /api. */
export const docsRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { config: { public: true, object: { rule: 'none' } }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
  // The UI page links its assets by absolute path when asked without a trailing slash. The plugin only knows
  // its own route prefix, not the one it is registered under, so `indexPrefix` adds the mount point.
  await app.register(fastifySwaggerUi, { routePrefix: DOCS_PREFIX.slice(MOUNT.length), indexPrefix: MOUNT });
};
