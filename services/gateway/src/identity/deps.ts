import type { Db, Outbox } from '@rootline/db';
import type { Clock } from '@rootline/host';
import type { Passwords } from './passwords.js';

/** A change that ends sessions: one session, or every session of an account. */
export type SessionChange = { sessionId: string } | { userId: string };

/** What the identity operations work with: the gateway's database and outbox, and password hashing. */
export interface IdentityDeps {
  db: Db;
  outbox: Outbox;
  passwords: Passwords;
  /** Time of expiries, verification and change stamps. */
  clock: Clock;
  /** Tells every replica (this one included) to forget cached sessions; called after the change commits. */
  announceSessionChange(change: SessionChange): Promise<void>;
}
