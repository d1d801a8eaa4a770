/**
 * The outbox's rules, as pure functions: which write goes next, what an answer means for it, which plant it is about
 * once an earlier write has made that plant, and what may be forgotten. No browser API here (ADR 228).
 */

/** The writes that work without a network. */
export type WriteKind = 'plant' | 'event' | 'reading' | 'photo';

/** The journey event kinds a plant's page records (the last segment of `/api/transport/<kind>`). */
export type EventKind = 'planting' | 'growing' | 'harvest' | 'distribution' | 'seed-acquisition' | 'seed-saving';

/** What the API said when it refused a write, kept so the item can show it in words. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  details?: unknown;
}

/** Where a write stands: waiting to be sent, sent (with what it made), or refused (with why). */
export type ItemState = 'waiting' | 'sent' | 'refused';

/** One write kept on this device, for one account. */
export interface OutboxItem {
  /** Also the write's Idempotency-Key: every attempt sends it, so a resend after an unknown outcome is answered once. */
  id: string;
  /** The account that made it: it is sent and shown only while that account is signed in. */
  account: string;
  /**
   * The organization the tab acted for when the write was kept (`Rootline-Act-As`), null when it acted alone: the
   * write is sent for it whatever the tab acts for by then. Absent on items kept before it was recorded.
   */
  actAs?: string | null;
  /** Its place in the account's queue: writes are sent in this order. */
  seq: number;
  /** When it was made (ISO 8601). */
  createdAt: string;
  kind: WriteKind;
  /** The plant's name as the person knows it ("Tomato"), for the item's sentence. */
  plantName: string;
  /**
   * The plant the write is about: its id, or `local:<item id>` for a plant still waiting to be registered, replaced by
   * the real id once that plant is sent. Empty for a plant registration.
   */
  plantId: string;
  /** The journey event kind (`event` only). */
  eventKind?: EventKind;
  /** The request body as the form made it (without `plantId`, which is filled in when sent). */
  body: Record<string, unknown>;
  /** The photo (`photo` only), dropped once sent. */
  file?: { blob: Blob; name: string } | null;
  state: ItemState;
  /** Attempts that did not reach an answer. */
  attempts: number;
  /** What the API refused, when `refused`. */
  refusal?: Refusal;
  /** When `sent`: the id of the record made and the plant it is about, for the link to its page. */
  result?: { id: string; plantId: string; data: unknown };
  /** When it was sent or refused (ISO 8601). */
  settledAt?: string;
}

/** The prefix of a plant id that stands for a plant still waiting to be registered. */
export const LOCAL_REF = 'local:';

/** The placeholder id of the plant a waiting registration will make. */
export const localRef = (itemId: string): string => `${LOCAL_REF}${itemId}`;

/** The code of a write refused because the plant it is about was refused or discarded. */
export const DEPENDENCY_REFUSED = 'DEPENDENCY_REFUSED';

/** The account's items, oldest first. */
export function inOrder(items: readonly OutboxItem[], account: string): OutboxItem[] {
  return items
    .filter((i) => i.account === account)
    .sort((a, b) => a.seq - b.seq || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** The seq of a new item: after every item of the account. */
export function nextSeq(items: readonly OutboxItem[], account: string): number {
  return items.filter((i) => i.account === account).reduce((max, i) => Math.max(max, i.seq), 0) + 1;
}

/** What to do next with the queue of one account. */
export type Step =
  | { action: 'send'; item: OutboxItem; plantId: string }
  | { action: 'refuse'; item: OutboxItem; refusal: Refusal }
  | null;

/**
 * The next write of the account to act on: the oldest one waiting. A write about a plant still waiting to be
 * registered is sent after it with its real id (it is later in the queue, so the plant has been sent by then); if
 * that plant was refused or discarded, the write is refused with the reason, and the ones after it go on.
 */
export function nextStep(items: readonly OutboxItem[], account: string): Step {
  const queue = inOrder(items, account);
  const item = queue.find((i) => i.state === 'waiting');
  if (!item) return null;
  if (!item.plantId.startsWith(LOCAL_REF)) return { action: 'send', item, plantId: item.plantId };
  const parentId = item.plantId.slice(LOCAL_REF.length);
  const parent = queue.find((i) => i.id === parentId);
  if (parent?.state === 'sent' && parent.result) return { action: 'send', item, plantId: parent.result.id };
  // A parent made earlier is first in the queue; should one be waiting after its write, it is sent first.
  if (parent?.state === 'waiting') return { action: 'send', item: parent, plantId: parent.plantId };
  return {
    action: 'refuse',
    item,
    refusal: {
      status: 0,
      code: DEPENDENCY_REFUSED,
      message: parent ? 'The plant it is about was not registered.' : 'The plant it is about was discarded.',
    },
  };
}

/** What an attempt came to. */
export type Outcome = { network: true } | { network?: false; status: number; code?: string; message?: string };

/**
 * What an attempt means for the write: `sent`; `retry` when no answer came (offline, the gateway unreachable, 502,
 * 503, 504, any 5xx: the outcome is unknown and the same Idempotency-Key makes a resend safe), when the API asks to
 * wait (408, 425, 429) or the same key is still being answered (409 DUPLICATE about the Idempotency-Key);
 * `signed-out` on a 401 (kept until its account signs in again); `refused` on any other 4xx.
 */
export function classify(outcome: Outcome): 'sent' | 'retry' | 'signed-out' | 'refused' {
  if (outcome.network) return 'retry';
  const { status } = outcome;
  if (status >= 200 && status < 300) return 'sent';
  if (status === 401) return 'signed-out';
  if (status === 408 || status === 425 || status === 429) return 'retry';
  if (status === 409 && outcome.code === 'DUPLICATE' && /idempotency-key/i.test(outcome.message ?? '')) return 'retry';
  if (status >= 400 && status < 500) return 'refused';
  return 'retry';
}

/** How long sent items stay listed (with the link to what they made). */
export const SENT_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * The items that may be deleted: sent ones older than `SENT_KEPT_MS` that no waiting write still needs for its
 * plant's real id.
 */
export function forgettable(items: readonly OutboxItem[], now: Date): OutboxItem[] {
  const needed = new Set(
    items
      .filter((i) => i.state === 'waiting' && i.plantId.startsWith(LOCAL_REF))
      .map((i) => i.plantId.slice(LOCAL_REF.length)),
  );
  return items.filter(
    (i) =>
      i.state === 'sent' && !needed.has(i.id) && now.getTime() - Date.parse(i.settledAt ?? i.createdAt) > SENT_KEPT_MS,
  );
}

/** The counts an account's header shows. */
export function counts(items: readonly OutboxItem[], account: string): { waiting: number; refused: number } {
  const mine = items.filter((i) => i.account === account);
  return {
    waiting: mine.filter((i) => i.state === 'waiting').length,
    refused: mine.filter((i) => i.state === 'refused').length,
  };
}

/**
 * The `Rootline-Act-As` header a kept write is sent with: the organization the tab acted for when it was kept, or
 * empty (the SDK then sends none: the account alone) when it acted alone; undefined for an item kept before this was
 * recorded, which goes as the tab acts when it is sent (ADR 249's first rule).
 */
export function actAsHeaderOf(item: Pick<OutboxItem, 'actAs'>): string | undefined {
  return item.actAs === undefined ? undefined : (item.actAs ?? '');
}
