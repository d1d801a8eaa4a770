import { type Static, Type } from '@sinclair/typebox';
import { PrefixedId, Text, Timestamp } from './common.js';
import { defineEvent, defineSignal, defineSubject, Named } from './define.js';
import { PageQuery } from './envelope.js';
import { PermissionSchema, ROLES, RoleSchema } from './roles.js';

export const UserId = PrefixedId('usr', 'User identifier');
export const ApiTokenId = PrefixedId('tok', 'API token identifier');

/** Session lifetime, from the spec: a signed-in session (and its JWT) lasts 30 days. */
export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

/** The password rule, as shown to clients; the gateway enforces it (`checkPasswordPolicy`). */
export const PASSWORD_POLICY =
  'At least 10 characters and at most 72 bytes (UTF-8); not one repeated character, not a common password, ' +
  'and not the email address or its name part.';

export const Email = Type.String({
  format: 'email',
  minLength: 3,
  maxLength: 254,
  description: 'Email address; compared without regard to case',
  examples: ['ada@example.org'],
});

/** A password as typed at sign-in. */
export const Password = Text({
  minLength: 1,
  maxLength: 256,
  description: 'The account password',
  examples: ['correct horse battery staple'],
});

/** Shortest new password, in characters (code points); the gateway's policy checks the rest. */
export const MIN_PASSWORD_LENGTH = 10;

/** A new password (registration, reset): the length rule is in the schema, the rest of the policy in the text. */
export const NewPassword = Text({
  minLength: MIN_PASSWORD_LENGTH,
  maxLength: 256,
  description: PASSWORD_POLICY,
  examples: ['correct horse battery staple'],
});

/** A one-time secret from an email (password reset, email verification). */
export const OneTimeToken = Text({ minLength: 16, maxLength: 128, description: 'The token from the email' });

/** The languages the app and the emails are written in (ISO 639-1). */
export const LOCALES = ['en', 'nl', 'de', 'fr', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

export const LocaleSchema = Named(
  'Locale',
  Type.Union(
    LOCALES.map((l) => Type.Literal(l)),
    {
      description: 'A language of the app and the emails: English, Dutch, German, French or Spanish',
      examples: ['nl'],
    },
  ),
);

/** An account's language: null until its owner chooses one (the app then follows the browser, emails are English). */
export const AccountLocale = Type.Union([LocaleSchema, Type.Null()], {
  description: 'The language chosen for the app and the emails; null when none was chosen',
});

export const User = Named(
  'User',
  Type.Object(
    {
      id: UserId,
      email: Email,
      name: Type.String(),
      role: RoleSchema,
      emailVerified: Type.Boolean({ description: 'Whether the address has been confirmed' }),
      locale: AccountLocale,
      createdAt: Timestamp,
    },
    { description: 'An account, as its owner and ADMINs see it (never a password or a hash)' },
  ),
);
export type User = Static<typeof User>;

export const RegisterInput = Type.Object(
  {
    email: Email,
    password: NewPassword,
    name: Text({ minLength: 1, maxLength: 100, examples: ['Ada Grower'] }),
    locale: Type.Optional(LocaleSchema),
  },
  { additionalProperties: false },
);
export type RegisterInput = Static<typeof RegisterInput>;

/** PATCH /api/auth/account: what the owner changes on their own account. */
export const UpdateAccountInput = Type.Object({ locale: AccountLocale }, { additionalProperties: false });
export type UpdateAccountInput = Static<typeof UpdateAccountInput>;

export const SignInInput = Type.Object({ email: Email, password: Password }, { additionalProperties: false });
export type SignInInput = Static<typeof SignInInput>;

export const SignInResult = Type.Object({
  token: Type.String({ description: 'JWT (HS256) of the session; also set as the session cookie' }),
  expiresAt: Timestamp,
  user: User,
});
export type SignInResult = Static<typeof SignInResult>;

export const SessionInfo = Type.Object({
  user: User,
  credential: Type.Union([Type.Literal('session'), Type.Literal('api-token')], {
    description: 'What authenticated the request',
  }),
  expiresAt: Type.Union([Timestamp, Type.Null()], { description: 'When the credential expires; null for never' }),
});
export type SessionInfo = Static<typeof SessionInfo>;

export const EmailInput = Type.Object({ email: Email }, { additionalProperties: false });
export const ResetPasswordInput = Type.Object(
  { token: OneTimeToken, password: NewPassword },
  { additionalProperties: false },
);
export const VerifyEmailInput = Type.Object({ token: OneTimeToken }, { additionalProperties: false });

export const Acknowledgement = Type.Object({ message: Type.String() });

export const CsrfToken = Type.Object({
  csrfToken: Type.Union([Type.String(), Type.Null()], {
    description: 'Send it as `X-CSRF-Token` on state-changing requests authenticated by the session cookie',
  }),
});

export const AuthProvider = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.Union([Type.Literal('credentials'), Type.Literal('oauth'), Type.Literal('oidc')]),
  signinUrl: Type.String(),
  callbackUrl: Type.String(),
});
export type AuthProvider = Static<typeof AuthProvider>;

export const ApiTokenInput = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 100, examples: ['greenhouse sensor uploader'] }),
    scopes: Type.Optional(
      Type.Array(PermissionSchema, {
        minItems: 1,
        uniqueItems: true,
        description: "Permissions of the token; at most the owner's own. Default: all of the owner's permissions",
      }),
    ),
    expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'Expiry (future); default: never' })),
  },
  { additionalProperties: false },
);
export type ApiTokenInput = Static<typeof ApiTokenInput>;

export const ApiToken = Named(
  'ApiToken',
  Type.Object({
    id: ApiTokenId,
    name: Type.String(),
    scopes: Type.Array(PermissionSchema),
    organizationId: Type.Union([Type.String(), Type.Null()], {
      description:
        'The organization the token always acts for: issued while acting for it (`Rootline-Act-As`) by an owner or ' +
        'manager. Null for a token of the account alone.',
    }),
    hint: Type.String({ description: 'Prefix and last four characters, to recognise the token' }),
    createdAt: Timestamp,
    expiresAt: Type.Union([Timestamp, Type.Null()]),
    lastUsedAt: Type.Union([Timestamp, Type.Null()]),
  }),
);
export type ApiToken = Static<typeof ApiToken>;

export const ApiTokenCreated = Type.Composite([
  ApiToken,
  Type.Object({ token: Type.String({ description: 'The secret: shown this once, stored only as a hash' }) }),
]);
export type ApiTokenCreated = Static<typeof ApiTokenCreated>;

export const RoleChangeInput = Type.Object({ role: RoleSchema }, { additionalProperties: false });

/** GET /api/admin/users: a page of accounts, optionally matching a text or holding one role. */
/** At most this many accounts are named by one read of display names. */
export const PEOPLE_MAX_IDS = 100;

/** GET /api/people: the display names of accounts, by id, for pages that show records naming them. */
export const PeopleQuery = Type.Object({
  ids: Type.String({
    pattern: `^[A-Za-z0-9_-]{1,64}(,[A-Za-z0-9_-]{1,64}){0,${PEOPLE_MAX_IDS - 1}}$`,
    description: `Account ids, comma-separated (at most ${PEOPLE_MAX_IDS}); ids no account has are left out of the answer`,
    examples: ['usr_01HZX3K6Q2W8N4B7T5R9V0C1MD,usr_01HZX3K6Q2W8N4B7T5R9V0C1ME'],
  }),
});

/** An account as records show it to anyone: its id and display name, nothing else. */
export const PersonName = Named(
  'PersonName',
  Type.Object({
    id: Type.String(),
    name: Type.String({ description: 'The account’s display name, as records that name the account show it' }),
  }),
);
export type PersonName = Static<typeof PersonName>;

export const UserListQuery = Type.Object({
  q: Type.Optional(
    Text({
      minLength: 1,
      maxLength: 254,
      description: 'Only accounts whose email address or name contains this text (any case)',
      examples: ['ada'],
    }),
  ),
  role: Type.Optional(
    Type.Union(
      ROLES.map((r) => Type.Literal(r)),
      { description: 'Only accounts of this role', examples: ['GROWER'] },
    ),
  ),
  ...PageQuery.properties,
});

/** How an account was created or signed in. */
export const SignInMethod = Type.Union([Type.Literal('password'), Type.Literal('github'), Type.Literal('google')]);

/**
 * What notify learns from a link request: whom to write, which link, until when. Never the secret: events
 * are stored (outbox, event stream), so the secret is minted only when the email is sent (`emailLinkIssue`).
 */
/** The recipient's language in account events; absent in events recorded before accounts had one. */
const EventLocale = Type.Optional(AccountLocale);

const EmailLinkPayload = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  name: Type.String(),
  locale: EventLocale,
  linkId: Type.String({ description: 'The one-time link to send; its secret comes from gateway.email-link.issue' }),
  expiresAt: Timestamp,
});

/**
 * Gives the sender of an email the secret of a one-time link, by request/reply (never stored on the bus).
 * Each call mints a new secret and invalidates the previous one, so only the last link sent works; a used,
 * replaced or expired link answers NOT_FOUND.
 */
export const emailLinkIssue = defineSubject({
  subject: 'gateway.email-link.issue',
  request: Type.Object({ linkId: PrefixedId('atk', 'One-time link identifier') }, { additionalProperties: false }),
  reply: Type.Object({
    linkId: Type.String(),
    userId: Type.String(),
    email: Type.String(),
    name: Type.String(),
    token: Type.String({ description: 'The one-time secret (the database keeps only its hash)' }),
    expiresAt: Timestamp,
    linkPath: Type.String({ description: 'Path of the web page, to be prefixed with the public web address' }),
  }),
  summary: 'Mints the secret of a one-time email link for the email being sent',
});

/** An account was created (notify: welcome message). */
export const userRegistered = defineEvent({
  subject: 'evt.gateway.user.registered',
  payload: Type.Object({
    userId: Type.String(),
    email: Type.String(),
    name: Type.String(),
    locale: EventLocale,
    method: SignInMethod,
    registeredAt: Timestamp,
  }),
});

/** An account's owner chose another language (notify: write to them in it). */
export const userLocaleChanged = defineEvent({
  subject: 'evt.gateway.user.locale-changed',
  payload: Type.Object({ userId: Type.String(), locale: AccountLocale, changedAt: Timestamp }),
});

/** A user asked to confirm an email address (notify: send the verification link). */
export const emailVerificationRequested = defineEvent({
  subject: 'evt.gateway.email-verification.requested',
  payload: EmailLinkPayload,
});

/** Someone asked to reset the password of an existing account (notify: send the reset link). */
export const passwordResetRequested = defineEvent({
  subject: 'evt.gateway.password-reset.requested',
  payload: EmailLinkPayload,
});

/** A password was changed by a reset (notify: tell the owner, in case it was not them). */
export const passwordChanged = defineEvent({
  subject: 'evt.gateway.password.changed',
  payload: Type.Object({
    userId: Type.String(),
    email: Type.String(),
    name: Type.String(),
    locale: EventLocale,
    changedAt: Timestamp,
  }),
});

/** An ADMIN changed an account's role (transparency: audit). */
export const userRoleChanged = defineEvent({
  subject: 'evt.gateway.user.role-changed',
  payload: Type.Object({
    userId: Type.String(),
    role: RoleSchema,
    previousRole: RoleSchema,
    changedBy: Type.String(),
  }),
});

/**
 * Sessions to forget at once on every gateway replica: one session (sign-out) or all of an account's
 * (password reset, role change). Replicas cache live sessions; this keeps revocation immediate everywhere.
 */
export const sessionsChanged = defineSignal({
  subject: 'sig.gateway.sessions.changed',
  payload: Type.Union([
    Type.Object({ sessionId: Type.String() }, { additionalProperties: false }),
    Type.Object({ userId: Type.String() }, { additionalProperties: false }),
  ]),
});

/**
 * A caller wrote through one gateway replica: every replica sends that caller's reads to the primary database until
 * `until` (epoch milliseconds), so a read through another replica sees the write too (docs/read-replicas.md).
 */
export const recentWrite = defineSignal({
  subject: 'sig.gateway.caller.wrote',
  payload: Type.Object({ key: Type.String(), until: Type.Integer() }, { additionalProperties: false }),
});
