import fastifyJwt from '@fastify/jwt';
import { type Actor, AppError, PERMISSIONS, type Permission, RoleSchema, roleHas } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Anyone may call the route, with or without credentials. */
    public?: boolean;
    /** The permission the caller's role must grant. */
    permission?: Permission;
  }
  interface FastifyRequest {
    /** The verified caller; null on public routes. */
    actor: Actor | null;
  }
}

/** The access policy every /api route declares in its route config. */
export type RoutePolicy = { public: true } | { permission: Permission };

/**
 * Finds and verifies one kind of credential. Resolves null when the request carries none of its kind,
 * throws UNAUTHORIZED when it carries a bad one. API tokens and session cookies are further authenticators.
 */
export type Authenticator = (req: FastifyRequest) => Promise<Actor | null>;

export interface AuthOptions {
  /** HS256 key of bearer tokens. */
  jwtSecret: string;
  /** URL prefixes of routes added by third-party plugins that cannot declare a policy; they are public. */
  publicPrefixes?: string[];
}

/** Claims a bearer token must carry. */
const TokenClaims = Type.Object({
  sub: Type.String({ minLength: 1 }),
  role: RoleSchema,
  exp: Type.Integer(),
});
const tokenClaims = TypeCompiler.Compile(TokenClaims);

/** `Authorization: Bearer <JWT>`, HS256 only, with claims sub, role and exp. */
function bearerJwt(app: FastifyInstance): Authenticator {
  return async (req) => {
    const header = req.headers.authorization;
    if (!header) return null;
    const [scheme, token, ...rest] = header.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token || rest.length > 0) {
      throw new AppError('UNAUTHORIZED', 'The Authorization header must be "Bearer <token>"');
    }
    let claims: unknown;
    try {
      claims = app.jwt.verify(token);
    } catch (err) {
      const expired = (err as { code?: unknown }).code === 'FAST_JWT_EXPIRED';
      throw new AppError('UNAUTHORIZED', expired ? 'The token has expired' : 'The token is invalid');
    }
    if (!tokenClaims.Check(claims)) {
      throw new AppError('UNAUTHORIZED', 'The token must carry the claims sub, role and exp');
    }
    return { id: claims.sub, role: claims.role };
  };
}

function isApiRoute(url: string): boolean {
  return url === '/api' || url.startsWith('/api/');
}

/**
 * Authentication and authorisation. Every /api route must declare `config.public` or `config.permission`:
 * a route that declares neither stops start-up, so nothing ships unprotected by accident. Protected routes
 * get a guard that verifies the caller (401) and checks the role's permission (403), and sets `req.actor`.
 */
export const authPlugin = fp<AuthOptions>(
  async (app, opts) => {
    await app.register(fastifyJwt, {
      secret: opts.jwtSecret,
      sign: { algorithm: 'HS256' },
      // Pinning the algorithm rejects `alg: none` and tokens signed with any other algorithm.
      verify: { algorithms: ['HS256'] },
    });
    app.decorateRequest('actor', null);

    const authenticators: Authenticator[] = [bearerJwt(app)];
    const authenticate = async (req: FastifyRequest): Promise<Actor> => {
      for (const authenticator of authenticators) {
        const actor = await authenticator(req);
        if (actor) return actor;
      }
      throw new AppError('UNAUTHORIZED', 'Authentication required: send "Authorization: Bearer <token>"');
    };
    const publicPrefixes = opts.publicPrefixes ?? [];

    app.addHook('onRoute', (route) => {
      if (!isApiRoute(route.url)) return;
      const where = `${String(route.method)} ${route.url}`;
      const { public: isPublic, permission } = route.config ?? {};
      if (isPublic && permission) throw new Error(`${where} declares both public and a permission`);
      if (isPublic || publicPrefixes.some((p) => route.url.startsWith(p))) return;
      if (!permission) {
        throw new Error(`${where} declares no access policy: set config.public or config.permission`);
      }
      if (!PERMISSIONS.includes(permission)) throw new Error(`${where} requires unknown permission ${permission}`);

      const guard: onRequestHookHandler = async (req) => {
        const actor = await authenticate(req);
        if (!roleHas(actor.role, permission)) {
          throw new AppError('FORBIDDEN', `Role ${actor.role} lacks the permission ${permission}`, { permission });
        }
        req.actor = actor;
      };
      // Appended after hooks added earlier (rate limiting), so floods are limited before tokens are checked.
      const existing = route.onRequest ?? [];
      route.onRequest = [...(Array.isArray(existing) ? existing : [existing]), guard];
    });
  },
  { name: 'rootline-auth' },
);
