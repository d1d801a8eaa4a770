import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Acknowledgement,
  AppError,
  AuthProvider,
  CsrfToken,
  SessionInfo,
  SignInInput,
  SignInResult,
  UpdateAccountInput,
  User,
} from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import { localRoute } from '../../http/local-route.js';
import { callContext } from '../../http/request-context.js';
import { csrfTokenFor } from '../../identity/domain/csrf.js';
import { normalizeEmail } from '../../identity/domain/email.js';
import { BAD_CREDENTIALS } from '../../identity/sessions.js';
import { userView } from '../../identity/views.js';
import { clearSessionCookie, setSessionCookie, signSessionToken } from '../../plugins/auth.js';
import { routeLimit } from '../../plugins/rate-limit.js';
import { type AuthRouteDeps, attempt, EXAMPLE_USER, principal, TAGS } from './shared.js';

const EXAMPLE_JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c3JfMDFIWlgzSzZRMlc4TjRCN1Q1UjlWMEMxTUQiLCJzaWQiOiJzZXNfMDFIWlgzSzZRMlc4TjRCN1Q1UjlWMEMxTUQiLCJyb2xlIjoiVVNFUiIsImV4cCI6MTc3MDAwMDAwMH0.signature';
/** Email and password, listed among the providers the way sign-in libraries expect. */
const CREDENTIALS: AuthProvider = {
  id: 'credentials',
  name: 'Email and password',
  type: 'credentials',
  signinUrl: '/api/auth/signin',
  callbackUrl: '/api/auth/signin',
};

/**
 * Sessions: password sign-in, the signed-in user, sign-out, the sign-in methods on offer, and the session's
 * CSRF token.
 */
export const sessionRoutes: FastifyPluginAsyncTypebox<AuthRouteDeps> = async (app, deps) => {
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
        throw new AppError('UNAUTHORIZED', BAD_CREDENTIALS, { reason: 'bad-credentials' });
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
    method: 'PATCH',
    url: '/account',
    operationId: 'updateMyAccount',
    summary: 'Change the signed-in account',
    description:
      'Saves the language of the app and of the emails, push and in-app notifications sent to the account ' +
      '(`en`, `nl`, `de`, `fr`, `es`; null to follow the browser again). Publishes `evt.gateway.user.locale-changed`. ' +
      'With the cookie, send `X-CSRF-Token`.',
    tags: TAGS,
    policy: { permission: 'account:write', object: { rule: 'own' } },
    body: UpdateAccountInput,
    reply: User,
    example: { locale: 'nl' },
    replyExample: EXAMPLE_USER,
    handler: async (req) => deps.accounts.setLocale(principal(req).user.id, req.body.locale, callContext(req)),
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
};
