import { decodeJson } from '../codec.js';
import { type BusLog, nakDelayMs } from '../defaults.js';
import { subjectMatches } from '../subject.js';
import type { DeliveredEvent, EventMessage, Headers } from '../types.js';
import type { EventLog } from './event-log.js';

/** A delivered but not yet acknowledged event of one durable. */
interface Pending {
  count: number;
  /** Identifies the current delivery, so a stale delivery's outcome cannot reschedule a newer one. */
  token: object;
  timer?: NodeJS.Timeout;
}

/** One running consume() on a durable. */
export interface Consumer {
  readonly handler: (event: DeliveredEvent) => Promise<void>;
  readonly inFlight: Set<Promise<unknown>>;
  stopped: boolean;
  /** Deliveries handed out at once (ConsumeOptions.maxInFlight). */
  readonly maxInFlight: number;
}

/**
 * A durable consumer of the in-process event log, as JetStream keeps one: a cursor over the log, the events
 * delivered and not yet acknowledged, acknowledgement deadlines, redelivery with back-off, and turns among the
 * consumers sharing it.
 */
export class Durable {
  readonly consumers: Consumer[] = [];
  private cursor = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly ready: number[] = [];
  private next = 0;
  private scheduled = false;

  /**
   * `settledBefore` holds the sequences settled before a restart: they are skipped as the cursor passes them.
   */
  constructor(
    readonly name: string,
    readonly filter: string,
    public ackWaitMs: number,
    public maxDeliver: number,
    private readonly eventLog: EventLog,
    private readonly log: BusLog,
    private readonly settledBefore: Set<number> = new Set(),
  ) {}

  /** Events not acknowledged yet: delivered and waiting for an ack or a redelivery, plus those not delivered. */
  lag(): number {
    const { events } = this.eventLog;
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
    const { events } = this.eventLog;
    while (this.cursor < events.length) {
      const e = events[this.cursor++]!;
      if (this.settledBefore.delete(e.seq)) continue;
      if (subjectMatches(this.filter, e.subject)) return e.seq;
    }
    return undefined;
  }

  private deliver(consumer: Consumer, seq: number): void {
    const stored = this.eventLog.events[seq - this.eventLog.base]!;
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
    this.eventLog.settle(this.name, seq);
  }

  private nak(seq: number, token: object, event: DeliveredEvent, err: unknown): void {
    const p = this.pending.get(seq);
    if (!p || p.token !== token) return;
    clearTimeout(p.timer);
    if (p.count >= this.maxDeliver) {
      this.log.error(
        { err },
        `bus: ${this.name} gives up event ${event.id} (${event.subject}) after ${p.count} deliveries`,
      );
      this.pending.delete(seq);
      this.settle(seq);
      return;
    }
    this.log.warn({ err }, `bus: ${this.name} failed event ${event.id} (${event.subject}), delivery ${p.count}`);
    p.timer = setTimeout(() => this.requeue(seq, token), nakDelayMs(p.count)).unref();
  }

  private expire(seq: number, token: object): void {
    const p = this.pending.get(seq);
    if (!p || p.token !== token) return;
    if (p.count >= this.maxDeliver) {
      this.log.error(`bus: ${this.name} gives up event seq ${seq} after ${p.count} unacknowledged deliveries`);
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
