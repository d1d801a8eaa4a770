import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';

/** Where the documentation UI is served; its routes come from a plugin and are public by prefix. */
export const DOCS_PREFIX = '/api/docs';

/** The OpenAPI document at /api/openapi.json and the Swagger UI at /api/docs. Register under /api. */
export const docsRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
};
