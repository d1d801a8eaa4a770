import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PASSWORD_POLICY, RegisterInput, User } from '@rootline/contracts';
import { localRoute } from '../../http/local-route.js';
import { callContext } from '../../http/request-context.js';
import { normalizeEmail } from '../../identity/domain/email.js';
import { routeLimit } from '../../plugins/rate-limit.js';
import { type AuthRouteDeps, attempt, EXAMPLE_USER, TAGS } from './shared.js';

/** Registration of an account with email and password. */
export const registrationRoutes: FastifyPluginAsyncTypebox<AuthRouteDeps> = async (app, deps) => {
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
      'minute) and to 5 attempts per address per hour. `locale` is the language of its emails (and of the app).',
    tags: TAGS,
    policy: { public: true, idempotent: true, object: { rule: 'none', why: 'a new account' } },
    body: RegisterInput,
    reply: User,
    status: 201,
    errors: ['DUPLICATE'],
    example: { email: 'ada@example.org', password: 'correct horse battery staple', name: 'Ada Grower', locale: 'nl' },
    replyExample: EXAMPLE_USER,
    handler: async (req, reply) => {
      await attempt(deps, reply, 'register', req.ip, normalizeEmail(req.body.email));
      return deps.accounts.register(req.body, callContext(req));
    },
  });
};
