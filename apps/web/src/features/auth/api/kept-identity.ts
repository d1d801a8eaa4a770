import type { components } from '@rootline/sdk';
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

type ApiUser = components['schemas']['User'];

/** What the device keeps of the signed-in person: what the header and the forms need, nothing else (ADR 252). */
export type KeptIdentity = Pick<ApiUser, 'id' | 'name' | 'locale' | 'role'>;

interface IdentityDb extends DBSchema {
  identity: { key: string; value: KeptIdentity };
}

/** Beside the outbox's database (`rootline-outbox`), which is already per account. */
const DB_NAME = 'rootline-identity';
const KEY = 'signed-in';

let opened: Promise<IDBPDatabase<IdentityDb>> | null = null;

function db(): Promise<IDBPDatabase<IdentityDb>> {
  opened ??= openDB<IdentityDb>(DB_NAME, 1, {
    upgrade(database) {
      database.createObjectStore('identity');
    },
  }).catch((err: unknown) => {
    opened = null;
    throw err;
  });
  return opened;
}

/** Keeps the signed-in person's identity on the device (only the fields of `KeptIdentity`). */
export async function keepIdentity(user: KeptIdentity): Promise<void> {
  const kept: KeptIdentity = { id: user.id, name: user.name, locale: user.locale, role: user.role };
  try {
    await (await db()).put('identity', kept, KEY);
  } catch {
    // IndexedDB refused (private mode): offline, the app then shows the signed-out menu.
  }
}

/** The identity kept on the device, if any. */
export async function keptIdentity(): Promise<KeptIdentity | undefined> {
  try {
    return await (await db()).get('identity', KEY);
  } catch {
    return undefined;
  }
}

/** Forgets the kept identity: on sign-out and when the API says the session is gone (a 401). */
export async function forgetIdentity(): Promise<void> {
  try {
    await (await db()).delete('identity', KEY);
  } catch {
    // Nothing could be kept either.
  }
}
