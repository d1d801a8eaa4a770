import { randomBytes } from 'node:crypto';
import { AppError, type CallContext, newId, type RefusalReason, userRegistered } from '@rootline/contracts';
import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { findLinkedUserId, linkOAuthAccount } from '../db/oauth-accounts.repo.js';
import type { SessionRow } from '../db/sessions.repo.js';
import { findUserByEmail, findUserById, insertUser, isUniqueViolation, type UserRow } from '../db/users.repo.js';
import type { IdentityDeps } from '../deps.js';
import { decideLink } from '../domain/account-linking.js';
import { normalizeEmail } from '../domain/email.js';
import { open, seal } from '../domain/sealed.js';
import { safeEqual } from '../domain/secrets.js';
import type { Sessions } from '../sessions.js';
import { type OAuthProfile, type OAuthProvider, ProviderError } from './providers.js';

/** How long a started third-party sign-in may take before its state cookie expires. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

/** What the state cookie keeps between the redirect and the callback. */
interface PendingSignIn {
  provider: string;
  state: string;
  verifier: string;
  nonce: string;
  returnTo: string;
}

export interface OAuthFlowOptions {
  providers: readonly OAuthProvider[];
  /** The public address of the API; callbacks are `<publicUrl>/api/auth/callback/<provider>`. */
  publicUrl: string | undefined;
  /** Key that seals the state cookie. */
  stateKey: Buffer;
  sessions: Sessions;
}

/** An unguessable value for the `state` or `nonce` parameter (24 random bytes, 32 characters). */
const randomValue = () => randomBytes(24).toString('base64url');

const failed = (message: string, reason: RefusalReason) => new AppError('UNAUTHORIZED', message, { reason });

/** Third-party sign-in: the redirect to the provider, and the callback that ends in a session. */
export function createOAuthFlow(deps: IdentityDeps, opts: OAuthFlowOptions) {
  const byId = new Map(opts.providers.map((p) => [p.id as string, p]));
  const base = opts.publicUrl?.replace(/\/$/, '');
  if (opts.providers.length > 0 && !base) {
    throw new Error('PUBLIC_URL must be set when a sign-in provider is enabled (it forms the callback address)');
  }
  const callbackUrl = (provider: string) => `${base}/api/auth/callback/${provider}`;

  const provider = (id: string): OAuthProvider => {
    const p = byId.get(id);
    if (!p) throw new AppError('NOT_FOUND', `Sign-in provider ${id} is not enabled`);
    return p;
  };

  /** Creates the account for a new person, linked to the provider identity, with its confirmed address. */
  async function createAccount(p: OAuthProvider, profile: OAuthProfile, email: string, ctx: CallContext) {
    return deps.db.transaction(async (tx) => {
      const user = await insertUser(tx, {
        id: newId('usr', deps.clock.now().getTime()),
        email,
        name: (profile.name ?? email.split('@')[0] ?? email).slice(0, 100),
        role: 'USER',
        passwordHash: null,
        emailVerifiedAt: deps.clock.now(),
      });
      await linkOAuthAccount(tx, { provider: p.id, providerAccountId: profile.accountId, userId: user.id, email });
      await deps.outbox.enqueue(
        tx,
        userRegistered,
        {
          userId: user.id,
          email,
          name: user.name,
          locale: null,
          method: p.id,
          registeredAt: user.createdAt.toISOString(),
        },
        ctx,
      );
      return user;
    });
  }

  async function accountFor(p: OAuthProvider, profile: OAuthProfile, ctx: CallContext): Promise<UserRow> {
    const email = profile.email ? normalizeEmail(profile.email) : null;
    const linkedUserId = await findLinkedUserId(deps.db, p.id, profile.accountId);
    const existing = email && !linkedUserId ? await findUserByEmail(deps.db, email) : null;
    const decision = decideLink({
      linkedUserId,
      providerEmailVerified: email !== null && profile.emailVerified,
      existing: existing ? { id: existing.id, emailVerified: existing.emailVerifiedAt !== null } : null,
    });
    switch (decision.action) {
      case 'sign-in':
      case 'link': {
        if (decision.action === 'link') {
          await linkOAuthAccount(deps.db, {
            provider: p.id,
            providerAccountId: profile.accountId,
            userId: decision.userId,
            email,
          });
        }
        const user = await findUserById(deps.db, decision.userId);
        if (!user) throw failed('The linked account no longer exists', 'ACCOUNT_GONE');
        return user;
      }
      case 'create':
        try {
          return await createAccount(p, profile, email!, ctx);
        } catch (err) {
          if (isUniqueViolation(err)) {
            throw new AppError('DUPLICATE', 'This identity or address was linked at the same moment; sign in again');
          }
          throw err;
        }
      case 'refuse':
        if (decision.reason === 'EMAIL_NOT_VERIFIED') {
          throw failed(`${p.name} did not confirm an email address for this account`, decision.reason);
        }
        throw new AppError(
          'DUPLICATE',
          `An account with this email address exists but has not confirmed it: sign in with its password and ` +
            `confirm the address, then sign in with ${p.name}`,
          { reason: decision.reason },
        );
    }
  }

  return {
    /** The enabled providers, for GET /api/auth/providers. */
    providers: opts.providers,
    callbackUrl,

    /**
     * Starts a sign-in: a fresh state, PKCE verifier and nonce, sealed into a short-lived cookie value, and
     * the provider's authorisation URL carrying the state, the S256 challenge and the nonce.
     */
    async begin(providerId: string, returnTo: string): Promise<{ redirectUrl: string; cookie: string }> {
      const p = provider(providerId);
      const verifier = randomPKCECodeVerifier();
      const pending: PendingSignIn = { provider: p.id, state: randomValue(), verifier, nonce: randomValue(), returnTo };
      const redirectUrl = await p.authorizationUrl({
        redirectUri: callbackUrl(p.id),
        state: pending.state,
        nonce: pending.nonce,
        codeChallenge: await calculatePKCECodeChallenge(verifier),
      });
      return { redirectUrl, cookie: seal(opts.stateKey, pending, deps.clock.now().getTime() + OAUTH_STATE_TTL_MS) };
    },

    /**
     * Completes a sign-in: the state must match the sealed cookie (so the callback belongs to a sign-in this
     * browser started), the code is redeemed with the PKCE verifier, and the profile leads to an account
     * (see `decideLink`) and a new session.
     */
    async complete(
      providerId: string,
      query: { code?: string; state?: string; error?: string },
      cookie: string | undefined,
      ctx: CallContext,
    ): Promise<{ user: UserRow; session: SessionRow; returnTo: string }> {
      const p = provider(providerId);
      const pending = open<PendingSignIn>(opts.stateKey, cookie, deps.clock.now().getTime());
      if (!pending || pending.provider !== p.id) {
        throw failed('No sign-in is in progress in this browser, or it expired: start again', 'STATE_MISSING');
      }
      if (!query.state || !safeEqual(query.state, pending.state)) {
        throw failed('The sign-in state does not match: start again', 'STATE_MISMATCH');
      }
      if (query.error) throw failed(`${p.name} refused the sign-in (${query.error.slice(0, 100)})`, 'PROVIDER_REFUSED');
      if (!query.code) throw failed(`${p.name} sent no authorisation code`, 'CODE_MISSING');
      let profile: OAuthProfile;
      try {
        profile = await p.exchange({
          callback: { code: query.code, state: query.state },
          state: pending.state,
          redirectUri: callbackUrl(p.id),
          codeVerifier: pending.verifier,
          nonce: pending.nonce,
        });
      } catch (err) {
        if (err instanceof ProviderError)
          throw failed(`Sign-in with ${p.name} failed: ${err.message}`, 'PROVIDER_ERROR');
        throw err;
      }
      const user = await accountFor(p, profile, ctx);
      const session = await opts.sessions.start(user, p.id);
      return { user, session, returnTo: pending.returnTo };
    },
  };
}

export type OAuthFlow = ReturnType<typeof createOAuthFlow>;
