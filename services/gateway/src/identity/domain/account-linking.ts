/** What a third-party sign-in leads to. */
export type LinkDecision =
  | { action: 'sign-in'; userId: string }
  | { action: 'link'; userId: string }
  | { action: 'create' }
  | { action: 'refuse'; reason: 'EMAIL_NOT_VERIFIED' | 'ACCOUNT_NOT_LINKED' };

export interface LinkFacts {
  /** The account already linked to this provider identity, if any. */
  linkedUserId: string | null;
  /** Whether the provider vouches for the email address it returned (null when it returned none). */
  providerEmailVerified: boolean;
  /** The local account with the same email address, if any. */
  existing: { id: string; emailVerified: boolean } | null;
}

/**
 * Decides a third-party sign-in. An identity already linked signs in. Otherwise the provider must vouch for
 * the email address; then a new address creates an account, and an address that an account has itself
 * confirmed is linked to it (both sides proved ownership of the same mailbox). An account whose address was
 * never confirmed is not linked: whoever registered it may not own the mailbox, and linking would hand the
 * account to them (pre-registration takeover). Its owner signs in with the password and confirms the address.
 */
export function decideLink(facts: LinkFacts): LinkDecision {
  if (facts.linkedUserId) return { action: 'sign-in', userId: facts.linkedUserId };
  if (!facts.providerEmailVerified) return { action: 'refuse', reason: 'EMAIL_NOT_VERIFIED' };
  if (!facts.existing) return { action: 'create' };
  if (!facts.existing.emailVerified) return { action: 'refuse', reason: 'ACCOUNT_NOT_LINKED' };
  return { action: 'link', userId: facts.existing.id };
}
