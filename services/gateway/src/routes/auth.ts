import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { apiTokenRoutes } from './auth/api-tokens.js';
import { emailVerificationRoutes } from './auth/email-verification.js';
import { passwordRoutes } from './auth/passwords.js';
import { providerSignInRoutes } from './auth/provider-sign-in.js';
import { registrationRoutes } from './auth/registration.js';
import { sessionRoutes } from './auth/sessions.js';
import type { AuthRouteDeps } from './auth/shared.js';

/**
 * The identity routes under /api/auth, in the shape sign-in libraries use: registration, password sign-in,
 * session, sign-out, providers, CSRF token, third-party sign-in and callback, password reset, email
 * verification, and API tokens. One plugin per concern, registered in this order, which is the order of the
 * operations in the OpenAPI document and the generated SDK.
 */
export const authRoutes: FastifyPluginAsyncTypebox<AuthRouteDeps> = async (app, opts) => {
  // Only the dependencies: this plugin's own options (its prefix) must not be applied again to the parts.
  const deps: AuthRouteDeps = {
    accounts: opts.accounts,
    sessions: opts.sessions,
    apiTokens: opts.apiTokens,
    oauth: opts.oauth,
    throttle: opts.throttle,
    authPerMinute: opts.authPerMinute,
    csrfKey: opts.csrfKey,
    background: opts.background,
  };
  await app.register(registrationRoutes, deps);
  await app.register(sessionRoutes, deps);
  await app.register(providerSignInRoutes, deps);
  await app.register(passwordRoutes, deps);
  await app.register(emailVerificationRoutes, deps);
  await app.register(apiTokenRoutes, deps);
};
