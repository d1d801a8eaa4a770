import type { CallContext, EventDef, PayloadOf } from '@rootline/contracts';
import type { Db } from '@rootline/db';
import type { Logger } from './logger.js';

/** Metadata of a consumed event. */
export interface EventMeta extends CallContext {
  eventId: string;
  /** The event's subject (useful to a consumer of a wildcard such as `evt.>`). */
  subject: string;
  occurredAt: string;
  deliveryCount: number;
  log: Logger;
  /**
   * The inbox transaction (services with a database): write the event's effect and enqueue follow-up events
   * through it, so they commit together with the record that this event was applied. Never wait on another
   * service while it is open. For a service without a database, a stand-in that throws on use.
   */
  tx: Db;
  /**
   * Runs `fn` once the delivery's effect has committed (at once for a service without a database), e.g. to
   * tell listeners by `bus.broadcast` that new rows can be read. Not run when the delivery fails or is skipped.
   */
  afterCommit(fn: () => void): void;
}

/** Delivery limits of one subscriber (the bus defaults otherwise). */
export interface SubscribeOptions {
  /** How long a delivery may run unacknowledged before it is delivered again (default 30 s). */
  ackWaitMs?: number;
  /** Deliveries before the event is given up and logged (default 10). */
  maxDeliver?: number;
}

/** How a batched subscriber gathers its events. */
export interface BatchOptions {
  /** Most events applied in one transaction (default 100). */
  max?: number;
  /**
   * How long the first event of a batch waits for more (default 0: a batch takes what has arrived, and the events
   * that arrive while it commits make the next one, so batches grow with the load and add no wait when it is low).
   */
  maxWaitMs?: number;
  /**
   * Under load, the shortest time between the starts of two batches of this instance, unless `max` events are
   * waiting (default 0). A batch after a quiet spell runs at once; under load, events gather for up to this long,
   * so fewer, larger transactions carry them. Suits consumers whose events may wait a few tens of milliseconds.
   */
  intervalMs?: number;
  /**
   * Batches applied at once by this instance (default 1). More suit a consumer whose batches do not contend (each
   * holds a database connection); keep 1 where each batch takes one lock anyway.
   */
  concurrency?: number;
}

/** One event of a batch: its payload and its metadata (`meta.tx` is the batch's transaction). */
export interface BatchedEvent<P = unknown> {
  payload: P;
  meta: EventMeta;
}

/** The function of a batched subscriber: applies the events (in delivery order, each id once) through `tx`. */
export type BatchFn<P = unknown> = (batch: BatchedEvent<P>[], tx: Db) => Promise<void>;

/**
 * A durable consumer of one event. In a service with a database the host applies it through the service's
 * inbox, exactly once per event id; in a service without one it must itself be idempotent (at least once).
 */
export interface Subscriber {
  readonly event: EventDef;
  readonly durable: string;
  readonly fn: (payload: unknown, meta: EventMeta) => Promise<void>;
  readonly options: SubscribeOptions;
  /** Set for a subscriber made by `subscribeBatch`: the host applies its events in batches. */
  readonly batch?: { max: number; maxWaitMs: number; intervalMs: number; concurrency: number; fn: BatchFn };
}

/** Binds a consumer to a declared event under a durable name unique within the service. */
export function subscribe<E extends EventDef>(
  event: E,
  durable: string,
  fn: (payload: PayloadOf<E>, meta: EventMeta) => Promise<void>,
  options: SubscribeOptions = {},
): Subscriber {
  return { event, durable, fn: fn as Subscriber['fn'], options };
}

/** Default most events in one batch of a batched subscriber. */
export const BATCH_MAX = 100;

/**
 * Binds a batched consumer to a declared event: the host applies up to `batch.max` events in ONE transaction
 * (their inbox records, then `fn` with the events not applied before) and acknowledges them all once it has
 * committed; a crash before the commit has them all delivered again. When a batch fails, its events are applied
 * again one per transaction, so one event that cannot be applied does not hold back the others (it alone is
 * delivered again). Keep per-event steps in the loop over the batch, through `meta` as in `subscribe`.
 */
export function subscribeBatch<E extends EventDef>(
  event: E,
  durable: string,
  fn: BatchFn<PayloadOf<E>>,
  options: SubscribeOptions & { batch?: BatchOptions } = {},
): Subscriber {
  const { batch = {}, ...rest } = options;
  const max = batch.max ?? BATCH_MAX;
  const concurrency = batch.concurrency ?? 1;
  if (!Number.isInteger(max) || max < 1) throw new Error(`batch.max must be a whole number ≥ 1, not ${max}`);
  const intervalMs = batch.intervalMs ?? 0;
  if (!(intervalMs >= 0)) throw new Error(`batch.intervalMs must be ≥ 0, not ${intervalMs}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new Error(`batch.concurrency must be a whole number ≥ 1, not ${concurrency}`);
  }
  const applyBatch = fn as BatchFn;
  return {
    event,
    durable,
    // One event alone is a batch of one.
    fn: (payload, meta) => applyBatch([{ payload, meta }], meta.tx),
    options: rest,
    batch: { max, maxWaitMs: batch.maxWaitMs ?? 0, intervalMs, concurrency, fn: applyBatch },
  };
}
