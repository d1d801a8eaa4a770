import { AppError } from '@rootline/contracts';

/** The display name of a registered account, or null when no account has the id. */
export type AccountName = (id: string) => Promise<string | null>;

/** A party as a request names it: an id, and a name that may be left out. */
export interface GivenParty {
  id: string;
  name?: string;
}

/** Names compared as a person would: case and runs of spaces aside. */
const sameName = (a: string, b: string) =>
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

const refused = (field: string, message: string, reason: string) =>
  new AppError('VALIDATION_ERROR', `${field}: ${message}`, { field, reason });

/**
 * The party a record names, with the name it may carry (ADR 176). An account's party carries the account's display
 * name at the time of writing: a name left out is filled in, the account's own name is accepted (recorded as the
 * account writes it), any other is VALIDATION_ERROR naming `<field>.name` (`reason: not-account-name`). A party
 * without an account (a shop, a co-op: an id no account has) keeps the name the caller states (`stated: true`);
 * without one it is VALIDATION_ERROR naming `<field>.name` (`reason: name-required`).
 */
export async function boundParty(
  given: GivenParty,
  field: string,
  accountName: AccountName,
): Promise<{ id: string; name: string; stated: boolean }> {
  const name = await accountName(given.id);
  if (name !== null) {
    if (given.name !== undefined && !sameName(given.name, name)) {
      throw refused(
        `${field}.name`,
        `is not the name of account ${given.id}: leave it out (it is filled in) or send the account's own name`,
        'not-account-name',
      );
    }
    return { id: given.id, name, stated: false };
  }
  if (given.name === undefined) {
    throw refused(`${field}.name`, `no account has the id ${given.id}: state the party's name`, 'name-required');
  }
  return { id: given.id, name: given.name, stated: true };
}
