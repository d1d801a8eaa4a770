import { ACK_WAIT_MS, type BusLog, MAX_DELIVER, MAX_IN_FLIGHT, NAME, settleWithin } from '../defaults.js';
import type { ConsumeOptions, EventMessage, Subscription } from '../types.js';
import { type Consumer, Durable } from './durable.js';
import { createEventLog } from './event-log.js';
import type { EventLogState, EventLogStore } from './event-store.js';

/** The event side of the in-process broker: publishing to the log and consuming it through durables. */
export interface Streams {
  publish(event: EventMessage): Promise<void>;
  /** Starts a consumer on a durable (created on first use); `owned` holds the subscription until it stops. */
  consume(opts: ConsumeOptions, owned: Set<Subscription>): Subscription;
}

export interface StreamsOptions {
  log: BusLog;
  store?: EventLogStore;
  restored?: EventLogState;
}

/** Creates the event log and the durables that consume it, each woken when events are appended. */
export function createStreams({ log, store, restored }: StreamsOptions): Streams {
  const durables = new Map<string, Durable>();
  const eventLog = createEventLog({
    log,
    store,
    restored,
    onAppend: () => {
      for (const durable of durables.values()) durable.pump();
    },
  });

  /** The durable of that name, created on first use; a later consume() may change its ack wait and deliveries. */
  function durableFor(opts: ConsumeOptions, ackWaitMs: number, maxDeliver: number): Durable {
    let durable = durables.get(opts.durable);
    if (!durable) {
      const settledBefore = restored?.settled.get(opts.durable);
      durable = new Durable(opts.durable, opts.subject, ackWaitMs, maxDeliver, eventLog, log, settledBefore);
      durables.set(opts.durable, durable);
    } else if (durable.filter !== opts.subject) {
      throw new Error(`durable ${opts.durable} already exists with filter ${durable.filter}, not ${opts.subject}`);
    } else {
      durable.ackWaitMs = ackWaitMs;
      durable.maxDeliver = maxDeliver;
    }
    return durable;
  }

  return {
    publish: (event) => eventLog.publish(event),

    consume(opts, owned) {
      if (!NAME.test(opts.durable)) throw new Error(`invalid durable name "${opts.durable}"`);
      const ackWaitMs = opts.ackWaitMs ?? ACK_WAIT_MS;
      const owner = durableFor(opts, ackWaitMs, opts.maxDeliver ?? MAX_DELIVER);
      const consumer: Consumer = {
        handler: opts.handler,
        inFlight: new Set(),
        stopped: false,
        maxInFlight: opts.maxInFlight ?? MAX_IN_FLIGHT,
      };
      owner.consumers.push(consumer);
      owner.pump();
      let stopped: Promise<void> | undefined;
      const subscription: Subscription = {
        lag: async () => owner.lag(),
        stop() {
          stopped ??= (async () => {
            consumer.stopped = true;
            owner.consumers.splice(owner.consumers.indexOf(consumer), 1);
            // Let running handlers acknowledge; past the ack wait their events are redelivered anyway.
            await settleWithin(consumer.inFlight, ackWaitMs);
            owned.delete(subscription);
          })();
          return stopped;
        },
      };
      owned.add(subscription);
      return subscription;
    },
  };
}
