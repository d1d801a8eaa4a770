import { type Static, Type } from '@sinclair/typebox';
import { Email, OneTimeToken } from './auth.js';
import { Location, PrefixedId, Text, Timestamp } from './common.js';
import { defineEvent, defineSubject, Named } from './define.js';
import { PageQuery } from './envelope.js';
import { PrivacyLevelSchema, StringEnum } from './plants.js';
import { ORG_ROLES } from './roles.js';

/**
 * Organizations: co-ops, seed libraries, farms with staff and companies, with a public profile and members who hold
 * a role in them (docs/organizations.md). They live beside identity in the gateway (ADR 234).
 */

export const OrganizationId = PrefixedId('org', 'Organization identifier');
export const InvitationId = PrefixedId('oin', 'Organization invitation identifier');

export const ORGANIZATION_KINDS = ['co-op', 'seed-library', 'farm', 'company', 'other'] as const;
export type OrganizationKind = (typeof ORGANIZATION_KINDS)[number];
export const OrganizationKindSchema = StringEnum(ORGANIZATION_KINDS, {
  description: 'What the organization is: a co-op, a seed library, a farm, a company, or other',
});

export { ORG_ROLES, type OrgRole, orgRoleAtLeast } from './roles.js';

export const OrgRoleSchema = StringEnum(ORG_ROLES, {
  description: 'Role in the organization: owner, manager, member or viewer (strongest first)',
});

/** Days an invitation link works by default (ORG_INVITATION_TTL_DAYS). */
export const ORG_INVITATION_TTL_DAYS = 7;

const Website = Type.String({
  format: 'uri',
  pattern: '^https?://',
  maxLength: 300,
  description: 'The organization’s web site (http or https)',
  examples: ['https://seeds.example.org'],
});

export const OrganizationInput = Named(
  'OrganizationInput',
  Type.Object(
    {
      name: Text({ minLength: 2, maxLength: 120, description: 'The organization’s public name' }),
      kind: OrganizationKindSchema,
      description: Type.Optional(Text({ maxLength: 2000, description: 'What it does, for its public profile' })),
      website: Type.Optional(Website),
      location: Type.Optional(Location),
      privacyLevel: Type.Optional(
        Type.Union([PrivacyLevelSchema], {
          description:
            'How much of the location its profile discloses (the plants’ levels, applied before it is stored); ' +
            'default `city`',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
export type OrganizationInput = Static<typeof OrganizationInput>;

export const OrganizationUpdate = Named(
  'OrganizationUpdate',
  Type.Object(
    {
      name: Type.Optional(Text({ minLength: 2, maxLength: 120, description: 'The organization’s public name' })),
      kind: Type.Optional(OrganizationKindSchema),
      description: Type.Optional(Text({ maxLength: 2000, description: 'What it does; empty to clear it' })),
      website: Type.Optional(Type.Union([Website, Type.Null()], { description: 'Its web site; null to clear it' })),
      location: Type.Optional(
        Type.Union([Location, Type.Null()], { description: 'Where it is; null to remove the location' }),
      ),
      privacyLevel: Type.Optional(PrivacyLevelSchema),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
);
export type OrganizationUpdate = Static<typeof OrganizationUpdate>;

export const Organization = Named(
  'Organization',
  Type.Object({
    id: OrganizationId,
    name: Type.String(),
    kind: OrganizationKindSchema,
    description: Type.String(),
    website: Type.Union([Type.String(), Type.Null()]),
    location: Type.Union([Location, Type.Null()], {
      description: 'Where it is, after its privacy level (null when hidden or not given)',
    }),
    privacyLevel: PrivacyLevelSchema,
    memberCount: Type.Integer({ minimum: 1, description: 'How many accounts are members' }),
    createdBy: Type.String({ description: 'The account that created it (its first owner)' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);
export type Organization = Static<typeof Organization>;

/** An organization of the caller's, with the caller's role in it. */
export const MyOrganization = Named(
  'MyOrganization',
  Type.Composite([Organization, Type.Object({ role: OrgRoleSchema })]),
);
export type MyOrganization = Static<typeof MyOrganization>;

export const OrganizationListQuery = Type.Object({
  q: Type.Optional(
    Text({ minLength: 1, maxLength: 100, description: 'Words of the name or description', examples: ['seed'] }),
  ),
  kind: Type.Optional(OrganizationKindSchema),
  ...PageQuery.properties,
});

export const OrganizationMember = Named(
  'OrganizationMember',
  Type.Object({
    userId: Type.String(),
    name: Type.String({ description: 'The account’s current display name' }),
    role: OrgRoleSchema,
    joinedAt: Timestamp,
  }),
);
export type OrganizationMember = Static<typeof OrganizationMember>;

export const MemberRoleInput = Type.Object({ role: OrgRoleSchema }, { additionalProperties: false });

export const INVITATION_STATUSES = ['pending', 'accepted', 'declined', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const InvitationInput = Named(
  'InvitationInput',
  Type.Object({ email: Email, role: OrgRoleSchema }, { additionalProperties: false }),
);
export type InvitationInput = Static<typeof InvitationInput>;

export const OrganizationInvitation = Named(
  'OrganizationInvitation',
  Type.Object({
    id: InvitationId,
    organizationId: OrganizationId,
    email: Type.String({ description: 'The address invited' }),
    role: OrgRoleSchema,
    invitedBy: Type.String({ description: 'The account that sent it' }),
    status: StringEnum(INVITATION_STATUSES),
    createdAt: Timestamp,
    expiresAt: Timestamp,
  }),
);
export type OrganizationInvitation = Static<typeof OrganizationInvitation>;

export const InvitationTokenInput = Type.Object({ token: OneTimeToken }, { additionalProperties: false });

/** What the page of an emailed invitation shows before it is accepted or declined. */
export const InvitationPreview = Named(
  'InvitationPreview',
  Type.Object({
    invitationId: InvitationId,
    organization: Organization,
    role: OrgRoleSchema,
    invitedByName: Type.String(),
    expiresAt: Timestamp,
  }),
);
export type InvitationPreview = Static<typeof InvitationPreview>;

/** The answer to an accepted (or declined) invitation: the organization and the role now held (null: declined). */
export const InvitationAnswer = Named(
  'InvitationAnswer',
  Type.Object({
    organization: Organization,
    role: Type.Union([OrgRoleSchema, Type.Null()], { description: 'The role now held; null after a decline' }),
  }),
);
export type InvitationAnswer = Static<typeof InvitationAnswer>;

/**
 * Gives the sender of an invitation email the secret of its link, by request/reply (never stored on the bus), as
 * `gateway.email-link.issue` does for account links: each call mints a new secret; a used, revoked or expired
 * invitation answers NOT_FOUND.
 */
export const organizationInvitationIssue = defineSubject({
  subject: 'gateway.organization-invitation.issue',
  request: Type.Object({ invitationId: InvitationId }, { additionalProperties: false }),
  reply: Type.Object({
    invitationId: Type.String(),
    email: Type.String(),
    token: Type.String({ description: 'The one-time secret (the database keeps only its hash)' }),
    expiresAt: Timestamp,
    linkPath: Type.String({ description: 'Path of the web page, to be prefixed with the public web address' }),
  }),
  summary: 'Mints the secret of an organization invitation link for the email being sent',
});

/**
 * The owners and managers of an organization now, by account id, for a service that tells an organization of
 * something (the recipient side of an ownership transfer): asked over the bus before the service's transaction,
 * carried as the event's `audience`. An unknown or dissolved organization has none.
 */
export const organizationAudienceGet = defineSubject({
  subject: 'gateway.organization-audience.get',
  request: Type.Object({ organizationId: OrganizationId }, { additionalProperties: false }),
  reply: Type.Object({ accountIds: Type.Array(Type.String()) }),
  summary: 'The account ids of an organization’s owners and managers',
});

/**
 * The display name of a party now: an account's name, or an organization's (null for an id of neither), for a
 * service that records a party it keeps only by id (the giving side of a seed lot's transfer, ADR 290).
 */
export const partyNameGet = defineSubject({
  subject: 'gateway.party-name.get',
  request: Type.Object(
    { partyId: Text({ minLength: 1, maxLength: 120, description: 'An account id or an organization id' }) },
    { additionalProperties: false },
  ),
  reply: Type.Object({ name: Type.Union([Type.String(), Type.Null()]) }),
  summary: 'The name of an account or an organization',
});

/** Who hears of a change: the organization's owners and managers at the time (notify: in-app and email). */
const Audience = Type.Array(Type.String(), { description: 'Account ids of its owners and managers, to notify' });
const Base = {
  organizationId: Type.String(),
  organizationName: Type.String(),
  audience: Audience,
};

export const organizationCreated = defineEvent({
  subject: 'evt.organization.profile.created',
  payload: Type.Object({ ...Base, kind: OrganizationKindSchema, createdBy: Type.String() }),
});
export const organizationUpdated = defineEvent({
  subject: 'evt.organization.profile.updated',
  payload: Type.Object({ ...Base, fields: Type.Array(Type.String()), changedBy: Type.String() }),
});
export const organizationDissolved = defineEvent({
  subject: 'evt.organization.profile.dissolved',
  payload: Type.Object({ ...Base, dissolvedBy: Type.String() }),
});
export const organizationMemberAdded = defineEvent({
  subject: 'evt.organization.member.added',
  payload: Type.Object({ ...Base, userId: Type.String(), role: OrgRoleSchema, invitationId: Type.String() }),
});
export const organizationMemberRoleChanged = defineEvent({
  subject: 'evt.organization.member.role-changed',
  payload: Type.Object({
    ...Base,
    userId: Type.String(),
    role: OrgRoleSchema,
    previousRole: OrgRoleSchema,
    changedBy: Type.String(),
  }),
});
export const organizationMemberRemoved = defineEvent({
  subject: 'evt.organization.member.removed',
  payload: Type.Object({ ...Base, userId: Type.String(), role: OrgRoleSchema, removedBy: Type.String() }),
});
export const organizationMemberLeft = defineEvent({
  subject: 'evt.organization.member.left',
  payload: Type.Object({ ...Base, userId: Type.String(), role: OrgRoleSchema }),
});
/** An invitation to send (notify: the email with its link; the event names the invitation, never its secret). */
export const organizationInvitationSent = defineEvent({
  subject: 'evt.organization.invitation.sent',
  payload: Type.Object({
    ...Base,
    invitationId: Type.String(),
    role: OrgRoleSchema,
    invitedBy: Type.String(),
    invitedByName: Type.String(),
    expiresAt: Timestamp,
  }),
});
export const organizationInvitationDeclined = defineEvent({
  subject: 'evt.organization.invitation.declined',
  payload: Type.Object({ ...Base, invitationId: Type.String(), role: OrgRoleSchema, userId: Type.String() }),
});
export const organizationInvitationRevoked = defineEvent({
  subject: 'evt.organization.invitation.revoked',
  payload: Type.Object({ ...Base, invitationId: Type.String(), revokedBy: Type.String() }),
});
