import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { copyHeaders, decodeJson, encodeJson, jsonText } from './codec.js';
import {
  ACK_WAIT_MS,
  type BusLog,
  DUPLICATE_WINDOW_MS,
  EVENT_SUBJECTS,
  INTERNAL_REPLY,
  jsonLog,
  MAX_DELIVER,
  MAX_IN_FLIGHT,
  NAME,
  nakDelayMs,
  REQUEST_TIMEOUT_MS,
  settleWithin,
  unavailable,
} from './defaults.js';
import { subjectMatches } from './subject.js';
import type {
  Bus,
  ConsumeOptions,
  DeliveredEvent,
  DiscoveredService,
  Endpoint,
  EventMessage,
  Headers,
  RequestOptions,
  ServedService,
  ServiceDescriptor,
  Subscription,
} from './types.js';

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

/** One service instance registered by a connection. */
interface Instance {
  readonly id: string;
  readonly service: ServiceDescriptor;
  readonly endpoints: Endpoint[];
  /** Set once stop() begins: the instance takes no new requests. */
  stopping: boolean;
  readonly inFlight: Set<Promise<unknown>>;
}

/** An event in the broker's log, held as the bytes that would be on the wire. */
interface StoredEvent {
  seq: number;
  subject: string;
  body: Uint8Array;
  headers: Uint8Array;
}

/** A delivered but not yet acknowledged event of one durable. */
interface Pending {
  count: number;
  /** Identifies the current delivery, so a stale delivery's outcome cannot reschedule a newer one. */
  token: object;
  timer?: NodeJS.Timeout;
}

/** One running consume() on a durable. */
interface Consumer {
  readonly handler: (event: DeliveredEvent) => Promise<void>;
  readonly inFlight: Set<Promise<unknown>>;
  stopped: boolean;
  /** Deliveries handed out at once (ConsumeOptions.maxInFlight). */
  readonly maxInFlight: number;
}

const newId = () => randomBytes(11).toString('hex');
/** Most events or settlements in one write to an `EventLogStore` (keeps statements within parameter limits). */
const STORE_BATCH = 500;
const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

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
 */
export function createMemoryBroker(opts: MemoryBrokerOptions = {}, restored?: EventLogState): MemoryBroker {
  const log = opts.log ?? jsonLog;
  const store = opts.store;
  if (store && !restored) throw new Error('a memory broker with a store is opened by openMemoryBroker()');
  const instances = new Set<Instance>();
  const roundRobin = new Map<string, number>();
  /** The log; `events[i]` has sequence `base + i` (a restored log starts where the kept part starts). */
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
          for (const durable of durables.values()) durable.pump();
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

  function settle(durable: string, seq: number): void {
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
  }
  const durables = new Map<string, Durable>();
  /** Listeners of broadcast signals, by connection, so closing a connection removes its own. */
  const listeners = new Set<{ subject: string; handler: (payload: unknown) => void }>();

  class Durable {
    readonly consumers: Consumer[] = [];
    private cursor = 0;
    /** Sequences settled before a restart: skipped as the cursor passes them. */
    private readonly settledBefore: Set<number>;
    private readonly pending = new Map<number, Pending>();
    private readonly ready: number[] = [];
    private next = 0;
    private scheduled = false;

    constructor(
      readonly name: string,
      readonly filter: string,
      public ackWaitMs: number,
      public maxDeliver: number,
    ) {
      this.settledBefore = restored?.settled.get(name) ?? new Set();
    }

    /** Events not acknowledged yet: delivered and waiting for an ack or a redelivery, plus those not delivered. */
    lag(): number {
      let waiting = 0;
      for (let i = this.cursor; i < events.length; i++) {
        const e = events[i]!;
        if (!this.settledBefore.has(e.seq) && subjectMatches(this.filter, e.subject)) waiting += 1;
      }
      return this.pending.size + waiting;
    }

    /** Delivers what it can on a later turn: handlers never run inside publish() or consume(). */
    pump(): void {
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.run();
      });
    }

    private run(): void {
      for (;;) {
        const i = this.pickConsumer();
        if (i === undefined) return;
        const seq = this.takeNext();
        if (seq === undefined) return;
        // The turn passes only when an event is handed out, so wake-ups with nothing to deliver keep it fair.
        this.next = (i + 1) % this.consumers.length;
        this.deliver(this.consumers[i]!, seq);
      }
    }

    private pickConsumer(): number | undefined {
      const n = this.consumers.length;
      for (let k = 0; k < n; k++) {
        const i = (this.next + k) % n;
        const c = this.consumers[i]!;
        if (!c.stopped && c.inFlight.size < c.maxInFlight) return i;
      }
      return undefined;
    }

    /** Redeliveries first, then the next new event that passes the filter. */
    private takeNext(): number | undefined {
      const again = this.ready.shift();
      if (again !== undefined) return again;
      while (this.cursor < events.length) {
        const e = events[this.cursor++]!;
        if (this.settledBefore.delete(e.seq)) continue;
        if (subjectMatches(this.filter, e.subject)) return e.seq;
      }
      return undefined;
    }

    private deliver(consumer: Consumer, seq: number): void {
      const stored = events[seq - base]!;
      const p = this.pending.get(seq) ?? { count: 0, token: {} };
      this.pending.set(seq, p);
      p.count += 1;
      const token = {};
      p.token = token;
      clearTimeout(p.timer);
      // Unref'd: a broker's bookkeeping must not keep the process alive on shutdown.
      p.timer = setTimeout(() => this.expire(seq, token), this.ackWaitMs).unref();
      const event: DeliveredEvent = {
        ...(decodeJson(stored.body) as Omit<EventMessage, 'headers'>),
        headers: decodeJson(stored.headers) as Headers,
        deliveryCount: p.count,
      };
      const run = consumer
        .handler(event)
        .then(
          () => this.ack(seq),
          (err: unknown) => this.nak(seq, token, event, err),
        )
        .finally(() => {
          consumer.inFlight.delete(run);
          this.pump();
        });
      consumer.inFlight.add(run);
    }

    /** Acknowledges by sequence, like JetStream: even a late ack from an expired delivery settles the event. */
    private ack(seq: number): void {
      const p = this.pending.get(seq);
      if (!p) return;
      clearTimeout(p.timer);
      this.pending.delete(seq);
      const queued = this.ready.indexOf(seq);
      if (queued >= 0) this.ready.splice(queued, 1);
      this.settle(seq);
    }

    /** Records that this durable is done with the event, so a restart does not deliver it again. */
    private settle(seq: number): void {
      settle(this.name, seq);
    }

    private nak(seq: number, token: object, event: DeliveredEvent, err: unknown): void {
      const p = this.pending.get(seq);
      if (!p || p.token !== token) return;
      clearTimeout(p.timer);
      if (p.count >= this.maxDeliver) {
        log.error(
          { err },
          `bus: ${this.name} gives up event ${event.id} (${event.subject}) after ${p.count} deliveries`,
        );
        this.pending.delete(seq);
        this.settle(seq);
        return;
      }
      log.warn({ err }, `bus: ${this.name} failed event ${event.id} (${event.subject}), delivery ${p.count}`);
      p.timer = setTimeout(() => this.requeue(seq, token), nakDelayMs(p.count)).unref();
    }

    private expire(seq: number, token: object): void {
      const p = this.pending.get(seq);
      if (!p || p.token !== token) return;
      if (p.count >= this.maxDeliver) {
        log.error(`bus: ${this.name} gives up event seq ${seq} after ${p.count} unacknowledged deliveries`);
        this.pending.delete(seq);
        this.settle(seq);
        return;
      }
      this.requeue(seq, token);
    }

    private requeue(seq: number, token: object): void {
      const p = this.pending.get(seq);
      if (!p || p.token !== token) return;
      p.timer = undefined;
      this.ready.push(seq);
      this.pump();
    }
  }

  /** One instance per queue group (service name) whose endpoint matches, rotating within each group. */
  function responders(subject: string): Array<{ instance: Instance; endpoint: Endpoint }> {
    const groups = new Map<string, Array<{ instance: Instance; endpoint: Endpoint }>>();
    for (const instance of instances) {
      if (instance.stopping) continue;
      const endpoint = instance.endpoints.find((e) => subjectMatches(e.subject, subject));
      if (!endpoint) continue;
      const group = groups.get(instance.service.name) ?? [];
      group.push({ instance, endpoint });
      groups.set(instance.service.name, group);
    }
    const picked: Array<{ instance: Instance; endpoint: Endpoint }> = [];
    for (const [name, group] of groups) {
      const key = `${name} ${subject}`;
      const turn = roundRobin.get(key) ?? 0;
      roundRobin.set(key, turn + 1);
      picked.push(group[turn % group.length]!);
    }
    return picked;
  }

  /** Runs one request on an instance and resolves with the reply bytes; tracked so stop() can wait for it. */
  function dispatch(instance: Instance, endpoint: Endpoint, body: Uint8Array, headers: Uint8Array) {
    const run = (async () => {
      await nextTurn();
      try {
        const reply = await endpoint.handler(decodeJson(body), decodeJson(headers) as Headers);
        return encodeJson(reply);
      } catch (err) {
        log.error({ err }, `bus: ${instance.service.name} failed on ${endpoint.subject}`);
        return encodeJson(INTERNAL_REPLY);
      }
    })();
    const tracked = run.finally(() => instance.inFlight.delete(tracked));
    instance.inFlight.add(tracked);
    return run;
  }

  function connect(name = 'memory'): Bus {
    let closed = false;
    const served = new Set<ServedService>();
    const subscriptions = new Set<Subscription>();
    const open = () => {
      if (closed) throw new Error(`bus connection ${name} is closed`);
    };

    async function requestBytes(subject: string, payload: unknown, opts: RequestOptions): Promise<Uint8Array> {
      open();
      const timeoutMs = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
      const body = encodeJson(payload);
      const headers = encodeJson(copyHeaders(opts.headers));
      const targets = responders(subject);
      // NATS answers "no responders" after a round trip, not synchronously.
      await nextTurn();
      if (targets.length === 0) throw unavailable(subject, 'no-responders');
      return new Promise((resolve, reject) => {
        let settled = false;
        const timer = setTimeout(() => {
          settled = true;
          reject(unavailable(subject, 'timeout', timeoutMs));
        }, timeoutMs);
        for (const { instance, endpoint } of targets) {
          void dispatch(instance, endpoint, body, headers).then((reply) => {
            // The first answer wins, as with a NATS request; later ones go nowhere.
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve(reply);
          });
        }
      });
    }

    return {
      async request(subject: string, payload: unknown, opts: RequestOptions = {}): Promise<unknown> {
        return decodeJson(await requestBytes(subject, payload, opts));
      },

      async requestJson(subject: string, payload: unknown, opts: RequestOptions = {}): Promise<string> {
        return jsonText(await requestBytes(subject, payload, opts));
      },

      async serve(service: ServiceDescriptor, endpoints: Endpoint[]): Promise<ServedService> {
        open();
        if (!NAME.test(service.name)) throw new Error(`invalid service name "${service.name}"`);
        if (!/\d+\.\d+\.\d+/.test(service.version)) throw new Error(`'${service.version}' is not a semver value`);
        const instance: Instance = {
          id: newId(),
          service: { ...service },
          endpoints: [...endpoints],
          stopping: false,
          inFlight: new Set(),
        };
        instances.add(instance);
        let stopped: Promise<void> | undefined;
        const handle: ServedService = {
          id: instance.id,
          stop() {
            stopped ??= (async () => {
              instance.stopping = true;
              instances.delete(instance);
              while (instance.inFlight.size > 0) await Promise.allSettled([...instance.inFlight]);
              served.delete(handle);
            })();
            return stopped;
          },
        };
        served.add(handle);
        return handle;
      },

      async publish(event: EventMessage): Promise<void> {
        open();
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
          try {
            await new Promise<void>((resolve, reject) => {
              appendQueue.push({
                event: {
                  id: event.id,
                  subject: event.subject,
                  body: textDecoder.decode(body),
                  headers: textDecoder.decode(headers),
                  storedAt: now,
                },
                stored: { subject: event.subject, body, headers },
                done: (err) => (err === undefined ? resolve() : reject(err)),
              });
              flushAppends();
            });
          } catch (err) {
            // Not in the log: a retry of the same id must be taken.
            seenIds.delete(event.id);
            throw err;
          }
          return;
        }
        events.push({ seq: base + events.length, subject: event.subject, body, headers });
        for (const durable of durables.values()) durable.pump();
      },

      async consume(opts: ConsumeOptions): Promise<Subscription> {
        open();
        if (!NAME.test(opts.durable)) throw new Error(`invalid durable name "${opts.durable}"`);
        const ackWaitMs = opts.ackWaitMs ?? ACK_WAIT_MS;
        const maxDeliver = opts.maxDeliver ?? MAX_DELIVER;
        let durable = durables.get(opts.durable);
        if (!durable) {
          durable = new Durable(opts.durable, opts.subject, ackWaitMs, maxDeliver);
          durables.set(opts.durable, durable);
        } else if (durable.filter !== opts.subject) {
          throw new Error(`durable ${opts.durable} already exists with filter ${durable.filter}, not ${opts.subject}`);
        } else {
          durable.ackWaitMs = ackWaitMs;
          durable.maxDeliver = maxDeliver;
        }
        const consumer: Consumer = {
          handler: opts.handler,
          inFlight: new Set(),
          stopped: false,
          maxInFlight: opts.maxInFlight ?? MAX_IN_FLIGHT,
        };
        durable.consumers.push(consumer);
        durable.pump();
        const owner = durable;
        let stopped: Promise<void> | undefined;
        const subscription: Subscription = {
          lag: async () => owner.lag(),
          stop() {
            stopped ??= (async () => {
              consumer.stopped = true;
              owner.consumers.splice(owner.consumers.indexOf(consumer), 1);
              // Let running handlers acknowledge; past the ack wait their events are redelivered anyway.
              await settleWithin(consumer.inFlight, ackWaitMs);
              subscriptions.delete(subscription);
            })();
            return stopped;
          },
        };
        subscriptions.add(subscription);
        return subscription;
      },

      async broadcast(subject: string, payload: unknown): Promise<void> {
        open();
        const body = encodeJson(payload);
        for (const l of [...listeners]) {
          if (!subjectMatches(l.subject, subject)) continue;
          // Delivered on a later turn, each listener with its own decoded copy, as from a NATS subscription.
          setImmediate(() => {
            if (!listeners.has(l)) return;
            try {
              l.handler(decodeJson(body));
            } catch (err) {
              log.error({ err }, `bus ${name}: listener of ${subject} failed`);
            }
          });
        }
      },

      async listen(subject: string, handler: (payload: unknown) => void): Promise<Subscription> {
        open();
        const listener = { subject, handler };
        listeners.add(listener);
        const subscription: Subscription = {
          lag: async () => 0,
          async stop() {
            listeners.delete(listener);
            subscriptions.delete(subscription);
          },
        };
        subscriptions.add(subscription);
        return subscription;
      },

      // Every instance answers at once here, so there is no timeout to wait out.
      async discover(): Promise<DiscoveredService[]> {
        open();
        await nextTurn();
        return [...instances].map((i) => ({ name: i.service.name, id: i.id, version: i.service.version }));
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
