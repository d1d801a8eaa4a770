import type { BusLog } from '../defaults.js';
import type { EventLogStore, LoggedEvent, Settlement, StoredEvent } from './event-store.js';

/** Most events or settlements in one write to an `EventLogStore` (keeps statements within parameter limits). */
const STORE_BATCH = 500;

/** Writes to an `EventLogStore` in groups: the events of publishes, and the settlements of durables. */
export interface StoreWriter {
  /** Resolves once the store holds the event and it is in the log. */
  append(event: Omit<LoggedEvent, 'seq'>, stored: Omit<StoredEvent, 'seq'>): Promise<void>;
  /** Hands the settlement to the store on a later turn, without waiting for it. */
  settle(durable: string, seq: number): void;
}

export interface StoreWriterOptions {
  store: EventLogStore;
  log: BusLog;
  /** The sequence the next appended event gets. */
  nextSeq: () => number;
  /** Takes events the store now holds into the log, in order. */
  appended: (events: StoredEvent[]) => void;
}

/**
 * Creates the writer of an in-process broker's store: one append runs at a time, with every publish that arrived
 * before it, and settlements recorded in the same turn are written together.
 */
export function createStoreWriter({ store, log, nextSeq, appended }: StoreWriterOptions): StoreWriter {
  /** Publishes waiting for the store. */
  const appendQueue: Array<{
    event: Omit<LoggedEvent, 'seq'>;
    stored: Omit<StoredEvent, 'seq'>;
    done: (err?: unknown) => void;
  }> = [];
  let appendRunning = false;
  /** Settlements not yet handed to the store; written together on a later turn. */
  let settleQueue: Settlement[] = [];

  /**
   * Starts the next append on a later turn, so publishes that continue in this turn join it: PGlite runs a query
   * synchronously once started, so without the pause each publish would be a write of its own.
   */
  function flushAppends(): void {
    if (appendRunning || appendQueue.length === 0) return;
    appendRunning = true;
    setImmediate(appendBatch);
  }

  function appendBatch(): void {
    const batch = appendQueue.splice(0, STORE_BATCH);
    const first = nextSeq();
    store
      .append(batch.map((b, i) => ({ ...b.event, seq: first + i })))
      .then(
        () => {
          appended(batch.map((b, i) => ({ ...b.stored, seq: first + i })));
          for (const b of batch) b.done();
        },
        (err: unknown) => {
          for (const b of batch) b.done(err ?? new Error('event log append failed'));
        },
      )
      .finally(() => {
        appendRunning = false;
        flushAppends();
      });
  }

  return {
    append(event, stored) {
      return new Promise<void>((resolve, reject) => {
        appendQueue.push({ event, stored, done: (err) => (err === undefined ? resolve() : reject(err)) });
        flushAppends();
      });
    },

    settle(durable, seq) {
      settleQueue.push({ durable, seq });
      if (settleQueue.length > 1) return;
      setImmediate(() => {
        const all = settleQueue;
        settleQueue = [];
        for (let i = 0; i < all.length; i += STORE_BATCH) {
          const batch = all.slice(i, i + STORE_BATCH);
          store.settle(batch).catch((err: unknown) => {
            log.warn({ err }, `bus: could not record ${batch.length} settled events; they may be delivered again`);
          });
        }
      });
    },
  };
}
