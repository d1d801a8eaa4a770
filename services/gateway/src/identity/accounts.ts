import {
  type Actor,
  AppError,
  type CallContext,
  type emailLinkIssue,
  emailVerificationRequested,
  type Locale,
  newId,
  passwordChanged,
  passwordResetRequested,
  type RefusalReason,
  type ReplyOf,
  type Role,
  type User,
  userLocaleChanged,
  userRegistered,
  userRoleChanged,
} from '@rootline/contracts';
import { APP_PAGES } from '@rootline/contracts/app-links';
import type { Db } from '@rootline/db';
import { sql } from 'drizzle-orm';
import {
  consumeAccountToken,
  findAccountToken,
  rekeyAccountToken,
  replaceAccountToken,
} from './db/account-tokens.repo.js';
import { type AccountTokenPurpose, users } from './db/schema.js';
import { revokeUserSessions } from './db/sessions.repo.js';
import {
  countByRole,
  findUserByEmail,
  findUserById,
  findUserNames,
  insertUser,
  isUniqueViolation,
  listUsers,
  markEmailVerified,
  setLocale,
  setPasswordHash,
  setRole,
  type UserFilter,
  type UserRow,
} from './db/users.repo.js';
import type { IdentityDeps } from './deps.js';
import { normalizeEmail } from './domain/email.js';
import { passwordPolicyViolation } from './domain/password-policy.js';
import { hashSecret, randomSecret } from './domain/secrets.js';
import { userView } from './views.js';

/** How long emailed links work. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const VERIFICATION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** Web pages the emailed links open; notify prefixes the public web address. */
const LINK_PATH: Record<AccountTokenPurpose, string> = {
  'password-reset': APP_PAGES.resetPassword,
  'email-verification': APP_PAGES.verifyEmail,
};

/** A password that breaks the policy: 400 naming the field. */
export function weakPassword(problem: string, field = 'body/password'): AppError {
  const reason = PASSWORD_REASONS.find(([pattern]) => pattern.test(problem))?.[1];
  return new AppError('VALIDATION_ERROR', `${field} ${problem}`, [
    { field, message: problem, ...(reason ? { reason } : {}) },
  ]);
}

/** The reason code of each of the password policy's problems (`passwordPolicyViolation`). */
const PASSWORD_REASONS: readonly [RegExp, RefusalReason][] = [
  [/at least/, 'password-too-short'],
  [/at most/, 'password-too-long'],
  [/repeated/, 'password-repeated'],
  [/too common/, 'password-common'],
  [/email/, 'password-is-email'],
];

const invalidLink = (field = 'body/token') =>
  new AppError('VALIDATION_ERROR', `${field} is invalid, used or expired`, [
    { field, message: 'is invalid, used or expired', reason: 'link-invalid' },
  ]);

const duplicateEmail = () =>
  new AppError('DUPLICATE', 'An account with this email address already exists', {
    field: 'body/email',
    reason: 'email-taken',
  });

/**
 * Creates a one-time link for an account in the caller's transaction and enqueues the event that asks notify
 * to send it. The event names the link, never its secret: the secret is minted when the email is sent
 * (`issueEmailLink`), so no stored event or outbox row holds it. Until then the row holds the hash of a
 * secret nobody knows.
 */
async function issueAccountToken(
  deps: IdentityDeps,
  tx: Db,
  user: UserRow,
  purpose: AccountTokenPurpose,
  ctx: CallContext,
): Promise<void> {
  const ttl = purpose === 'password-reset' ? RESET_TOKEN_TTL_MS : VERIFICATION_TOKEN_TTL_MS;
  const expiresAt = new Date(deps.clock.now().getTime() + ttl);
  const linkId = newId('atk', deps.clock.now().getTime());
  await replaceAccountToken(tx, {
    id: linkId,
    userId: user.id,
    purpose,
    tokenHash: hashSecret(randomSecret()),
    expiresAt,
  });
  const event = purpose === 'password-reset' ? passwordResetRequested : emailVerificationRequested;
  await deps.outbox.enqueue(
    tx,
    event,
    {
      userId: user.id,
      email: user.email,
      name: user.name,
      locale: user.locale ?? null,
      linkId,
      expiresAt: expiresAt.toISOString(),
    },
    ctx,
  );
}

/** Account operations: registration, email verification, password reset, roles. */
export function createAccounts(deps: IdentityDeps) {
  const { db } = deps;

  return {
    /**
     * Registers an account with a password: 409 DUPLICATE for a known address, 400 for a password that
     * breaks the policy. Publishes `user.registered` and an email-verification request.
     */
    async register(
      input: { email: string; password: string; name: string; locale?: Locale },
      ctx: CallContext,
    ): Promise<User> {
      const email = normalizeEmail(input.email);
      const weak = passwordPolicyViolation(input.password, email);
      if (weak) throw weakPassword(weak);
      if (await findUserByEmail(db, email)) throw duplicateEmail();
      const passwordHash = await deps.passwords.hash(input.password);
      try {
        const user = await db.transaction(async (tx) => {
          const row = await insertUser(tx, {
            id: newId('usr', deps.clock.now().getTime()),
            email,
            name: input.name.trim(),
            role: 'USER',
            passwordHash,
            locale: input.locale ?? null,
          });
          await deps.outbox.enqueue(
            tx,
            userRegistered,
            {
              userId: row.id,
              email,
              name: row.name,
              locale: row.locale,
              method: 'password',
              registeredAt: row.createdAt.toISOString(),
            },
            ctx,
          );
          await issueAccountToken(deps, tx, row, 'email-verification', ctx);
          return row;
        });
        return userView(user);
      } catch (err) {
        // Two registrations of one address at the same moment: the unique index decides.
        if (isUniqueViolation(err)) throw duplicateEmail();
        throw err;
      }
    },

    /** Sends a new verification link; false when the address is already confirmed. */
    async requestEmailVerification(userId: string, ctx: CallContext): Promise<boolean> {
      const user = await findUserById(db, userId);
      if (!user) throw new AppError('NOT_FOUND', 'Account not found', { reason: 'account-not-found' });
      if (user.emailVerifiedAt) return false;
      await db.transaction((tx) => issueAccountToken(deps, tx, user, 'email-verification', ctx));
      return true;
    },

    /**
     * The secret of a one-time link, for the email that sends it: a new secret on each call (the previous one
     * stops working), NOT_FOUND when the link is used, replaced or expired. The secret lives only in this
     * reply, never in a stored event.
     */
    async issueEmailLink(linkId: string): Promise<ReplyOf<typeof emailLinkIssue>> {
      const token = randomSecret();
      const link = await rekeyAccountToken(db, linkId, hashSecret(token));
      const user = link && (await findUserById(db, link.userId));
      if (!link || !user)
        throw new AppError('NOT_FOUND', 'The link is used, replaced or expired', { reason: 'link-invalid' });
      return {
        linkId,
        userId: user.id,
        email: user.email,
        name: user.name,
        token,
        expiresAt: link.expiresAt.toISOString(),
        linkPath: `${LINK_PATH[link.purpose]}?token=${encodeURIComponent(token)}`,
      };
    },

    /** Confirms an address with the token from the email (single use). */
    async verifyEmail(token: string): Promise<User> {
      const userId = await consumeAccountToken(db, hashSecret(token), 'email-verification');
      if (!userId) throw invalidLink();
      const user = await markEmailVerified(db, userId);
      if (!user) throw invalidLink();
      return userView(user);
    },

    /**
     * Starts a password reset for the address if an account has it; does nothing otherwise. The caller
     * answers the same either way, so the answer tells nobody whether the address is registered.
     */
    async requestPasswordReset(email: string, ctx: CallContext): Promise<void> {
      const user = await findUserByEmail(db, normalizeEmail(email));
      if (!user) return;
      await db.transaction((tx) => issueAccountToken(deps, tx, user, 'password-reset', ctx));
    },

    /**
     * Sets a new password with the token from the reset email (single use), confirms the address (the link
     * reached its mailbox) and ends every session of the account. Publishes `password.changed`.
     */
    async resetPassword(token: string, password: string, ctx: CallContext): Promise<User> {
      const tokenHash = hashSecret(token);
      // Look before hashing: an invalid token must not cost a slow hash.
      const pending = await findAccountToken(db, tokenHash, 'password-reset');
      if (!pending) throw invalidLink();
      const owner = await findUserById(db, pending.userId);
      if (!owner) throw invalidLink();
      const weak = passwordPolicyViolation(password, owner.email);
      if (weak) throw weakPassword(weak);
      const passwordHash = await deps.passwords.hash(password);
      const user = await db.transaction(async (tx) => {
        const userId = await consumeAccountToken(tx, tokenHash, 'password-reset');
        if (userId !== owner.id) throw invalidLink();
        await setPasswordHash(tx, userId, passwordHash);
        const row = (await markEmailVerified(tx, userId))!;
        await revokeUserSessions(tx, userId);
        await deps.outbox.enqueue(
          tx,
          passwordChanged,
          { userId, email: row.email, name: row.name, locale: row.locale, changedAt: deps.clock.now().toISOString() },
          ctx,
        );
        return row;
      });
      await deps.announceSessionChange({ userId: user.id });
      return userView(user);
    },

    /**
     * Changes an account's role (ADMIN only, checked by the route). The last ADMIN cannot be demoted, so the
     * service never loses its administrators. Publishes `user.role-changed`.
     */
    async changeRole(actor: Actor, userId: string, role: Role, ctx: CallContext): Promise<User> {
      const row = await db.transaction(async (tx) => {
        // Lock the ADMIN rows so two demotions at once cannot both pass the last-ADMIN check.
        await tx.execute(sql`select id from ${users} where ${users.role} = 'ADMIN' for update`);
        const current = await findUserById(tx, userId);
        if (!current) throw new AppError('NOT_FOUND', `Account ${userId} not found`, { reason: 'account-not-found' });
        if (current.role === role) return current;
        if (current.role === 'ADMIN' && (await countByRole(tx, 'ADMIN')) <= 1) {
          throw new AppError('FORBIDDEN', 'The last ADMIN cannot be demoted; promote another account first', {
            reason: 'LAST_ADMIN',
          });
        }
        const updated = (await setRole(tx, userId, role))!;
        await deps.outbox.enqueue(
          tx,
          userRoleChanged,
          { userId, role, previousRole: current.role, changedBy: actor.id },
          ctx,
        );
        return updated;
      });
      // Sessions carry the account's role: every replica must read it afresh.
      await deps.announceSessionChange({ userId });
      return userView(row);
    },

    /** Saves the language its owner chose for an account; publishes `user.locale-changed` for notify. */
    async setLocale(userId: string, locale: Locale | null, ctx: CallContext): Promise<User> {
      const row = await db.transaction(async (tx) => {
        const updated = await setLocale(tx, userId, locale);
        if (!updated) throw new AppError('NOT_FOUND', 'Account not found', { reason: 'account-not-found' });
        await deps.outbox.enqueue(
          tx,
          userLocaleChanged,
          { userId, locale, changedAt: deps.clock.now().toISOString() },
          ctx,
        );
        return updated;
      });
      // Sessions carry the account: every replica reads it afresh.
      await deps.announceSessionChange({ userId });
      return userView(row);
    },

    async listUsers(page: number, limit: number, filter: UserFilter = {}): Promise<{ users: User[]; total: number }> {
      const { rows, total } = await listUsers(db, page, limit, filter);
      return { users: rows.map(userView), total };
    },

    async findUser(userId: string): Promise<UserRow | null> {
      return findUserById(db, userId);
    },

    /** The current display names of those of `ids` that are accounts (ADR 194, ADR 200). */
    async names(ids: readonly string[]): Promise<ReadonlyMap<string, string>> {
      return findUserNames(db, ids);
    },

    /**
     * Creates the first ADMIN from the settings if no account has the address yet. An existing account is
     * left as it is (never promoted: whoever registered the address first may not be the operator).
     */
    async bootstrapAdmin(input: { email: string; password: string; name: string }): Promise<'created' | 'exists'> {
      const email = normalizeEmail(input.email);
      const weak = passwordPolicyViolation(input.password, email);
      if (weak) throw new Error(`ADMIN_PASSWORD ${weak}`);
      if (await findUserByEmail(db, email)) return 'exists';
      const passwordHash = await deps.passwords.hash(input.password);
      try {
        await insertUser(db, {
          id: newId('usr', deps.clock.now().getTime()),
          email,
          name: input.name,
          role: 'ADMIN',
          passwordHash,
          emailVerifiedAt: deps.clock.now(),
        });
        return 'created';
      } catch (err) {
        // Another replica created it at the same moment.
        if (isUniqueViolation(err)) return 'exists';
        throw err;
      }
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
