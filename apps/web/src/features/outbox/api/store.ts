import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import { forgettable, nextSeq, type OutboxItem } from '../lib/order';

/** The outbox in IndexedDB: one store of items by id, with an index by account (ADR 228). */
interface OutboxDb extends DBSchema {
  items: { key: string; value: OutboxItem; indexes: { account: string } };
}

const DB_NAME = 'rootline-outbox';
const CHANNEL = 'rootline-outbox';

let opened: Promise<IDBPDatabase<OutboxDb>> | null = null;

function db(): Promise<IDBPDatabase<OutboxDb>> {
  opened ??= openDB<OutboxDb>(DB_NAME, 1, {
    upgrade(database) {
      const items = database.createObjectStore('items', { keyPath: 'id' });
      items.createIndex('account', 'account');
    },
  }).catch((err: unknown) => {
    opened = null;
    throw err;
  });
  return opened;
}

/** Whether this browser can keep writes (IndexedDB opens): without it, a write is sent at once or fails. */
export async function canKeep(): Promise<boolean> {
  try {
    await db();
    return true;
  } catch {
    return false;
  }
}

const listeners = new Set<() => void>();
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
channel?.addEventListener('message', () => {
  for (const l of listeners) l();
});

/** Tells this tab's and the other tabs' views that the outbox changed. */
function changed(): void {
  for (const l of listeners) l();
  channel?.postMessage('changed');
}

/** Calls `listener` whenever the outbox changes, in this tab or another; returns the unsubscribe. */
export function onOutboxChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The account's items (any order). */
export async function itemsOf(account: string): Promise<OutboxItem[]> {
  return (await db()).getAllFromIndex('items', 'account', account);
}

export async function getItem(id: string): Promise<OutboxItem | undefined> {
  return (await db()).get('items', id);
}

/** Adds a write at the end of its account's queue (its place is taken in the same transaction as the add). */
export async function addItem(item: Omit<OutboxItem, 'seq'>): Promise<OutboxItem> {
  const tx = (await db()).transaction('items', 'readwrite');
  const mine = await tx.store.index('account').getAll(item.account);
  const added = { ...item, seq: nextSeq(mine, item.account) };
  await tx.store.put(added);
  await tx.done;
  changed();
  return added;
}

/** Changes an item that is still there (a discarded one stays gone). */
export async function updateItem(id: string, change: (item: OutboxItem) => OutboxItem): Promise<void> {
  const tx = (await db()).transaction('items', 'readwrite');
  const item = await tx.store.get(id);
  if (item) await tx.store.put(change(item));
  await tx.done;
  changed();
}

export async function deleteItem(id: string): Promise<void> {
  await (await db()).delete('items', id);
  changed();
}

/** Deletes the account's sent items that are no longer worth listing. */
export async function forgetOld(account: string, now: Date): Promise<void> {
  const gone = forgettable(await itemsOf(account), now);
  if (gone.length === 0) return;
  const tx = (await db()).transaction('items', 'readwrite');
  await Promise.all([...gone.map((i) => tx.store.delete(i.id)), tx.done]);
  changed();
}
