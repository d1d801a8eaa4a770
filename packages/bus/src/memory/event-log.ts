import { setImmediate as nextTurn } from 'node:timers/promises';
import { copyHeaders, encodeJson } from '../codec.js';
import { type BusLog, DUPLICATE_WINDOW_MS, EVENT_SUBJECTS } from '../defaults.js';
import { subjectMatches } from '../subject.js';
import type { EventMessage } from '../types.js';
import type { EventLogState, EventLogStore, StoredEvent } from './event-store.js';
import { createStoreWriter } from './store-writer.js';

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

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

/**
 * Creates the event log of an in-process broker: de-duplication by event id within the window, and with a store,
 * each publish kept by the store before it is in the log (see `createStoreWriter`).
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
  const writer =
    store &&
    createStoreWriter({
      store,
      log,
      nextSeq: () => base + events.length,
      appended: (stored) => {
        events.push(...stored);
        onAppend();
      },
    });

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
      if (writer) {
        const logged = {
          id: event.id,
          subject: event.subject,
          body: textDecoder.decode(body),
          headers: textDecoder.decode(headers),
          storedAt: now,
        };
        try {
          await writer.append(logged, { subject: event.subject, body, headers });
        } catch (err) {
          // Not in the log: a retry of the same id must be taken.
          seenIds.delete(event.id);
          throw err;
        }
        return;
      }
      events.push({ seq: base + events.length, subject: event.subject, body, headers });
      onAppend();
    },

    settle(durable: string, seq: number): void {
      writer?.settle(durable, seq);
    },
  };
}
