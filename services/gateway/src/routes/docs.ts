import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';

/** Where the routes of this plugin are mounted (the prefix it is registered under). */
const MOUNT = '/api';
/** Where the documentation UI is served; its routes come from a plugin and are public by prefix. */
export const DOCS_PREFIX = `${MOUNT}/docs`;

/** The title of the documentation page (browser tab) and the name its header shows. */
export const DOCS_TITLE = 'Rootline API';

/** The header's logo: Rootline's name, in place of the Swagger logo (embedded, so no further asset). */
export const DOCS_LOGO_SVG = [
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40" viewBox="0 0 200 40" role="img" aria-label="Rootline API">',
  '<title>Rootline API</title>',
  '<text x="0" y="28" font-family="sans-serif" font-size="26" font-weight="700" fill="#ffffff">Rootline API</text>',
  '</svg>',
].join('');

/** The OpenAPI document at /api/openapi.json and the Swagger UI at /api/docs. Register under /api. */
export const docsRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { config: { public: true, object: { rule: 'none' } }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
  // The UI page links its assets by absolute path when asked without a trailing slash. The plugin only knows
  // its own route prefix, not the one it is registered under, so `indexPrefix` adds the mount point.
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX.slice(MOUNT.length),
    indexPrefix: MOUNT,
    theme: { title: DOCS_TITLE },
    logo: { type: 'image/svg+xml', content: DOCS_LOGO_SVG, href: DOCS_PREFIX, target: '_self' },
  });
};
