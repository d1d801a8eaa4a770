import type { DeliveredEvent } from '@rootline/bus';
import { headersToContext, newId } from '@rootline/contracts';
import type { Db, Inbox } from '@rootline/db';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { createBatcher, type Waiting } from './batcher.js';
import { lightHistogramOn } from './light-histogram.js';
import type { Logger } from './logger.js';
import { LATENCY_BUCKETS, type ServiceMetrics } from './metrics.js';
import type { BatchedEvent, EventMeta, Subscriber } from './subscriber.js';
import { endSpan, SpanKind, startSpan, traceparentOf } from './tracing.js';

/** The transaction a subscriber of a service without a database gets: it throws on use. */
export const noDatabase = new Proxy({} as Db, {
  get() {
    throw new Error('this service declares no database');
  },
});

/**
 * The bus handler of one subscriber: validates each event, applies it through the inbox (exactly once in effect)
 * one at a time or in batches (`subscribeBatch`), and resolves (so the bus acknowledges) only after the commit.
 * With `metrics`, each delivery is observed in `consumer_event_duration_seconds`; with tracing on, each is a
 * consumer span, child of the span that published the event.
 */
export function deliveryHandler(
  s: Subscriber,
  o: { durable: string; inbox: Inbox | undefined; log: Logger; metrics?: ServiceMetrics },
): (evt: DeliveredEvent) => Promise<void> {
  const apply = applierOf(s, o);
  const { durable, metrics } = o;
  const duration = metrics
    ? lightHistogramOn(metrics.registry, {
        name: 'consumer_event_duration_seconds',
        help: 'Events applied by a durable consumer, from delivery to acknowledgement, by service, consumer and outcome',
        labelNames: ['service', 'consumer', 'outcome'] as const,
        buckets: LATENCY_BUCKETS,
      })
    : undefined;
  const service = metrics?.service ?? '';
  const ok = duration?.child({ service, consumer: durable, outcome: 'ok' });
  const failed = duration?.child({ service, consumer: durable, outcome: 'error' });
  return async (evt) => {
    const started = performance.now();
    const span = startSpan(`consume ${durable}`, SpanKind.CONSUMER, evt.headers.traceparent, {
      'messaging.destination.name': evt.subject,
      'messaging.consumer.group.name': durable,
      'messaging.message.id': evt.id,
    });
    try {
      await apply(span ? { ...evt, headers: { ...evt.headers, traceparent: traceparentOf(span) } } : evt);
    } catch (err) {
      failed?.observe((performance.now() - started) / 1000);
      if (span) endSpan(span, err);
      throw err;
    }
    ok?.observe((performance.now() - started) / 1000);
    if (span) endSpan(span);
  };
}

function applierOf(
  s: Subscriber,
  { durable, inbox, log }: { durable: string; inbox: Inbox | undefined; log: Logger },
): (evt: DeliveredEvent) => Promise<void> {
  const check = TypeCompiler.Compile(s.event.payload);
  /** The event's metadata; its logger is made on first use (a pino child per event costs). */
  const metaOf = (evt: DeliveredEvent, tx: Db, committed: (() => void)[]): EventMeta => {
    const call = headersToContext(evt.headers, () => newId('req', Date.now()));
    let evtLog: Logger | undefined;
    return Object.defineProperty(
      {
        ...call,
        eventId: evt.id,
        subject: evt.subject,
        occurredAt: evt.occurredAt,
        deliveryCount: evt.deliveryCount,
        tx,
        afterCommit: (fn: () => void) => {
          committed.push(fn);
        },
      },
      'log',
      {
        get: () => {
          evtLog ??= log.child({ requestId: call.requestId, eventId: evt.id, subject: evt.subject });
          return evtLog;
        },
        enumerable: true,
      },
    ) as EventMeta;
  };
  /** Whether the payload matches its declaration; one that does not will never succeed, so it is dropped. */
  const valid = (evt: DeliveredEvent): boolean => {
    if (check.Check(evt.payload)) return true;
    log.error(
      { eventId: evt.id, subject: evt.subject, payload: evt.payload },
      'event payload does not match its schema; dropped',
    );
    return false;
  };
  const runCommitted = (committed: (() => void)[]) => {
    for (const fn of committed) {
      try {
        fn();
      } catch (err) {
        log.warn({ err, consumer: durable }, 'after-commit callback failed');
      }
    }
  };

  if (s.batch) {
    const batch = s.batch;
    /** Applies the events in one transaction and returns the after-commit callbacks to run. */
    const applyAll = async (events: DeliveredEvent[]): Promise<(() => void)[]> => {
      const committed: (() => void)[] = [];
      if (!inbox) {
        await batch.fn(
          events.map((evt) => ({ payload: evt.payload, meta: metaOf(evt, noDatabase, committed) })),
          noDatabase,
        );
        return committed;
      }
      await inbox.processBatch(
        durable,
        events.map((evt) => evt.id),
        async (fresh, tx) => {
          // Each id once, in delivery order (the same event may be delivered twice while its first delivery waits).
          const taken = new Set<string>();
          const list: BatchedEvent[] = [];
          for (const evt of events) {
            if (!fresh.has(evt.id) || taken.has(evt.id)) continue;
            taken.add(evt.id);
            list.push({ payload: evt.payload, meta: metaOf(evt, tx, committed) });
          }
          await batch.fn(list, tx);
        },
      );
      return committed;
    };
    const batcher = createBatcher<DeliveredEvent>({
      max: batch.max,
      maxWaitMs: batch.maxWaitMs,
      intervalMs: batch.intervalMs,
      concurrency: batch.concurrency,
      run: async (waiting: Waiting<DeliveredEvent>[]) => {
        const ready = waiting.filter((w) => {
          if (valid(w.item)) return true;
          w.resolve();
          return false;
        });
        if (ready.length === 0) return;
        try {
          const committed = await applyAll(ready.map((w) => w.item));
          for (const w of ready) w.resolve();
          runCommitted(committed);
          return;
        } catch (err) {
          if (ready.length === 1) throw err;
          log.warn({ err, consumer: durable, events: ready.length }, 'batch failed; applying its events one by one');
        }
        for (const w of ready) {
          try {
            const committed = await applyAll([w.item]);
            w.resolve();
            runCommitted(committed);
          } catch (err) {
            w.reject(err);
          }
        }
      },
    });
    return (evt) => batcher.add(evt);
  }
  return async (evt) => {
    if (!valid(evt)) return;
    const committed: (() => void)[] = [];
    if (!inbox) {
      await s.fn(evt.payload, metaOf(evt, noDatabase, committed));
      runCommitted(committed);
      return;
    }
    if (await inbox.processOnce(durable, evt.id, (tx) => s.fn(evt.payload, metaOf(evt, tx, committed)))) {
      runCommitted(committed);
    }
  };
}
