import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Acknowledgement,
  ApiToken,
  ApiTokenCreated,
  ApiTokenId,
  ApiTokenInput,
  AppError,
  AuthProvider,
  CsrfToken,
  EmailInput,
  PASSWORD_POLICY,
  RegisterInput,
  ResetPasswordInput,
  SessionInfo,
  SignInInput,
  SignInResult,
  Text,
  User,
  VerifyEmailInput,
} from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Accounts } from '../identity/accounts.js';
import type { ApiTokens } from '../identity/api-tokens.js';
import { csrfTokenFor } from '../identity/domain/csrf.js';
import { normalizeEmail } from '../identity/domain/email.js';
import { safeReturnPath } from '../identity/domain/redirect.js';
import { OAUTH_STATE_TTL_MS, type OAuthFlow } from '../identity/oauth/flow.js';
import type { Principal } from '../identity/principal.js';
import { BAD_CREDENTIALS, type Sessions } from '../identity/sessions.js';
import type { AuthThrottle, Refusal, ThrottledAction } from '../identity/throttle.js';
import { userView } from '../identity/views.js';
import { localRoute } from '../local-route.js';
import { clearSessionCookie, setSessionCookie, signSessionToken } from '../plugins/auth.js';
import { errorResponses } from '../plugins/openapi.js';
import { rateLimited, routeLimit } from '../plugins/rate-limit.js';
import { callContext } from '../request-context.js';

const TAGS = ['Authentication'];
/** Cookie that carries a third-party sign-in's sealed state from the redirect to the callback. */
export const OAUTH_COOKIE = 'rootline_oauth';
const CALLBACK_PATH = '/api/auth/callback';

export interface AuthRouteDeps {
  accounts: Accounts;
  sessions: Sessions;
  apiTokens: ApiTokens;
  oauth: OAuthFlow;
  throttle: AuthThrottle;
  /** Attempts per minute per client IP on sign-in, registration and forgot-password. */
  authPerMinute: number;
  csrfKey: Buffer;
  /** Runs work after the answer is sent (forgot-password); awaited when the gateway closes. */
  background: (task: () => Promise<void>) => void;
}

const EXAMPLE_USER: User = {
  id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD',
  email: 'ada@example.org',
  name: 'Ada Grower',
  role: 'USER',
  emailVerified: false,
  createdAt: '2026-01-02T03:04:05.000Z',
};
const EXAMPLE_JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c3JfMDFIWlgzSzZRMlc4TjRCN1Q1UjlWMEMxTUQiLCJzaWQiOiJzZXNfMDFIWlgzSzZRMlc4TjRCN1Q1UjlWMEMxTUQiLCJyb2xlIjoiVVNFUiIsImV4cCI6MTc3MDAwMDAwMH0.signature';
const EXAMPLE_TOKEN: ApiToken = {
  id: 'tok_01HZX3K6Q2W8N4B7T5R9V0C1MD',
  name: 'greenhouse sensor uploader',
  scopes: ['plants:read', 'plants:write'],
  hint: 'rlpat_…x9Qz',
  createdAt: '2026-01-02T03:04:05.000Z',
  expiresAt: '2026-07-01T00:00:00.000Z',
  lastUsedAt: null,
};
/** Email and password, listed among the providers the way sign-in libraries expect. */
const CREDENTIALS: AuthProvider = {
  id: 'credentials',
  name: 'Email and password',
  type: 'credentials',
  signinUrl: '/api/auth/signin',
  callbackUrl: '/api/auth/signin',
};
const FORGOT_ANSWER = 'If an account uses that address, a reset link is on its way';

/** Refuses with 429 and the limit's headers when the throttle says so. */
async function throttled(reply: FastifyReply, refusal: Promise<Refusal | null>): Promise<void> {
  const r = await refusal;
  if (!r) return;
  reply.header('x-ratelimit-limit', r.limit);
  reply.header('x-ratelimit-remaining', 0);
  reply.header('x-ratelimit-reset', Math.ceil(r.resetAt / 1000));
  throw rateLimited(reply, r.retryAfterMs, r.message);
}

function attempt(deps: AuthRouteDeps, reply: FastifyReply, action: ThrottledAction, ip: string | null, key: string) {
  return throttled(reply, deps.throttle.attempt(action, ip, key));
}

/** The caller of a protected route (set by the auth guard). */
function principal(req: FastifyRequest): Principal {
  if (!req.principal) throw new AppError('UNAUTHORIZED', 'Authentication required');
  return req.principal;
}

/**
 * The identity routes under /api/auth, in the shape sign-in libraries use: registration, password sign-in,
 * session, sign-out, providers, CSRF token, third-party sign-in and callback, password reset, email
 * verification, and API tokens.
 */
export const authRoutes: FastifyPluginAsyncTypebox<AuthRouteDeps> = async (app, deps) => {
  localRoute(app, {
    method: 'POST',
    url: '/register',
    operationId: 'registerAccount',
    config: { rateLimit: routeLimit(deps.authPerMinute, 'register') },
    summary: 'Register an account',
    description:
      'Creates an account with the USER role and sends a verification link to the address (event ' +
      '`evt.gateway.email-verification.requested`). Email addresses are compared without regard to case. ' +
      `Password policy: ${PASSWORD_POLICY} Limited per client IP (AUTH_RATE_LIMIT_PER_MINUTE, default 10 a ` +
      'minute) and to 5 attempts per address per hour.',
    tags: TAGS,
    policy: { public: true, idempotent: true, object: { rule: 'none', why: 'a new account' } },
    body: RegisterInput,
    reply: User,
    status: 201,
    errors: ['DUPLICATE'],
    example: { email: 'ada@example.org', password: 'correct horse battery staple', name: 'Ada Grower' },
    replyExample: EXAMPLE_USER,
    handler: async (req, reply) => {
      await attempt(deps, reply, 'register', req.ip, normalizeEmail(req.body.email));
      return deps.accounts.register(req.body, callContext(req));
    },
  });

  localRoute(app, {
    method: 'POST',
    url: '/signin',
    operationId: 'signIn',
    config: { rateLimit: routeLimit(deps.authPerMinute, 'signin') },
    summary: 'Sign in with email and password',
    description:
      'Starts a 30-day session. Answers the session token (a JWT carrying the session id) and sets the same ' +
      'session as an HttpOnly, SameSite=Lax cookie (Secure over TLS). A wrong password and an unknown address ' +
      'get the same 401. After 5 failures for an address (20 from one IP) each further attempt must wait: 30 s, ' +
      'doubling up to 15 minutes (429 with Retry-After).',
    tags: TAGS,
    policy: { public: true, object: { rule: 'none', why: 'the account of the credentials' } },
    body: SignInInput,
    reply: SignInResult,
    errors: ['UNAUTHORIZED'],
    example: { email: 'ada@example.org', password: 'correct horse battery staple' },
    replyExample: { token: EXAMPLE_JWT, expiresAt: '2026-02-01T03:04:05.000Z', user: EXAMPLE_USER },
    handler: async (req, reply) => {
      const email = normalizeEmail(req.body.email);
      await attempt(deps, reply, 'signin', req.ip, email);
      const user = await deps.sessions.checkPassword(email, req.body.password);
      if (!user) {
        await deps.throttle.signInFailed(req.ip, email);
        throw new AppError('UNAUTHORIZED', BAD_CREDENTIALS);
      }
      await deps.throttle.signInSucceeded(email);
      const session = await deps.sessions.start(user, 'password');
      const token = signSessionToken(app, session, user);
      setSessionCookie(req, reply, token, session.expiresAt);
      return { token, expiresAt: session.expiresAt.toISOString(), user: userView(user) };
    },
  });

  localRoute(app, {
    method: 'GET',
    url: '/session',
    operationId: 'getSession',
    summary: 'The signed-in user',
    description: 'The account behind the credential (session token, session cookie or API token) and when it expires.',
    tags: TAGS,
    policy: { permission: 'account:read', object: { rule: 'own' } },
    reply: SessionInfo,
    replyExample: { user: EXAMPLE_USER, credential: 'session', expiresAt: '2026-02-01T03:04:05.000Z' },
    handler: async (req) => {
      const p = principal(req);
      return { user: userView(p.user), credential: p.credential, expiresAt: p.expiresAt?.toISOString() ?? null };
    },
  });

  localRoute(app, {
    method: 'POST',
    url: '/signout',
    operationId: 'signOut',
    summary: 'Sign out',
    description:
      'Ends the session at once: its token and cookie stop working on the next request, and the cookie is ' +
      'cleared. With the cookie, send `X-CSRF-Token`. API tokens are revoked with DELETE /api/auth/tokens/{tokenId}.',
    tags: TAGS,
    policy: { permission: 'account:write', object: { rule: 'own' } },
    reply: Acknowledgement,
    replyExample: { message: 'Signed out' },
    handler: async (req, reply) => {
      const p = principal(req);
      if (!p.sessionId) {
        throw new AppError('VALIDATION_ERROR', 'An API token has no session to end: revoke the token instead');
      }
      await deps.sessions.end(p.sessionId, p.user.id);
      clearSessionCookie(req, reply);
      return { message: 'Signed out' };
    },
  });

  localRoute(app, {
    method: 'GET',
    url: '/providers',
    operationId: 'listSignInProviders',
    summary: 'Sign-in methods',
    description:
      'Email and password, and each third-party provider the configuration enables (GitHub-style OAuth 2, ' +
      'Google-style OpenID Connect), keyed by id.',
    tags: TAGS,
    policy: { public: true, object: { rule: 'none' } },
    reply: Type.Record(Type.String(), AuthProvider),
    replyExample: {
      credentials: CREDENTIALS,
      github: {
        id: 'github',
        name: 'GitHub',
        type: 'oauth',
        signinUrl: '/api/auth/signin/github',
        callbackUrl: 'https://api.rootline.example/api/auth/callback/github',
      },
    },
    handler: async () => {
      const list: AuthProvider[] = [
        CREDENTIALS,
        ...deps.oauth.providers.map((p) => ({
          id: p.id,
          name: p.name,
          type: p.type,
          signinUrl: `/api/auth/signin/${p.id}`,
          callbackUrl: deps.oauth.callbackUrl(p.id),
        })),
      ];
      return Object.fromEntries(list.map((p) => [p.id, p]));
    },
  });

  localRoute(app, {
    method: 'GET',
    url: '/csrf',
    operationId: 'getCsrfToken',
    summary: 'CSRF token of the session',
    description:
      'The token to send as `X-CSRF-Token` on POST, PUT, PATCH and DELETE requests that the session cookie ' +
      'authenticates (an HMAC of the session id: it changes at each sign-in and is useless with another ' +
      'session). Null without a session. Bearer requests need no CSRF token.',
    tags: TAGS,
    policy: { public: true, object: { rule: 'own' } },
    reply: CsrfToken,
    replyExample: { csrfToken: 'hT0b6n2JxA3l0G0bq6m0A5o3K7w0tY2C1v9S8dE4rQk' },
    handler: async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const p = await app.identify(req);
      return { csrfToken: p?.sessionId ? csrfTokenFor(deps.csrfKey, p.sessionId) : null };
    },
  });

  app.route({
    method: 'GET',
    url: '/signin/:provider',
    config: { public: true, object: { rule: 'none' } },
    schema: {
      operationId: 'signInWithProvider',
      summary: 'Sign in with a provider',
      description:
        'Redirects (302) to the provider with a fresh `state`, a PKCE S256 challenge and (OpenID Connect) a ' +
        `nonce, and keeps them in a sealed, HttpOnly cookie for ${OAUTH_STATE_TTL_MS / 60_000} minutes. ` +
        '`callbackUrl` is the path on this site to return to afterwards (default `/`); other origins are refused.',
      tags: TAGS,
      params: Type.Object({ provider: Type.String({ pattern: '^[a-z]{1,32}$', examples: ['google'] }) }),
      querystring: Type.Object({
        callbackUrl: Type.Optional(
          Type.String({
            maxLength: 2000,
            // The rule `safeReturnPath` enforces, stated for clients: empty, or a path on this site (one leading
            // slash, no backslash, no control character).
            pattern: '^(?:/(?![/\\\\])[^\\u0000-\\u001F\\u007F\\\\\\uD800-\\uDFFF]*)?$',
            description: 'Path on this site to return to (default /); other origins are refused',
            examples: ['/garden'],
          }),
        ),
      }),
      response: {
        302: { description: 'Redirect to the provider', type: 'null' },
        ...errorResponses(['VALIDATION_ERROR', 'NOT_FOUND', 'RATE_LIMITED', 'INTERNAL']),
      },
    },
    handler: async (req, reply) => {
      const { provider } = req.params as { provider: string };
      const returnTo = safeReturnPath((req.query as { callbackUrl?: string }).callbackUrl);
      if (!returnTo) {
        throw new AppError('VALIDATION_ERROR', 'querystring/callbackUrl must be a path on this site', [
          { field: 'querystring/callbackUrl', message: 'must be a path on this site' },
        ]);
      }
      const started = await deps.oauth.begin(provider, returnTo);
      reply.setCookie(OAUTH_COOKIE, started.cookie, {
        httpOnly: true,
        sameSite: 'lax',
        secure: req.protocol === 'https',
        path: CALLBACK_PATH,
        maxAge: OAUTH_STATE_TTL_MS / 1000,
      });
      return reply.redirect(started.redirectUrl, 302);
    },
  });

  app.route({
    method: 'GET',
    url: '/callback/:provider',
    config: { public: true, object: { rule: 'none', why: 'the account of the provider’s answer' } },
    schema: {
      operationId: 'completeProviderSignIn',
      summary: 'Provider callback',
      description:
        "Where the provider sends the browser back. The `state` must match this browser's sealed cookie; the " +
        'code is redeemed with the PKCE verifier (and for OpenID Connect the ID token is verified: signature, ' +
        'issuer, audience, expiry, nonce). An identity already linked signs in; otherwise the provider must ' +
        'confirm the email address: a new address creates an account, an address an account has confirmed is ' +
        'linked to it, and an address an account has not confirmed is refused (409, `details.reason` ' +
        '`ACCOUNT_NOT_LINKED`). On success the session cookie is set and the browser is redirected (302) to the ' +
        '`callbackUrl` given at the start.',
      tags: TAGS,
      params: Type.Object({ provider: Type.String({ pattern: '^[a-z]{1,32}$', examples: ['google'] }) }),
      querystring: Type.Object({
        code: Type.Optional(Text({ maxLength: 2048 })),
        state: Type.Optional(Text({ maxLength: 512 })),
        error: Type.Optional(Text({ maxLength: 512 })),
      }),
      response: {
        302: { description: 'Signed in: redirect to the callbackUrl with the session cookie set', type: 'null' },
        ...errorResponses(['VALIDATION_ERROR', 'UNAUTHORIZED', 'NOT_FOUND', 'DUPLICATE', 'RATE_LIMITED', 'INTERNAL']),
      },
    },
    handler: async (req, reply) => {
      const { provider } = req.params as { provider: string };
      const query = req.query as { code?: string; state?: string; error?: string };
      // The state cookie is single-use, whatever the outcome.
      reply.clearCookie(OAUTH_COOKIE, { path: CALLBACK_PATH });
      const done = await deps.oauth.complete(provider, query, req.cookies[OAUTH_COOKIE], callContext(req));
      setSessionCookie(req, reply, signSessionToken(app, done.session, done.user), done.session.expiresAt);
      return reply.redirect(done.returnTo, 302);
    },
  });

  localRoute(app, {
    method: 'POST',
    url: '/forgot-password',
    operationId: 'requestPasswordReset',
    config: { rateLimit: routeLimit(deps.authPerMinute, 'forgot-password') },
    summary: 'Ask for a password reset link',
    description:
      'Answers the same, at once, whether or not an account uses the address (no account enumeration). If one ' +
      'does, a single-use link valid for one hour is sent (event `evt.gateway.password-reset.requested`); an ' +
      'earlier unused link stops working. Limited per IP and to 3 per address per hour.',
    tags: TAGS,
    policy: {
      public: true,
      object: { rule: 'none', why: 'the account of the address, answered alike whether it exists' },
    },
    body: EmailInput,
    reply: Acknowledgement,
    example: { email: 'ada@example.org' },
    replyExample: { message: FORGOT_ANSWER },
    handler: async (req, reply) => {
      const email = normalizeEmail(req.body.email);
      await attempt(deps, reply, 'forgot-password', req.ip, email);
      const ctx = callContext(req);
      // After the answer: its timing must not depend on whether the account exists.
      deps.background(() => deps.accounts.requestPasswordReset(email, ctx));
      return { message: FORGOT_ANSWER };
    },
  });

  localRoute(app, {
    method: 'POST',
    url: '/reset-password',
    operationId: 'resetPassword',
    summary: 'Set a new password with a reset link',
    description:
      'Uses the token from the reset email (once; it expires after an hour), sets the new password (same ' +
      'policy as registration), confirms the address, and ends every session of the account.',
    tags: TAGS,
    policy: { public: true, object: { rule: 'none', why: 'the account named by the signed token' } },
    body: ResetPasswordInput,
    reply: Acknowledgement,
    example: { token: 'q1Zb3Wf0s8N9dC4eL7xR2tY6uI5oP0aS3dF6gH9jK1l', password: 'a new and long passphrase' },
    replyExample: { message: 'Password changed: sign in with the new password' },
    handler: async (req, reply) => {
      await deps.accounts.resetPassword(req.body.token, req.body.password, callContext(req));
      clearSessionCookie(req, reply);
      return { message: 'Password changed: sign in with the new password' };
    },
  });

  localRoute(app, {
    method: 'POST',
    url: '/verify-email',
    operationId: 'verifyEmail',
    summary: 'Confirm an email address',
    description: 'Uses the token from the verification email (once; it expires after 24 hours).',
    tags: TAGS,
    policy: { public: true, object: { rule: 'none', why: 'the account named by the signed token' } },
    body: VerifyEmailInput,
    reply: User,
    example: { token: 'q1Zb3Wf0s8N9dC4eL7xR2tY6uI5oP0aS3dF6gH9jK1l' },
    replyExample: { ...EXAMPLE_USER, emailVerified: true },
    handler: async (req) => deps.accounts.verifyEmail(req.body.token),
  });

  localRoute(app, {
    method: 'POST',
    url: '/verify-email/resend',
    operationId: 'resendVerificationEmail',
    summary: 'Send a new verification email',
    description:
      "Sends a new verification link to the caller's address unless it is already confirmed; earlier links " +
      'stop working. At most 3 per hour.',
    tags: TAGS,
    policy: { permission: 'account:write', object: { rule: 'own' } },
    reply: Acknowledgement,
    replyExample: { message: 'A new verification link is on its way' },
    handler: async (req, reply) => {
      const p = principal(req);
      await attempt(deps, reply, 'verify-email-request', null, p.user.id);
      const sent = await deps.accounts.requestEmailVerification(p.user.id, callContext(req));
      return { message: sent ? 'A new verification link is on its way' : 'The address is already confirmed' };
    },
  });

  localRoute(app, {
    method: 'POST',
    url: '/tokens',
    operationId: 'createApiToken',
    summary: 'Issue an API token',
    description:
      'Issues a token for scripts and devices: `Authorization: Bearer rlpat_…`. The secret is in this answer ' +
      'only; Rootline keeps a hash. Scopes default to all of your permissions and cannot exceed them (403); a ' +
      "token never does more than its owner's current role allows. Issued from a signed-in session only.",
    tags: TAGS,
    policy: { permission: 'account:write', idempotent: true, object: { rule: 'own' } },
    body: ApiTokenInput,
    reply: ApiTokenCreated,
    status: 201,
    example: {
      name: 'greenhouse sensor uploader',
      scopes: ['plants:read', 'plants:write'],
    },
    replyExample: { ...EXAMPLE_TOKEN, token: 'rlpat_4QmZ0cW9xY2vB7nK3pL8sD1fG6hJ5tR0eU9iO2aS4dF6x9Qz' },
    handler: async (req) => deps.apiTokens.issue(principal(req), req.body),
  });

  localRoute(app, {
    method: 'GET',
    url: '/tokens',
    operationId: 'listApiTokens',
    summary: 'List your API tokens',
    description: 'Your live (not revoked, not expired) tokens, newest first, without their secrets.',
    tags: TAGS,
    policy: { permission: 'account:read', object: { rule: 'own' } },
    reply: Type.Array(ApiToken),
    replyExample: [EXAMPLE_TOKEN],
    handler: async (req) => deps.apiTokens.list(principal(req).user.id),
  });

  localRoute(app, {
    method: 'DELETE',
    url: '/tokens/:tokenId',
    operationId: 'revokeApiToken',
    summary: 'Revoke an API token',
    description: 'Revokes one of your tokens; it stops working on the next request.',
    tags: TAGS,
    policy: { permission: 'account:write', object: { rule: 'owner', field: 'tokenId', record: 'API token' } },
    params: Type.Object({ tokenId: ApiTokenId }),
    reply: ApiToken,
    errors: ['NOT_FOUND'],
    replyExample: EXAMPLE_TOKEN,
    handler: async (req) => deps.apiTokens.revoke(principal(req).user.id, req.params.tokenId),
  });
};
