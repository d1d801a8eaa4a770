import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, paginate, RoleChangeInput, User, UserId, UserListQuery } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import { localRoute } from '../http/local-route.js';
import { callContext } from '../http/request-context.js';
import type { Accounts } from '../identity/accounts.js';

const TAGS = ['Administration'];
const EXAMPLE_USER = {
  id: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD',
  email: 'ada@example.org',
  name: 'Ada Grower',
  role: 'GROWER' as const,
  emailVerified: true,
  locale: null,
  createdAt: '2026-01-02T03:04:05.000Z',
};

export interface AdminRouteDeps {
  accounts: Accounts;
}

/** Account administration under /api/admin: ADMIN only (`admin:users`). */
export const adminRoutes: FastifyPluginAsyncTypebox<AdminRouteDeps> = async (app, { accounts }) => {
  localRoute(app, {
    method: 'GET',
    url: '/users',
    operationId: 'listUsers',
    summary: 'List accounts',
    description:
      'Every account, oldest first; with `q` only those whose email address or name contains the text (any ' +
      'case), with `role` only those of that role.',
    tags: TAGS,
    policy: { permission: 'admin:users', object: { rule: 'none', why: 'ADMIN administration: every account' } },
    querystring: UserListQuery,
    reply: User,
    page: true,
    replyExample: EXAMPLE_USER,
    handler: async (req) => {
      const { page = 1, limit = 20, q, role } = req.query;
      const { users, total } = await accounts.listUsers(page, limit, { q, role });
      return { items: users, pagination: paginate(page, limit, total) };
    },
  });

  localRoute(app, {
    method: 'PUT',
    url: '/users/:userId/role',
    operationId: 'setUserRole',
    summary: "Change an account's role",
    description:
      'Sets the role (USER, GROWER, FARM_MANAGER, ADMIN). It applies at once, to existing sessions and API ' +
      'tokens too. The last ADMIN cannot be demoted (403). Publishes `evt.gateway.user.role-changed`.',
    tags: TAGS,
    policy: {
      permission: 'admin:users',
      object: { rule: 'role', field: 'userId', record: 'user', why: 'ADMIN administration of every account' },
    },
    params: Type.Object({
      userId: Type.String({
        pattern: UserId.pattern,
        description: 'The account whose role changes',
        examples: ['usr_01HZX3K6Q2W8N4B7T5R9V0C1MF'],
      }),
    }),
    body: RoleChangeInput,
    reply: User,
    errors: ['NOT_FOUND'],
    example: { role: 'GROWER' },
    replyExample: EXAMPLE_USER,
    handler: async (req) => {
      if (!req.actor) throw new AppError('UNAUTHORIZED', 'Authentication required');
      return accounts.changeRole(req.actor, req.params.userId, req.body.role, callContext(req));
    },
  });
};
