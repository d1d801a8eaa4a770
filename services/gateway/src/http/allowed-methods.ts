import type { FastifyInstance } from 'fastify';

/** A route path (`/api/plants/:plantId`, `/api/docs/static/*`) as a pattern over concrete paths. */
function pathPattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * Records every route as it is added (call before registering routes) and returns a lookup of the methods a
 * concrete path supports, for the `Allow` header of 405 METHOD_NOT_ALLOWED. Empty when no route has the path.
 */
export function allowedMethodsOf(app: FastifyInstance): (path: string) => string[] {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    routes.push({ pattern: pathPattern(route.url), methods: methods.map(String) });
  });
  return (path) => [...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods))].sort();
}
