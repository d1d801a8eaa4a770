import type { Locale, Location, OrganizationKind, OrgRole, Permission, PrivacyLevel, Role } from '@rootline/contracts';
import { outboxTable } from '@rootline/db';
import { index, integer, jsonb, pgSchema, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** The gateway's own schema: identity (accounts, sessions, API tokens, third-party identities). */
export const identitySchema = pgSchema('identity');

const at = (name: string) => timestamp(name, { withTimezone: true });

export const users = identitySchema.table(
  'users',
  {
    id: text('id').primaryKey(),
    /** Normalised (trimmed, lower case): one account per address. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role').$type<Role>().notNull().default('USER'),
    /** bcrypt or argon2id hash; null for accounts that only sign in through a provider. */
    passwordHash: text('password_hash'),
    emailVerifiedAt: at('email_verified_at'),
    /** The language chosen for the app and the emails; null until the owner chooses one. */
    locale: text('locale').$type<Locale>(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), index('users_role_idx').on(t.role)],
);

/** A signed-in session; its id is the `sid` claim of the session JWT and cookie. */
export const sessions = identitySchema.table(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** How the session was started: password, github, google. */
    method: text('method').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const apiTokens = identitySchema.table(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** SHA-256 of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    hint: text('hint').notNull(),
    scopes: jsonb('scopes').$type<Permission[]>().notNull(),
    /** The organization the token always acts for (issued by one of its owners or managers acting for it); ADR 237. */
    organizationId: text('organization_id'),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at'),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [uniqueIndex('api_tokens_hash_key').on(t.tokenHash), index('api_tokens_user_idx').on(t.userId)],
);

/** Single-use secrets sent by email: password reset and email verification. */
export const accountTokens = identitySchema.table(
  'account_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<AccountTokenPurpose>().notNull(),
    /** SHA-256 of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [uniqueIndex('account_tokens_hash_key').on(t.tokenHash), index('account_tokens_user_idx').on(t.userId)],
);
export type AccountTokenPurpose = 'password-reset' | 'email-verification';

/** A third-party identity (provider + the provider's account id) linked to a local account. */
export const oauthAccounts = identitySchema.table(
  'oauth_accounts',
  {
    provider: text('provider').notNull(),
    providerAccountId: text('provider_account_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.providerAccountId] }),
    uniqueIndex('oauth_accounts_user_provider_key').on(t.userId, t.provider),
  ],
);

export const outbox = outboxTable(identitySchema);

/**
 * Answers of requests sent with an `Idempotency-Key` (see plugins/idempotency.ts). The key itself is never
 * stored: the row is found by a digest of principal, route and key, and the answer is kept encrypted under a key
 * derived from the client's key, so only a client holding it can have the answer replayed.
 */
export const idempotencyKeys = identitySchema.table(
  'idempotency_keys',
  {
    /** SHA-256 of principal, method, route and Idempotency-Key; also the reference passed to services. */
    scopeHash: text('scope_hash').primaryKey(),
    /** HMAC-SHA256 of the request body (canonical JSON) under the key: the same key with another body is refused. */
    requestHash: text('request_hash').notNull(),
    /** HTTP status of the stored answer; null while the first request is in flight. */
    status: integer('status'),
    /** The answer's body, AES-256-GCM under a key derived from the Idempotency-Key (base64: iv, tag, text). */
    response: text('response'),
    createdAt: at('created_at').notNull(),
    /** While in flight: a request holding the key until then; past it (its gateway died) a retry takes over. */
    lockedUntil: at('locked_until'),
    /** Kept until then (at least 24 h), then pruned. */
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('idempotency_keys_expires_idx').on(t.expiresAt)],
);

/**
 * Organizations (docs/organizations.md, ADR 234): a public profile, created by an account who becomes its first
 * owner. Dissolving one keeps the row (`dissolvedAt`), so the audit log and, later, the records it owned still name
 * it; a dissolved organization is not found by any read.
 */
export const organizations = identitySchema.table(
  'organizations',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    kind: text('kind').$type<OrganizationKind>().notNull(),
    description: text('description').notNull().default(''),
    website: text('website'),
    /** The location after its privacy level (null when hidden or not given): the raw one is never stored. */
    location: jsonb('location').$type<Location>(),
    privacyLevel: text('privacy_level').$type<PrivacyLevel>().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    dissolvedAt: at('dissolved_at'),
    dissolvedBy: text('dissolved_by'),
  },
  (t) => [index('organizations_name_idx').on(t.name), index('organizations_created_by_idx').on(t.createdBy)],
);

/** One account's membership of one organization, with its role. */
export const organizationMembers = identitySchema.table(
  'organization_members',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<OrgRole>().notNull(),
    joinedAt: at('joined_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] }), index('organization_members_user_idx').on(t.userId)],
);

/**
 * An invitation by email. Its link's secret is minted when the email is sent (as account links are) and only its
 * SHA-256 is kept; it is used once, and works until `expiresAt`.
 */
export const organizationInvitations = identitySchema.table(
  'organization_invitations',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Normalised (trimmed, lower case). */
    email: text('email').notNull(),
    role: text('role').$type<OrgRole>().notNull(),
    invitedBy: text('invited_by').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    /** Set once: accepted, declined or revoked. */
    closedAt: at('closed_at'),
    outcome: text('outcome').$type<'accepted' | 'declined' | 'revoked'>(),
    /** The account that accepted or declined it. */
    answeredBy: text('answered_by'),
  },
  (t) => [
    uniqueIndex('organization_invitations_hash_key').on(t.tokenHash),
    index('organization_invitations_org_idx').on(t.organizationId),
  ],
);
