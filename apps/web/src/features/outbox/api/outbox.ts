import { idempotencyKey } from '@rootline/sdk';
import { actingAs } from '../../../lib/acting-as';
import { api } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { SESSION } from '../../auth/api/session';
import { classify, nextStep, type OutboxItem } from '../lib/order';
import { asError, sendItem } from './send';
import { addItem, canKeep, deleteItem, forgetOld, getItem, itemsOf, updateItem } from './store';

/** The tag of the Background Sync that sends the outbox where the browser has it. */
export const SYNC_TAG = 'rootline-outbox';
/** The message a service worker posts to the page to have the outbox sent. */
export const SYNC_MESSAGE = 'outbox-sync';

/**
 * A write as a form makes it: what the outbox keeps until it is sent. `replaces`: the refused item the form was
 * opened to edit, removed once this write is sent or kept.
 */
export type NewWrite = Pick<
  OutboxItem,
  'account' | 'kind' | 'plantName' | 'plantId' | 'eventKind' | 'body' | 'file'
> & {
  replaces?: string | undefined;
};

/** What "Edit" on a refused item hands its form (as the router's location state): the item and its fields. */
export interface OutboxEdit {
  id: string;
  kind: OutboxItem['kind'];
  body: Record<string, unknown>;
  /** A journey event's kind (the last segment of its path, not in its body). */
  eventKind?: string | undefined;
}

/**
 * The refused item of `kind` a form was opened to edit, from the router's location state; null when it was opened
 * plainly (or to edit another kind of write).
 */
export function outboxEditOf(state: unknown, kind: OutboxItem['kind']): OutboxEdit | null {
  const edit = (state as { outboxEdit?: Partial<OutboxEdit> } | null)?.outboxEdit;
  return typeof edit?.id === 'string' && edit.kind === kind && edit.body && typeof edit.body === 'object'
    ? (edit as OutboxEdit)
    : null;
}

/** What became of a write: sent (with the record made), or kept on this device to be sent later. */
export type Sent<T> = { status: 'sent'; data: T } | { status: 'kept'; itemId: string };

/** The account whose writes this tab sends: the one signed in, confirmed by the API (null when none is). */
let active: string | null = null;

/** Sets the account whose writes are sent (null while none is signed in, or none is confirmed). */
export function setOutboxAccount(account: string | null): void {
  active = account;
}

/**
 * Sends the signed-in account's waiting writes, in order, now. Called on the `online` event, on app start, every so
 * often while writes wait, and when the service worker posts `{ type: 'outbox-sync' }`. Another tab already sending
 * them is left to it. Resolves with the number sent.
 */
export async function flushOutbox(): Promise<number> {
  const account = active;
  if (!account) return 0;
  // The session is asked first: another tab may have signed in as someone else, whose session would send (and
  // have refused) this account's writes. Unreachable, nothing could be sent anyway.
  const signedIn = await signedInAs();
  if (signedIn !== account) {
    if (signedIn !== undefined) void queryClient.invalidateQueries({ queryKey: SESSION });
    return 0;
  }
  return (await withLock(account, false, () => drain(account, true))) ?? 0;
}

/** The id of the account the browser's session is for: null when signed out, undefined when it cannot be told. */
async function signedInAs(): Promise<string | null | undefined> {
  try {
    const answer = await api.GET('/api/auth/session');
    if (answer.data) return answer.data.data.user.id;
    return answer.response.status === 401 ? null : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends a write at once, or keeps it on this device when Rootline cannot be reached (offline, the fetch fails, or
 * the gateway answers 502/503/504): it goes at the end of its account's queue, with its Idempotency-Key, and the
 * queue is sent in order. A write the API refuses now is not kept: its error is thrown, as before, for the form.
 */
export async function sendOrKeep<T>({ replaces, ...write }: NewWrite): Promise<Sent<T>> {
  const sent = await sendOrKeepWrite<T>(write);
  // The write went through or is kept: the refused item it was edited from has no more use.
  if (replaces) await deleteItem(replaces).catch(() => {});
  return sent;
}

async function sendOrKeepWrite<T>(given: Omit<NewWrite, 'replaces'>): Promise<Sent<T>> {
  const id = idempotencyKey();
  // The organization the tab acts for now goes with the write: it is sent for it even if the tab acts otherwise later.
  const write = { ...given, actAs: actingAs() };
  if (!write.account || !(await canKeep())) {
    const attempt = await sendItem(
      { ...write, id, seq: 0, createdAt: '', state: 'waiting', attempts: 0 },
      write.plantId,
    );
    if (attempt.data) return { status: 'sent', data: attempt.data as T };
    if (attempt.refusal) throw asError(attempt.refusal);
    throw new TypeError('Failed to fetch');
  }
  await addItem({ ...write, id, createdAt: new Date().toISOString(), state: 'waiting', attempts: 0 });
  if (typeof navigator === 'undefined' || navigator.onLine !== false) {
    // After the writes kept before it: the queue keeps its order even when the network is back.
    await withLock(write.account, true, () => drain(write.account, false));
  }
  const after = await getItem(id);
  if (after?.state === 'sent' && after.result) {
    // Sent at once: never kept, so not listed in the outbox either.
    await deleteItem(id);
    return { status: 'sent', data: after.result.data as T };
  }
  if (after?.state === 'refused' && after.refusal) {
    await deleteItem(id);
    throw asError(after.refusal);
  }
  void registerSync();
  return { status: 'kept', itemId: id };
}

/** The name of a plant the app has read (its page is open), for the sentence of a write about it. */
export function plantNameOf(plantId: string): string {
  return queryClient.getQueryData<{ commonName?: string }>(['plants', 'plant', plantId])?.commonName ?? plantId;
}

/** Removes a write from the outbox: it is not sent. */
export function discardItem(id: string): Promise<void> {
  return deleteItem(id);
}

/**
 * Sends the account's waiting writes one by one, oldest first, until none waits or one gets no answer (then the rest
 * wait too: they stay in order). A refused write stays listed with its reason; the ones after it go on. `background`:
 * stop as soon as the tab's signed-in account is another.
 */
async function drain(account: string, background: boolean): Promise<number> {
  let sent = 0;
  const settledAt = () => new Date().toISOString();
  for (;;) {
    if (background && active !== account) break;
    const step = nextStep(await itemsOf(account), account);
    if (!step) break;
    if (step.action === 'refuse') {
      await updateItem(step.item.id, (i) => ({
        ...i,
        state: 'refused',
        refusal: step.refusal,
        settledAt: settledAt(),
      }));
      continue;
    }
    const attempt = await sendItem(step.item, step.plantId);
    const verdict = classify(attempt.outcome);
    if (verdict === 'sent' && attempt.data) {
      const data = attempt.data;
      const plantId = step.item.kind === 'plant' ? data.id : step.plantId;
      await updateItem(step.item.id, (i) => ({
        ...i,
        plantId: i.kind === 'plant' ? '' : plantId,
        state: 'sent',
        file: null,
        result: { id: data.id, plantId, data },
        settledAt: settledAt(),
      }));
      sent++;
      continue;
    }
    if (verdict === 'refused' && attempt.refusal) {
      const refusal = attempt.refusal;
      await updateItem(step.item.id, (i) => ({ ...i, state: 'refused', refusal, settledAt: settledAt() }));
      continue;
    }
    await updateItem(step.item.id, (i) => ({ ...i, attempts: i.attempts + 1 }));
    break;
  }
  await forgetOld(account, new Date()).catch(() => {});
  if (sent > 0) {
    for (const key of ['plants', 'journeys', 'environment', 'media']) {
      void queryClient.invalidateQueries({ queryKey: [key] });
    }
  }
  return sent;
}

/**
 * Runs `fn` holding the account's Web Lock, so two tabs never send the same write at once. `wait`: queue behind a
 * tab that holds it (a form waiting for its own write); else skip when it is taken (that tab is sending).
 */
async function withLock<T>(account: string, wait: boolean, fn: () => Promise<T>): Promise<T | undefined> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return fn();
  return locks.request(`rootline-outbox:${account}`, wait ? {} : { ifAvailable: true }, (lock) =>
    lock ? fn() : undefined,
  );
}

/** Asks the service worker for a Background Sync of the outbox, where the browser has it and a worker is active. */
async function registerSync(): Promise<void> {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    const sync = (
      registration as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined
    )?.sync;
    if (registration?.active && sync) await sync.register(SYNC_TAG);
  } catch {
    // No worker, or the browser declined: the online event, the next start and the timer still send it.
  }
}
