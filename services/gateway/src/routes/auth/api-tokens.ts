import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiToken, ApiTokenCreated, ApiTokenId, ApiTokenInput } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import { localRoute } from '../../http/local-route.js';
import { type AuthRouteDeps, principal, TAGS } from './shared.js';

const EXAMPLE_TOKEN: ApiToken = {
  id: 'tok_01HZX3K6Q2W8N4B7T5R9V0C1MD',
  name: 'greenhouse sensor uploader',
  scopes: ['plants:read', 'plants:write'],
  organizationId: null,
  hint: 'rlpat_…x9Qz',
  createdAt: '2026-01-02T03:04:05.000Z',
  expiresAt: '2026-07-01T00:00:00.000Z',
  lastUsedAt: null,
};

/** API tokens for scripts and devices: issuing, listing and revoking the caller's own. */
export const apiTokenRoutes: FastifyPluginAsyncTypebox<AuthRouteDeps> = async (app, deps) => {
  localRoute(app, {
    method: 'POST',
    url: '/tokens',
    operationId: 'createApiToken',
    summary: 'Issue an API token',
    description:
      'Issues a token for scripts and devices: `Authorization: Bearer rlpat_…`. The secret is in this answer ' +
      'only; Rootline keeps a hash. Scopes default to all of your permissions and cannot exceed them (403); a ' +
      "token never does more than its owner's current role allows. Issued from a signed-in session only. Issued " +
      'while acting for an organization (`Rootline-Act-As`, owners and managers), the token always acts for it ' +
      '(`organizationId`), and for it alone, as its owner’s role there allows on each request (none once they leave).',
    tags: TAGS,
    policy: { permission: 'account:write', idempotent: true, orgRole: 'manager', object: { rule: 'own' } },
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
