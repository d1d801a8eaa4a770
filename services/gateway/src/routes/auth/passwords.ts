import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Acknowledgement, EmailInput, ResetPasswordInput } from '@rootline/contracts';
import { localRoute } from '../../http/local-route.js';
import { callContext } from '../../http/request-context.js';
import { normalizeEmail } from '../../identity/domain/email.js';
import { clearSessionCookie } from '../../plugins/auth.js';
import { routeLimit } from '../../plugins/rate-limit.js';
import { type AuthRouteDeps, attempt, TAGS } from './shared.js';

const FORGOT_ANSWER = 'If an account uses that address, a reset link is on its way';

/** Password reset: asking for a link by email, and setting a new password with it. */
export const passwordRoutes: FastifyPluginAsyncTypebox<AuthRouteDeps> = async (app, deps) => {
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
};
