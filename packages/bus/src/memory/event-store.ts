// The in-process broker's persistence: what its event log stores and hands back, apart from the log itself so
// the log and the store writer both depend on it and not on each other.

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
