import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Acknowledgement, User, VerifyEmailInput } from '@rootline/contracts';
import { localRoute } from '../../http/local-route.js';
import { callContext } from '../../http/request-context.js';
import { type AuthRouteDeps, attempt, EXAMPLE_USER, principal, TAGS } from './shared.js';

/** Email verification: confirming an address with the emailed token, and sending a new one. */
export const emailVerificationRoutes: FastifyPluginAsyncTypebox<AuthRouteDeps> = async (app, deps) => {
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
};
