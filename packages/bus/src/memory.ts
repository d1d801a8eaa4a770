import { decodeJson, jsonText } from './codec.js';
import { type BusLog, jsonLog } from './defaults.js';
import type { EventLogState, EventLogStore } from './memory/event-store.js';
import { createRequestReply } from './memory/request-reply.js';
import { createSignals } from './memory/signals.js';
import { createStreams } from './memory/streams.js';
import type { Bus, RequestOptions, ServedService, Subscription } from './types.js';

/** An in-process stand-in for a NATS server: each `connect()` is one client connection. */
export interface MemoryBroker {
  /** Opens a bus connection; `name` only labels it in logs. */
  connect(name?: string): Bus;
}

export interface MemoryBrokerOptions {
  log?: BusLog;
  /**
   * Where the event log and each durable's settled events are kept across restarts (see `openMemoryBroker`).
   * Without it the log lives in memory only.
   */
  store?: EventLogStore;
}

/**
 * Opens an in-process broker whose event log is kept by `store` (embedded mode keeps it in its database): the
 * events kept since the store's last prune are loaded, each durable resumes after the events it settled, and
 * an event published before a crash and not yet acknowledged is delivered after the restart.
 */
export async function openMemoryBroker(opts: MemoryBrokerOptions & { store: EventLogStore }): Promise<MemoryBroker> {
  return createMemoryBroker(opts, await opts.store.load());
}

/**
 * Creates an in-process broker with the semantics of the NATS bus that services rely on: JSON on the
 * wire, queue groups, no-responder and timeout errors, discovery, and a durable event log with
 * de-duplication, per-durable cursors, acknowledgement deadlines and redelivery. It backs the embedded
 * mode and lets tests run the same contract suite without a server.
 *
 * Its parts are shared by every connection: requests and discovery (`memory/request-reply.ts`), the event
 * log and its durables (`memory/streams.ts`), and broadcast signals (`memory/signals.ts`).
 */
export function createMemoryBroker(opts: MemoryBrokerOptions = {}, restored?: EventLogState): MemoryBroker {
  const log = opts.log ?? jsonLog;
  const store = opts.store;
  if (store && !restored) throw new Error('a memory broker with a store is opened by openMemoryBroker()');
  const requestReply = createRequestReply(log);
  const streams = createStreams({ log, store, restored });
  const signals = createSignals(log);

  function connect(name = 'memory'): Bus {
    let closed = false;
    const served = new Set<ServedService>();
    const subscriptions = new Set<Subscription>();
    const open = () => {
      if (closed) throw new Error(`bus connection ${name} is closed`);
    };

    return {
      async request(subject: string, payload: unknown, opts: RequestOptions = {}): Promise<unknown> {
        open();
        return decodeJson(await requestReply.request(subject, payload, opts));
      },

      async requestJson(subject: string, payload: unknown, opts: RequestOptions = {}): Promise<string> {
        open();
        return jsonText(await requestReply.request(subject, payload, opts));
      },

      async serve(service, endpoints) {
        open();
        return requestReply.serve(service, endpoints, served);
      },

      async publish(event) {
        open();
        await streams.publish(event);
      },

      async consume(opts) {
        open();
        return streams.consume(opts, subscriptions);
      },

      async broadcast(subject, payload) {
        open();
        signals.broadcast(subject, payload, name);
      },

      async listen(subject, handler) {
        open();
        return signals.listen(subject, handler, subscriptions);
      },

      async discover() {
        open();
        return requestReply.discover();
      },

      async close(): Promise<void> {
        if (closed) return;
        closed = true;
        await Promise.all([...served].map((s) => s.stop()));
        await Promise.all([...subscriptions].map((s) => s.stop()));
      },
    };
  }

  return { connect };
}
