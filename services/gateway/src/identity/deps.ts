import type { Db, Outbox } from '@rootline/db';
import type { Passwords } from './passwords.js';

/** What the identity operations work with: the gateway's database and outbox, and password hashing. */
export interface IdentityDeps {
  db: Db;
  outbox: Outbox;
  passwords: Passwords;
}
