import { AppError } from '@rootline/contracts';

/** The display name of a registered account, or null when no account has the id. */
export type AccountName = (id: string) => Promise<string | null>;

/** A party as a request names it: an id, and a name that may be left out. */
export interface GivenParty {
  id: string;
  name?: string;
}

/** Ids that start so are accounts' (ADR 006): a party without an account is given another id. */
const ACCOUNT_ID_PREFIX = 'usr_';

/** Names compared as a person would: case and runs of spaces aside. */
const sameName = (a: string, b: string) =>
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

const refused = (field: string, message: string, reason: string) =>
  new AppError('VALIDATION_ERROR', `${field}: ${message}`, { field, reason });

/**
 * The party a record names, with the name it may carry (ADR 176). An account's party carries the account's display
 * name at the time of writing: a name left out is filled in, the account's own name is accepted (recorded as the
 * account writes it), any other is VALIDATION_ERROR naming `<field>.name` (`reason: not-account-name`). Where the
 * record needs an account (`account: 'required'`: a plant's owner, an event's handler), an id of no account is
 * VALIDATION_ERROR naming `<field>.id`. Otherwise a party without an account (a shop, a co-op) keeps the name the
 * caller states, under an id that is not an account's (`usr_…` ids are accounts' only).
 */
export async function boundParty(
  given: GivenParty,
  field: string,
  accountName: AccountName,
  account: 'required' | 'optional',
): Promise<{ id: string; name: string }> {
  const name = await accountName(given.id);
  if (name !== null) {
    if (given.name !== undefined && !sameName(given.name, name)) {
      throw refused(
        `${field}.name`,
        `is not the name of account ${given.id}: leave it out (it is filled in) or send the account's own name`,
        'not-account-name',
      );
    }
    return { id: given.id, name };
  }
  if (account === 'required') throw refused(`${field}.id`, `no account has the id ${given.id}`, 'not-an-account');
  if (given.id.startsWith(ACCOUNT_ID_PREFIX)) {
    throw refused(
      `${field}.id`,
      `no account has the id ${given.id}; a party without an account is named by an id not starting with ${ACCOUNT_ID_PREFIX}`,
      'not-an-account',
    );
  }
  if (given.name === undefined) {
    throw refused(`${field}.name`, 'give the name of a party without an account', 'name-required');
  }
  return { id: given.id, name: given.name };
}
