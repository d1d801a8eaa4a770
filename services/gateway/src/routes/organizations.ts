import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { paginate } from '@rootline/contracts';
import {
  InvitationAnswer,
  InvitationId,
  InvitationInput,
  InvitationPreview,
  InvitationTokenInput,
  MemberRoleInput,
  MyOrganization,
  Organization,
  OrganizationId,
  OrganizationInput,
  OrganizationInvitation,
  OrganizationListQuery,
  OrganizationMember,
  OrganizationUpdate,
  type OrgRole,
} from '@rootline/contracts/organizations';
import { Type } from '@sinclair/typebox';
import { localRoute } from '../http/local-route.js';
import { callContext } from '../http/request-context.js';
import type { Organizations } from '../organizations/organizations.js';
import { principal } from './auth/shared.js';

export interface OrganizationRouteDeps {
  organizations: Organizations;
}

const TAGS = ['Organizations'];

const EXAMPLE_ORG: Organization = {
  id: 'org_01HZX3K6Q2W8N4B7T5R9V0C1MD',
  name: 'Riverside Seed Library',
  kind: 'seed-library',
  description: 'Open-pollinated seeds, saved and shared by the valley’s gardeners.',
  website: 'https://seeds.example.org',
  location: { latitude: 52.05, longitude: 5.08, city: 'Utrecht', country: 'NL' },
  privacyLevel: 'city',
  memberCount: 2,
  createdBy: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD',
  createdAt: '2026-11-01T09:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
};
const EXAMPLE_MEMBER: OrganizationMember = {
  userId: 'usr_01HZX3K6Q2W8N4B7T5R9V0C1ME',
  name: 'Grace Gardener',
  role: 'member',
  joinedAt: '2026-11-03T08:00:00.000Z',
};
const EXAMPLE_INVITATION: OrganizationInvitation = {
  id: 'oin_01HZX3K6Q2W8N4B7T5R9V0C1MD',
  organizationId: EXAMPLE_ORG.id,
  email: 'grace@example.org',
  role: 'member',
  invitedBy: EXAMPLE_ORG.createdBy,
  status: 'pending',
  createdAt: '2026-11-03T07:00:00.000Z',
  expiresAt: '2026-11-10T07:00:00.000Z',
};
const TOKEN_EXAMPLE = { token: 'k3Jv9QeW1xZp7LmN0aB4cD8fG2hJ6tR5' };

const orgParams = Type.Object({ organizationId: OrganizationId });
const memberParams = Type.Object({
  organizationId: OrganizationId,
  userId: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The member’s account id',
    examples: ['usr_01HZX3K6Q2W8N4B7T5R9V0C1ME'],
  }),
});
const role = (floor: OrgRole) =>
  ({ rule: 'org-role', field: 'organizationId', record: 'organization', role: floor }) as const;
const tokenRule = {
  rule: 'none',
  why: 'the emailed secret names the invitation; whoever holds the link may answer it',
} as const;

/**
 * Organizations under /api/organizations: public profiles, members with roles, invitations by email
 * (docs/organizations.md). Every role check reads the membership on the request itself.
 */
export const organizationRoutes: FastifyPluginAsyncTypebox<OrganizationRouteDeps> = async (app, { organizations }) => {
  localRoute(app, {
    method: 'POST',
    url: '',
    operationId: 'createOrganization',
    summary: 'Create an organization',
    description:
      'Creates an organization with a public profile; you become its first owner. Its location is coarsened to ' +
      'its privacy level (default `city`) before it is stored, as a plant’s is. Publishes ' +
      '`evt.organization.profile.created`.',
    tags: TAGS,
    policy: { permission: 'account:write', idempotent: true, object: { rule: 'own' } },
    body: OrganizationInput,
    reply: MyOrganization,
    status: 201,
    example: {
      name: 'Riverside Seed Library',
      kind: 'seed-library',
      description: 'Open-pollinated seeds, saved and shared by the valley’s gardeners.',
      website: 'https://seeds.example.org',
      location: { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' },
      privacyLevel: 'city',
    },
    replyExample: { ...EXAMPLE_ORG, memberCount: 1, role: 'owner' },
    handler: async (req) => organizations.create(principal(req).user.id, req.body, callContext(req)),
  });

  localRoute(app, {
    method: 'GET',
    url: '',
    operationId: 'listOrganizations',
    summary: 'List and search organizations',
    description:
      'Public profiles of organizations, by name, a page at a time; `q` finds words of the name or description, ' +
      '`kind` narrows to one kind. Open to visitors.',
    tags: TAGS,
    policy: { public: true, object: { rule: 'none', why: 'public profiles' } },
    querystring: OrganizationListQuery,
    reply: Organization,
    page: true,
    replyExample: EXAMPLE_ORG,
    handler: async (req) => {
      const { page = 1, limit = 20, q, kind } = req.query;
      const { items, total } = await organizations.list({ q, kind }, page, limit);
      return { items, pagination: paginate(page, limit, total) };
    },
  });

  localRoute(app, {
    method: 'GET',
    url: '/mine',
    operationId: 'listMyOrganizations',
    summary: 'List your organizations',
    description: 'The organizations you belong to, with your role in each, by name.',
    tags: TAGS,
    policy: { permission: 'account:read', object: { rule: 'own' } },
    reply: Type.Array(MyOrganization),
    replyExample: [{ ...EXAMPLE_ORG, role: 'owner' }],
    handler: async (req) => organizations.mine(principal(req).user.id),
  });

  localRoute(app, {
    method: 'GET',
    url: '/:organizationId',
    operationId: 'getOrganization',
    summary: 'An organization’s public profile',
    description:
      'Name, kind, description, web site, location after its privacy level and member count. Open to visitors; ' +
      'a dissolved organization is not found.',
    tags: TAGS,
    policy: { public: true, object: { rule: 'public', field: 'organizationId', record: 'organization' } },
    params: orgParams,
    reply: Organization,
    errors: ['NOT_FOUND'],
    replyExample: EXAMPLE_ORG,
    handler: async (req) => organizations.get(req.params.organizationId),
  });

  localRoute(app, {
    method: 'PATCH',
    url: '/:organizationId',
    operationId: 'updateOrganization',
    summary: 'Edit an organization’s profile',
    description:
      'Changes the fields given (owners and managers). A new privacy level coarsens the stored location; it cannot ' +
      'sharpen it back (give the location again for that). Publishes `evt.organization.profile.updated`.',
    tags: TAGS,
    policy: { permission: 'account:write', object: role('manager') },
    params: orgParams,
    body: OrganizationUpdate,
    reply: Organization,
    errors: ['NOT_FOUND'],
    example: { description: 'Seeds saved and shared since 2019.', website: 'https://seeds.example.org' },
    replyExample: EXAMPLE_ORG,
    handler: async (req) =>
      organizations.update(principal(req).user.id, req.params.organizationId, req.body, callContext(req)),
  });

  localRoute(app, {
    method: 'DELETE',
    url: '/:organizationId',
    operationId: 'dissolveOrganization',
    summary: 'Dissolve an organization',
    description:
      'Dissolves the organization (owners only): it leaves every list and read, its members lose their roles at ' +
      'once and its open invitations stop working. The record is kept, marked dissolved, so the audit log (and, ' +
      'later, records it owned) still name it. Publishes `evt.organization.profile.dissolved`.',
    tags: TAGS,
    policy: { permission: 'account:write', object: role('owner') },
    params: orgParams,
    reply: Organization,
    errors: ['NOT_FOUND'],
    replyExample: EXAMPLE_ORG,
    handler: async (req) => organizations.dissolve(principal(req).user.id, req.params.organizationId, callContext(req)),
  });

  localRoute(app, {
    method: 'GET',
    url: '/:organizationId/members',
    operationId: 'listOrganizationMembers',
    summary: 'List an organization’s members',
    description: 'Its members with their roles (strongest first) and current names; for its members only.',
    tags: TAGS,
    policy: { permission: 'account:read', object: role('viewer') },
    params: orgParams,
    reply: Type.Array(OrganizationMember),
    errors: ['NOT_FOUND'],
    replyExample: [{ ...EXAMPLE_MEMBER, userId: EXAMPLE_ORG.createdBy, name: 'Ada Grower', role: 'owner' }],
    handler: async (req) => organizations.members(principal(req).user.id, req.params.organizationId),
  });

  localRoute(app, {
    method: 'PATCH',
    url: '/:organizationId/members/:userId',
    operationId: 'changeOrganizationMemberRole',
    summary: 'Change a member’s role',
    description:
      'Owners change any role; managers change members below owner and cannot make owners (403, reason ' +
      '`OWNER_ONLY`). An organization keeps at least one owner: demoting the last one is refused (409 CONFLICT, ' +
      'reason `LAST_OWNER`). Applies on the member’s next request. Publishes `evt.organization.member.role-changed`.',
    tags: TAGS,
    policy: { permission: 'account:write', object: role('manager') },
    params: memberParams,
    body: MemberRoleInput,
    reply: OrganizationMember,
    errors: ['NOT_FOUND', 'CONFLICT'],
    example: { role: 'manager' },
    replyExample: { ...EXAMPLE_MEMBER, role: 'manager' },
    handler: async (req) =>
      organizations.changeRole(
        principal(req).user.id,
        req.params.organizationId,
        req.params.userId,
        req.body.role,
        callContext(req),
      ),
  });

  localRoute(app, {
    method: 'DELETE',
    url: '/:organizationId/members/:userId',
    operationId: 'removeOrganizationMember',
    summary: 'Remove a member',
    description:
      'Removes a member (owners: anyone; managers: members below owner, 403 reason `OWNER_ONLY` otherwise). The ' +
      'last owner cannot be removed (409 CONFLICT, reason `LAST_OWNER`). The member loses access on their next ' +
      'request, by session or API token alike. Publishes `evt.organization.member.removed`.',
    tags: TAGS,
    policy: { permission: 'account:write', object: role('manager') },
    params: memberParams,
    reply: OrganizationMember,
    errors: ['NOT_FOUND', 'CONFLICT'],
    replyExample: EXAMPLE_MEMBER,
    handler: async (req) =>
      organizations.remove(principal(req).user.id, req.params.organizationId, req.params.userId, callContext(req)),
  });

  localRoute(app, {
    method: 'POST',
    url: '/:organizationId/leave',
    operationId: 'leaveOrganization',
    summary: 'Leave an organization',
    description:
      'Ends your membership (any role). The last owner cannot leave (409 CONFLICT, reason `LAST_OWNER`): make ' +
      'another member owner, or dissolve the organization. Publishes `evt.organization.member.left`.',
    tags: TAGS,
    policy: { permission: 'account:write', object: role('viewer') },
    params: orgParams,
    reply: OrganizationMember,
    errors: ['NOT_FOUND', 'CONFLICT'],
    replyExample: EXAMPLE_MEMBER,
    handler: async (req) => {
      const me = principal(req).user.id;
      return organizations.remove(me, req.params.organizationId, me, callContext(req), true);
    },
  });

  localRoute(app, {
    method: 'POST',
    url: '/:organizationId/invitations',
    operationId: 'inviteToOrganization',
    summary: 'Invite someone by email',
    description:
      'Sends an invitation with a role to an email address (owners; managers below owner). The email carries a ' +
      'link to the app’s invitation page; the link works once, for ORG_INVITATION_TTL_DAYS days (default 7), and ' +
      'only its hash is stored. Publishes `evt.organization.invitation.sent`.',
    tags: TAGS,
    policy: { permission: 'account:write', idempotent: true, object: role('manager') },
    params: orgParams,
    body: InvitationInput,
    reply: OrganizationInvitation,
    status: 201,
    errors: ['NOT_FOUND'],
    example: { email: 'grace@example.org', role: 'member' },
    replyExample: EXAMPLE_INVITATION,
    handler: async (req) =>
      organizations.invite(principal(req).user.id, req.params.organizationId, req.body, callContext(req)),
  });

  localRoute(app, {
    method: 'GET',
    url: '/:organizationId/invitations',
    operationId: 'listOrganizationInvitations',
    summary: 'List pending invitations',
    description: 'Invitations not yet answered, revoked or expired, newest first (owners and managers).',
    tags: TAGS,
    policy: { permission: 'account:read', object: role('manager') },
    params: orgParams,
    reply: Type.Array(OrganizationInvitation),
    errors: ['NOT_FOUND'],
    replyExample: [EXAMPLE_INVITATION],
    handler: async (req) => organizations.invitations(principal(req).user.id, req.params.organizationId),
  });

  localRoute(app, {
    method: 'DELETE',
    url: '/:organizationId/invitations/:invitationId',
    operationId: 'revokeOrganizationInvitation',
    summary: 'Revoke an invitation',
    description:
      'Revokes a pending invitation: its link stops working at once. Publishes `evt.organization.invitation.revoked`.',
    tags: TAGS,
    policy: { permission: 'account:write', object: role('manager') },
    params: Type.Object({ organizationId: OrganizationId, invitationId: InvitationId }),
    reply: OrganizationInvitation,
    errors: ['NOT_FOUND'],
    replyExample: { ...EXAMPLE_INVITATION, status: 'revoked' },
    handler: async (req) =>
      organizations.revoke(
        principal(req).user.id,
        req.params.organizationId,
        req.params.invitationId,
        callContext(req),
      ),
  });

  localRoute(app, {
    method: 'POST',
    url: '/invitations/preview',
    operationId: 'previewOrganizationInvitation',
    summary: 'What an invitation link offers',
    description:
      'The organization, role and inviter of the invitation whose link’s secret is given, for the page the link ' +
      'opens (signed in or not). A used, revoked or expired link answers 400.',
    tags: TAGS,
    policy: { public: true, object: tokenRule },
    body: InvitationTokenInput,
    reply: InvitationPreview,
    example: TOKEN_EXAMPLE,
    replyExample: {
      invitationId: EXAMPLE_INVITATION.id,
      organization: EXAMPLE_ORG,
      role: 'member',
      invitedByName: 'Ada Grower',
      expiresAt: EXAMPLE_INVITATION.expiresAt,
    },
    handler: async (req) => organizations.preview(req.body.token),
  });

  localRoute(app, {
    method: 'POST',
    url: '/invitations/accept',
    operationId: 'acceptOrganizationInvitation',
    summary: 'Accept an invitation',
    description:
      'Joins the organization with the invitation’s role, as the signed-in account (a member already in it keeps ' +
      'the stronger role). The link works once. Publishes `evt.organization.member.added`.',
    tags: TAGS,
    policy: { permission: 'account:write', object: tokenRule },
    body: InvitationTokenInput,
    reply: InvitationAnswer,
    example: TOKEN_EXAMPLE,
    replyExample: { organization: EXAMPLE_ORG, role: 'member' },
    handler: async (req) => organizations.answer(principal(req).user.id, req.body.token, true, callContext(req)),
  });

  localRoute(app, {
    method: 'POST',
    url: '/invitations/decline',
    operationId: 'declineOrganizationInvitation',
    summary: 'Decline an invitation',
    description: 'Declines the invitation; its link stops working. Publishes `evt.organization.invitation.declined`.',
    tags: TAGS,
    policy: { permission: 'account:write', object: tokenRule },
    body: InvitationTokenInput,
    reply: InvitationAnswer,
    example: TOKEN_EXAMPLE,
    replyExample: { organization: EXAMPLE_ORG, role: null },
    handler: async (req) => organizations.answer(principal(req).user.id, req.body.token, false, callContext(req)),
  });
};
