import fastifyCookie from '@fastify/cookie';
import fastifyJwt from '@fastify/jwt';
import {
  type Actor,
  AppError,
  ORG_ROLE_PERMISSIONS,
  type OrgRole,
  orgRoleAtLeast,
  PERMISSIONS,
  type Permission,
  RoleSchema,
  roleHas,
} from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  onSendHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { assertSelfRules, type ObjectRules, objectRuleList, objectRulesProblem } from '../http/object-rules.js';
import type { ApiTokens } from '../identity/api-tokens.js';
import type { SessionRow } from '../identity/db/sessions.repo.js';
import type { UserRow } from '../identity/db/users.repo.js';
import { CSRF_HEADER, csrfTokenMatches, isStateChanging } from '../identity/domain/csrf.js';
import { effectivePermissions } from '../identity/domain/scopes.js';
import { looksLikeApiToken } from '../identity/domain/secrets.js';
import type { Principal } from '../identity/principal.js';
import type { Sessions } from '../identity/sessions.js';
import { VerifiedTokens } from './verified-tokens.js';

/** A multipart form as the document shows it: its fields and how each part is encoded. */
export interface DocumentedForm {
  schema: Record<string, unknown>;
  encoding?: Record<string, { contentType: string }>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Anyone may call the route, with or without credentials. */
    public?: boolean;
    /**
     * On a public route: a credential the request carries is verified and names the caller (`req.actor`), so the
     * answer may add what that caller may see (a seller's own draft, the notes of a journey's parties); a missing,
     * invalid or ended credential leaves the caller anonymous rather than refusing the request.
     */
    identifiesCaller?: boolean;
    /** The permission the caller must hold. */
    permission?: Permission;
    /** A former path of an operation, kept working: the operation's path, relative to the plugin's prefix. */
    aliasOf?: string;
    /**
     * The weakest role in the owning organization that may call the route while acting for it (`Rootline-Act-As`),
     * when the service asks more than the method's default (viewer to read, member to change): docs/permissions.md.
     */
    orgRole?: OrgRole;
    /** The route creates something and takes an `Idempotency-Key` (see the idempotency plugin). */
    idempotent?: boolean;
    /** Which records of its kind the route may touch (object-rules.ts); required on every /api route. */
    object?: ObjectRules;
    /**
     * Fields of the answer's `data` shown once: they are null in the stored answer, so a replay answers without
     * them (a secret such as an anonymous registration's private key).
     */
    replayWithout?: readonly string[];
    /**
     * A `multipart/form-data` body the route reads itself (streamed, never validated by Fastify): shown as the
     * operation's request body in the document only.
     */
    documentedForm?: DocumentedForm;
  }
  interface FastifyRequest {
    /** The verified caller; null on public routes. */
    actor: Actor | null;
    /** The verified caller with its credential; null on public routes. */
    principal: Principal | null;
  }
  interface FastifyInstance {
    /** The access policy of every /api route, in registration order (for docs/permissions.md). */
    routePolicies: RoutePolicyEntry[];
    /** Authenticates a request if it carries credentials; null when it carries none or bad ones. */
    identify(req: FastifyRequest): Promise<Principal | null>;
    /**
     * Adds a credential tried after the bearer token and the cookie (the WebSocket ticket). It must answer null
     * for requests that are not its own.
     */
    addAuthenticator(authenticator: Authenticator): void;
  }
}

/**
 * The access policy every /api route declares in its route config; `idempotent` opts a route that creates
 * something into the Idempotency-Key handling (plugins/idempotency.ts).
 */
/** Who may call a route at all: anyone, or holders of one permission. */
export type AccessPolicy = { public: true; identifiesCaller?: boolean } | { permission: Permission };

export type RoutePolicy = AccessPolicy & {
  idempotent?: boolean;
  orgRole?: OrgRole;
  replayWithout?: readonly string[];
  object: ObjectRules;
};

/** One route and what it requires: `public` or a permission, and its object rules. */
export interface RoutePolicyEntry {
  method: string;
  url: string;
  access: 'public' | Permission;
  object: ObjectRules;
  /**
   * The weakest organization role acting for the owning organization needs (ADR 237); null where the header is not
   * read (a public route that does not identify its caller).
   */
  orgRole: OrgRole | null;
  /** For a former path kept working (left out of the OpenAPI document): the path of the operation it answers as. */
  aliasOf?: string;
}

/** Name of the session cookie: the session's JWT, HttpOnly, SameSite=Lax, Secure over TLS. */
export const SESSION_COOKIE = 'rootline_session';

/**
 * Finds and verifies one kind of credential. Resolves null when the request carries none of its kind,
 * throws UNAUTHORIZED when it carries a bad one.
 */
export type Authenticator = (req: FastifyRequest) => Promise<Principal | null>;

export interface AuthOptions {
  /** HS256 key of session tokens. */
  jwtSecret: string;
  /** URL prefixes of routes added by third-party plugins that cannot declare a policy; they are public. */
  publicPrefixes?: string[];
  sessions: Sessions;
  apiTokens: ApiTokens;
  /** Key of the session-bound CSRF tokens. */
  csrfKey: Buffer;
  /**
   * The account's role in a live organization and the organization's name, read afresh on every call (ADR 235);
   * null when it is no member or no such live organization exists.
   */
  membership: (organizationId: string, userId: string) => Promise<{ role: OrgRole; name: string } | null>;
}

/** The request header that makes a request act for an organization (ADR 237). */
export const ACT_AS_HEADER = 'rootline-act-as';
/** An organization id as the header must carry it. */
const ORGANIZATION_ID = /^org_[A-Za-z0-9]{10,40}$/;

/**
 * The principal acting for the organization the request's `Rootline-Act-As` header names, if it names one: the
 * caller must be a member with the role the method needs (viewer to read, member to change anything), read on this
 * request. An unknown or dissolved organization and one the caller is no member of get the same 403
 * (`not-a-member`), so the answer tells nothing the public profile does not. Acting adds what the organization role
 * grants (`ORG_ROLE_PERMISSIONS`), narrowed to an API token's scopes.
 */
export async function actingPrincipal(
  req: FastifyRequest,
  principal: Principal,
  membership: AuthOptions['membership'],
  routeRole?: OrgRole,
): Promise<Principal> {
  const header = req.headers[ACT_AS_HEADER];
  const bound = principal.boundOrganizationId;
  if (header === undefined && bound === null) return principal;
  const organizationId = header === undefined ? bound : Array.isArray(header) ? header[0] : header;
  // A token issued for an organization acts for it alone.
  if (bound !== null && organizationId !== bound) {
    throw new AppError('FORBIDDEN', `This API token acts for organization ${bound} only`, {
      reason: 'token-organization',
      organizationId: bound,
    });
  }
  if (!organizationId || !ORGANIZATION_ID.test(organizationId)) {
    throw new AppError('VALIDATION_ERROR', 'The Rootline-Act-As header must be an organization id (org_…)', {
      field: 'header/rootline-act-as',
      reason: 'not-an-organization-id',
    });
  }
  const found = await membership(organizationId, principal.user.id);
  if (!found) {
    throw new AppError('FORBIDDEN', `You cannot act for organization ${organizationId}: you are not a member`, {
      reason: 'not-a-member',
      organizationId,
    });
  }
  const required: OrgRole = routeRole ?? (isStateChanging(req.method) ? 'member' : 'viewer');
  if (!orgRoleAtLeast(found.role, required)) {
    throw new AppError(
      'FORBIDDEN',
      `Acting for organization ${organizationId} here needs the role ${required} or above; you are ${found.role}`,
      { reason: 'org-role', organizationId, required, role: found.role },
    );
  }
  const granted = ORG_ROLE_PERMISSIONS[found.role].filter(
    (p) => principal.scopes === null || principal.scopes.includes(p),
  );
  return {
    ...principal,
    actor: { ...principal.actor, org: { id: organizationId, role: found.role, name: found.name } },
    permissions: granted.length === 0 ? principal.permissions : new Set([...principal.permissions, ...granted]),
  };
}

/** Claims a session token must carry; `sid` names the session, which must still be live. */
const TokenClaims = Type.Object({
  sub: Type.String({ minLength: 1 }),
  sid: Type.String({ minLength: 1 }),
  role: RoleSchema,
  exp: Type.Integer(),
});
const tokenClaims = TypeCompiler.Compile(TokenClaims);

/** A principal for a credential verified elsewhere (a WebSocket ticket): the account's role, narrowed by scopes. */
export function principalOfUser(
  user: UserRow,
  via: Principal['via'],
  extra: { sessionId?: string; scopes?: Permission[]; expiresAt: Date | null },
): Principal {
  return principalOf(user, 'session', via, extra);
}

/** Signs the JWT of a session: subject, session id, role at sign-in, and the session's own expiry. */
export function signSessionToken(app: FastifyInstance, session: SessionRow, user: UserRow): string {
  return app.jwt.sign({
    sub: user.id,
    sid: session.id,
    role: user.role,
    exp: Math.floor(session.expiresAt.getTime() / 1000),
  });
}

/** Sets the session cookie: HttpOnly, SameSite=Lax, Secure when the request came over TLS. */
export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    path: '/api',
    expires: expiresAt,
  });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    path: '/api',
  });
}

function isApiRoute(url: string): boolean {
  return url === '/api' || url.startsWith('/api/');
}

function principalOf(
  user: UserRow,
  credential: Principal['credential'],
  via: Principal['via'],
  extra: {
    sessionId?: string;
    apiTokenId?: string;
    scopes?: Permission[];
    boundOrganizationId?: string | null;
    expiresAt: Date | null;
  },
): Principal {
  return {
    user,
    actor: { id: user.id, role: user.role },
    credential,
    via,
    sessionId: extra.sessionId ?? null,
    apiTokenId: extra.apiTokenId ?? null,
    boundOrganizationId: extra.boundOrganizationId ?? null,
    scopes: extra.scopes ?? null,
    // The role is read from the account on every request, so a role change applies at once.
    permissions: effectivePermissions(user.role, extra.scopes ?? null),
    expiresAt: extra.expiresAt,
  };
}

type SessionTokens = VerifiedTokens<{ exp: number }>;

/** Verifies a session JWT and that its session is still live. */
async function sessionFromJwt(
  tokens: SessionTokens,
  sessions: Sessions,
  token: string,
  via: Principal['via'],
): Promise<Principal> {
  let claims: unknown;
  try {
    claims = tokens.claims(token);
  } catch (err) {
    const expired = (err as { code?: unknown }).code === 'FAST_JWT_EXPIRED';
    throw new AppError('UNAUTHORIZED', expired ? 'The token has expired' : 'The token is invalid', {
      reason: expired ? 'token-expired' : 'token-invalid',
    });
  }
  if (!tokenClaims.Check(claims)) {
    throw new AppError('UNAUTHORIZED', 'The token must carry the claims sub, sid, role and exp');
  }
  const live = await sessions.resolve(claims.sid, claims.sub);
  if (!live) throw new AppError('UNAUTHORIZED', 'The session has ended: sign in again', { reason: 'session-ended' });
  return principalOf(live.user, 'session', via, { sessionId: live.session.id, expiresAt: live.session.expiresAt });
}

/** `Authorization: Bearer <token>`: a session JWT (HS256) or an API token (`rlpat_…`). */
function bearer(opts: AuthOptions, tokens: SessionTokens): Authenticator {
  return async (req) => {
    const header = req.headers.authorization;
    if (!header) return null;
    const [scheme, token, ...rest] = header.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token || rest.length > 0) {
      throw new AppError('UNAUTHORIZED', 'The Authorization header must be "Bearer <token>"');
    }
    if (looksLikeApiToken(token)) {
      const found = await opts.apiTokens.authenticate(token);
      if (!found) throw new AppError('UNAUTHORIZED', 'The API token is invalid, revoked or expired');
      return principalOf(found.user, 'api-token', 'bearer', {
        apiTokenId: found.token.id,
        scopes: found.token.scopes,
        boundOrganizationId: found.token.organizationId,
        expiresAt: found.token.expiresAt,
      });
    }
    return sessionFromJwt(tokens, opts.sessions, token, 'bearer');
  };
}

/** The session cookie, for browsers. */
function cookie(opts: AuthOptions, tokens: SessionTokens): Authenticator {
  return async (req) => {
    const token = req.cookies[SESSION_COOKIE];
    if (!token) return null;
    return sessionFromJwt(tokens, opts.sessions, token, 'cookie');
  };
}

/**
 * Authentication and authorisation. Every /api route must declare `config.public` or `config.permission`:
 * a route that declares neither stops start-up, so nothing ships unprotected by accident. Protected routes
 * get a guard that verifies the caller (401), requires the CSRF token on state-changing requests that a
 * session cookie authenticates (403), checks the permission against the caller's role and, for an API token,
 * its scopes (403), and sets `req.actor` and `req.principal`.
 */
export const authPlugin = fp<AuthOptions>(
  async (app, opts) => {
    await app.register(fastifyJwt, {
      secret: opts.jwtSecret,
      sign: { algorithm: 'HS256' },
      // Pinning the algorithm rejects `alg: none` and tokens signed with any other algorithm. Verified tokens are
      // remembered by VerifiedTokens below, not by fast-jwt's cache (which hashes the token on every lookup).
      verify: { algorithms: ['HS256'] },
    });
    const tokens: SessionTokens = new VerifiedTokens((token) => app.jwt.verify<{ exp: number }>(token));
    await app.register(fastifyCookie);
    app.decorateRequest('actor', null);
    app.decorateRequest('principal', null);

    // Bearer first: a request that sends a bearer token is judged by it, whatever cookie it also carries.
    const authenticators: Authenticator[] = [bearer(opts, tokens), cookie(opts, tokens)];
    const authenticate = async (req: FastifyRequest): Promise<Principal> => {
      for (const authenticator of authenticators) {
        const principal = await authenticator(req);
        if (principal) return principal;
      }
      throw new AppError(
        'UNAUTHORIZED',
        'Authentication required: send "Authorization: Bearer <token>" or the session cookie',
      );
    };
    app.decorate('addAuthenticator', (a: Authenticator) => {
      authenticators.push(a);
    });
    app.decorate('identify', async (req: FastifyRequest) => {
      try {
        return await authenticate(req);
      } catch (err) {
        if (err instanceof AppError && err.code === 'UNAUTHORIZED') return null;
        throw err;
      }
    });

    const policies: RoutePolicyEntry[] = [];
    app.decorate('routePolicies', policies);
    const publicPrefixes = opts.publicPrefixes ?? [];

    /**
     * A public read's answer says whom it is for (ADR 226): answered to no one in particular it is `public` (any
     * cache, the app's service worker included, may keep it and must ask again before reusing it); answered to an
     * identified caller it may hold what only they see (drafts, journey notes), so it is `private`.
     */
    const markWhoItIsFor: onSendHookHandler = async (req, reply, payload) => {
      if (req.method !== 'GET' || reply.statusCode !== 200 || reply.hasHeader('cache-control')) return payload;
      reply.header('cache-control', req.principal ? 'private, no-cache' : 'public, no-cache');
      const vary = reply.getHeader('vary');
      reply.header('vary', vary ? `${String(vary)}, authorization, cookie` : 'authorization, cookie');
      return payload;
    };

    app.addHook('onRoute', (route) => {
      if (!isApiRoute(route.url)) return;
      const where = `${String(route.method)} ${route.url}`;
      const { public: isPublic, permission } = route.config ?? {};
      if (isPublic && permission) throw new Error(`${where} declares both public and a permission`);
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
      // Routes of third-party plugins (the documentation UI) name no record.
      const thirdParty = publicPrefixes.some((p) => route.url.startsWith(p));
      const object: ObjectRules = thirdParty ? { rule: 'none' } : (route.config?.object as ObjectRules);
      const record = (access: RoutePolicyEntry['access']) => {
        const problem = objectRulesProblem(object);
        if (problem) throw new Error(`${where} ${problem}`);
        const aliasOf = route.config?.aliasOf === undefined ? {} : { aliasOf: route.prefix + route.config.aliasOf };
        const readsHeader = access !== 'public' || route.config?.identifiesCaller === true;
        for (const method of methods) {
          const orgRole = readsHeader
            ? (route.config?.orgRole ?? (isStateChanging(method) ? 'member' : 'viewer'))
            : null;
          policies.push({ method, url: route.url, access, object, orgRole, ...aliasOf });
        }
      };
      if (isPublic || thirdParty) {
        record('public');
        if (route.config?.identifiesCaller) {
          const identifyCaller: onRequestHookHandler = async (req) => {
            const identified = await app.identify(req);
            if (!identified) return;
            const principal = await actingPrincipal(req, identified, opts.membership, route.config?.orgRole);
            req.principal = principal;
            req.actor = principal.actor;
          };
          const existing = route.onRequest ?? [];
          route.onRequest = [...(Array.isArray(existing) ? existing : [existing]), identifyCaller];
          const send = route.onSend ?? [];
          route.onSend = [...(Array.isArray(send) ? send : [send]), markWhoItIsFor];
        }
        return;
      }
      if (!permission) {
        throw new Error(`${where} declares no access policy: set config.public or config.permission`);
      }
      if (!PERMISSIONS.includes(permission)) throw new Error(`${where} requires unknown permission ${permission}`);
      record(permission);

      const guard: onRequestHookHandler = async (req) => {
        const verified = await authenticate(req);
        if (verified.via === 'cookie' && isStateChanging(req.method)) {
          const presented = req.headers[CSRF_HEADER];
          if (
            !csrfTokenMatches(opts.csrfKey, verified.sessionId!, Array.isArray(presented) ? presented[0] : presented)
          ) {
            throw new AppError(
              'FORBIDDEN',
              `A request authenticated by the session cookie must send the ${CSRF_HEADER} header (GET /api/auth/csrf)`,
              { reason: 'CSRF' },
            );
          }
        }
        const principal = await actingPrincipal(req, verified, opts.membership, route.config?.orgRole);
        if (!principal.permissions.has(permission)) {
          const message =
            principal.credential === 'api-token' && roleHas(principal.actor.role, permission)
              ? `The API token's scopes do not include ${permission}`
              : `Role ${principal.actor.role} lacks the permission ${permission}`;
          throw new AppError('FORBIDDEN', message, { permission });
        }
        req.principal = principal;
        req.actor = principal.actor;
      };
      // Appended after hooks added earlier (rate limiting), so floods are limited before tokens are checked.
      const existing = route.onRequest ?? [];
      route.onRequest = [...(Array.isArray(existing) ? existing : [existing]), guard];
      if (objectRuleList(object).some((r) => r.rule === 'self')) {
        // After validation (the body is parsed), before any other handler work such as an idempotent replay.
        const self: preHandlerHookHandler = async (req) => {
          if (req.actor) assertSelfRules(object, req.actor, req);
        };
        const pre = route.preHandler ?? [];
        route.preHandler = [self, ...(Array.isArray(pre) ? pre : [pre])];
      }
    });
  },
  { name: 'rootline-auth' },
);
