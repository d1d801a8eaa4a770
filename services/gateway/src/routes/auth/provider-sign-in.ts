import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, ErrorEnvelope, Text } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import { callContext } from '../../http/request-context.js';
import { safeReturnPath } from '../../identity/domain/redirect.js';
import { OAUTH_STATE_TTL_MS } from '../../identity/oauth/flow.js';
import { setSessionCookie, signSessionToken } from '../../plugins/auth.js';
import { errorResponses } from '../../plugins/openapi.js';
import { type AuthRouteDeps, TAGS } from './shared.js';

/** Cookie that carries a third-party sign-in's sealed state from the redirect to the callback. */
export const OAUTH_COOKIE = 'rootline_oauth';
const CALLBACK_PATH = '/api/auth/callback';

/**
 * The `default` answer of the browser-only redirects: they have no 2xx (success is the 302), and any status not
 * listed carries the error envelope, so a client generated from the document reads it as an error.
 */
const NO_SUCCESS_BUT_REDIRECT = {
  $ref: `${ErrorEnvelope.$id}#`,
  description: 'Any other status: the error envelope. Success is the 302 above; there is no 2xx answer.',
};

/** Third-party sign-in (OAuth 2 and OpenID Connect): the redirect to the provider and its callback. */
export const providerSignInRoutes: FastifyPluginAsyncTypebox<AuthRouteDeps> = async (app, deps) => {
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
        default: NO_SUCCESS_BUT_REDIRECT,
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
        default: NO_SUCCESS_BUT_REDIRECT,
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
};
