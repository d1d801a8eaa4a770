import { AppError, type RefusalReason } from '@rootline/contracts';

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

const refused = (field: string, message: string, reason: RefusalReason) =>
  new AppError('VALIDATION_ERROR', `${field}: ${message}`, { field, reason });

/** A party as the gateway sends it on: `nameStatedBy` (the caller's account name) only for one without an account. */
export interface BoundParty {
  id: string;
  name: string;
  nameStatedBy?: string;
}

/**
 * The party a record names, with the name it may carry (ADR 176). An account's party carries the account's display
 * name at the time of writing: a name left out is filled in, the account's own name is accepted (recorded as the
 * account writes it), any other is VALIDATION_ERROR naming `<field>.name` (`reason: not-account-name`). A party
 * without an account (a shop, a co-op: an id no account has) keeps the name the caller states, with who stated it
 * (`nameStatedBy`: `statedBy`, the caller's account name, whatever the body says; ADR 195); without a name it is
 * VALIDATION_ERROR naming `<field>.name` (`reason: name-required`).
 */
export async function boundParty(
  given: GivenParty,
  field: string,
  accountName: AccountName,
  statedBy: string,
): Promise<BoundParty> {
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
  if (given.name === undefined) {
    throw refused(`${field}.name`, `no account has the id ${given.id}: state the party's name`, 'name-required');
  }
  return { id: given.id, name: given.name, nameStatedBy: statedBy };
}

/** The display names of those of `ids` that are accounts (an id of no account is absent). */
export type AccountNames = (ids: readonly string[]) => Promise<ReadonlyMap<string, string>>;

/**
 * `lookup` with each id's answer (a name, or no account) remembered for `ttlMs`, so the hot public reads (a plant, a
 * page of search hits) need no query for owners seen within that time. At most `max` ids are kept, the oldest going
 * first; a rename shows everywhere within `ttlMs`. `ttlMs` 0 asks `lookup` every time.
 */
export function cachedAccountNames(
  lookup: AccountNames,
  opts: { ttlMs: number; max: number; now: () => number },
): AccountNames {
  if (opts.ttlMs <= 0) return lookup;
  const kept = new Map<string, { name: string | null; until: number }>();
  return async (ids) => {
    const now = opts.now();
    const names = new Map<string, string>();
    const missing: string[] = [];
    for (const id of ids) {
      const hit = kept.get(id);
      if (hit && hit.until > now) {
        if (hit.name !== null) names.set(id, hit.name);
      } else missing.push(id);
    }
    if (missing.length === 0) return names;
    const found = await lookup(missing);
    const until = now + opts.ttlMs;
    for (const id of missing) {
      const name = found.get(id) ?? null;
      if (name !== null) names.set(id, name);
      kept.delete(id);
      kept.set(id, { name, until });
      if (kept.size > opts.max) kept.delete(kept.keys().next().value as string);
    }
    return names;
  };
}

/** The keys under which an answer names a party (`RecordedParty`): a plant's owner, an event's handler and recipient. */
const PARTY_KEYS: ReadonlySet<string> = new Set(['owner', 'handler', 'recipient']);

interface PartyShape {
  id: string;
  name: string;
  accountName?: string;
  statedBy?: { id: string | null; name: string };
}

const isParty = (v: unknown): v is PartyShape =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as PartyShape).id === 'string' &&
  typeof (v as PartyShape).name === 'string';

/** Every party the answer names, however deep (a plant, a page of plants, a lineage, a journey). */
function partiesIn(value: unknown, found: PartyShape[]): PartyShape[] {
  if (Array.isArray(value)) {
    for (const item of value) partiesIn(item, found);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      if (PARTY_KEYS.has(key) && isParty(v)) found.push(v);
      else if (typeof v === 'object') partiesIn(v, found);
    }
  }
  return found;
}

/**
 * The answer with the current account names beside the recorded ones (ADR 194): a party whose account's display
 * name is now another than the one recorded gets `accountName`, and who stated the name of a party without an
 * account is shown under their account's current name. The recorded names, those on the ledger, stay as they are.
 * One lookup of all the ids the answer names. Changes the answer in place and returns it.
 */
export async function withAccountNames<T>(answer: T, accountNames: AccountNames): Promise<T> {
  const parties = partiesIn(answer, []);
  if (parties.length === 0) return answer;
  const ids = new Set<string>();
  for (const p of parties) {
    ids.add(p.id);
    if (p.statedBy?.id) ids.add(p.statedBy.id);
  }
  const names = await accountNames([...ids]);
  for (const p of parties) {
    const current = names.get(p.id);
    if (current !== undefined && current !== p.name) p.accountName = current;
    const stater = p.statedBy?.id ? names.get(p.statedBy.id) : undefined;
    if (p.statedBy && stater !== undefined) p.statedBy.name = stater;
  }
  return answer;
}
