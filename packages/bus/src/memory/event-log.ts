import { setImmediate as nextTurn } from 'node:timers/promises';
import { copyHeaders, encodeJson } from '../codec.js';
import { type BusLog, DUPLICATE_WINDOW_MS, EVENT_SUBJECTS } from '../defaults.js';
import { subjectMatches } from '../subject.js';
import type { EventMessage } from '../types.js';

/** An event as an `EventLogStore` keeps it: the JSON texts that would be on the wire. */
export interface LoggedEvent {
  /** Position in the log; strictly increasing. */
  seq: number;
  id: string;
  subject: string;
  /** JSON of `{id, subject, occurredAt, payload}`. */
  body: string;
  /** JSON of the headers. */
  headers: string;
  /** When the broker stored it (ms since the epoch), for de-duplication after a restart. */
  storedAt: number;
}

/** What an `EventLogStore` hands back on start: the kept log and the events each durable has settled. */
export interface EventLogState {
  /** In `seq` order. */
  events: LoggedEvent[];
  /** Events a durable acknowledged or gave up, by durable name; they are not delivered to it again. */
  settled: Map<string, Set<number>>;
}

/** A durable's settlement of one event, for `EventLogStore.settle`. */
export interface Settlement {
  durable: string;
  seq: number;
}

/**
 * Persistence of the in-process broker's event log, so events published and not yet acknowledged survive a
 * restart. The broker awaits `append` before `publish` resolves (publishes arriving meanwhile are appended
 * together, one write for the group) and records settlements in groups without waiting (a settlement lost in a
 * crash means one more delivery, which consumers tolerate).
 */
export interface EventLogStore {
  load(): Promise<EventLogState>;
  /** Stores events in the order given, atomically. */
  append(events: LoggedEvent[]): Promise<void>;
  settle(settlements: Settlement[]): Promise<void>;
}

/** An event in the broker's log, held as the bytes that would be on the wire. */
export interface StoredEvent {
  seq: number;
  subject: string;
  body: Uint8Array;
  headers: Uint8Array;
}

/** The in-process broker's event stream: the log of published events and where it is kept. */
export interface EventLog {
  /** The log; `events[i]` has sequence `base + i` (a restored log starts where the kept part starts). */
  readonly events: readonly StoredEvent[];
  readonly base: number;
  /**
   * Adds an event to the log unless its id was published within the duplicate window; with a store, resolves
   * once the store holds it.
   */
  publish(event: EventMessage): Promise<void>;
  /** Records that a durable is done with an event, so a restart does not deliver it again. */
  settle(durable: string, seq: number): void;
}

export interface EventLogOptions {
  log: BusLog;
  store?: EventLogStore;
  /** What the store kept, loaded at start. */
  restored?: EventLogState;
  /** Called each time new events are in the log. */
  onAppend: () => void;
}

/** Most events or settlements in one write to an `EventLogStore` (keeps statements within parameter limits). */
const STORE_BATCH = 500;
const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

/**
 * Creates the event log of an in-process broker: de-duplication by event id, and with a store, publishes
 * written in groups and settlements recorded in groups.
 */
export function createEventLog({ log, store, restored, onAppend }: EventLogOptions): EventLog {
  const events: StoredEvent[] = [];
  const base = restored?.events[0]?.seq ?? 0;
  /** Event id → publish time; insertion order is time order, so expiry trims from the front. */
  const seenIds = new Map<string, number>();
  for (const e of restored?.events ?? []) {
    events.push({
      seq: e.seq,
      subject: e.subject,
      body: textEncoder.encode(e.body),
      headers: textEncoder.encode(e.headers),
    });
    seenIds.delete(e.id);
    seenIds.set(e.id, e.storedAt);
  }
  /** Publishes waiting for the store: one append runs at a time, with every publish that arrived before it. */
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
    if (!store || appendRunning || appendQueue.length === 0) return;
    appendRunning = true;
    setImmediate(appendBatch);
  }

  function appendBatch(): void {
    if (!store) return;
    const batch = appendQueue.splice(0, STORE_BATCH);
    const first = base + events.length;
    store
      .append(batch.map((b, i) => ({ ...b.event, seq: first + i })))
      .then(
        () => {
          batch.forEach((b, i) => {
            events.push({ ...b.stored, seq: first + i });
          });
          onAppend();
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

  /** Waits until the store holds the event; a failed write forgets its id, so a retry of the same id is taken. */
  async function stored(id: string, event: Omit<LoggedEvent, 'seq'>, body: Uint8Array, headers: Uint8Array) {
    try {
      await new Promise<void>((resolve, reject) => {
        appendQueue.push({
          event,
          stored: { subject: event.subject, body, headers },
          done: (err) => (err === undefined ? resolve() : reject(err)),
        });
        flushAppends();
      });
    } catch (err) {
      seenIds.delete(id);
      throw err;
    }
  }

  return {
    events,
    base,

    async publish(event: EventMessage): Promise<void> {
      if (!subjectMatches(EVENT_SUBJECTS, event.subject)) throw new Error(`no stream stores ${event.subject}`);
      const body = encodeJson({
        id: event.id,
        subject: event.subject,
        occurredAt: event.occurredAt,
        payload: event.payload,
      });
      const headers = encodeJson(copyHeaders(event.headers));
      await nextTurn();
      const now = Date.now();
      for (const [id, at] of seenIds) {
        if (now - at < DUPLICATE_WINDOW_MS) break;
        seenIds.delete(id);
      }
      if (seenIds.has(event.id)) return;
      seenIds.set(event.id, now);
      if (store) {
        const logged = {
          id: event.id,
          subject: event.subject,
          body: textDecoder.decode(body),
          headers: textDecoder.decode(headers),
          storedAt: now,
        };
        return stored(event.id, logged, body, headers);
      }
      events.push({ seq: base + events.length, subject: event.subject, body, headers });
      onAppend();
    },

    settle(durable: string, seq: number): void {
      if (!store) return;
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
