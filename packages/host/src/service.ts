import { randomUUID } from 'node:crypto';
import { type Bus, type Endpoint, type EventMessage, INTERNAL_REPLY, type Subscription } from '@rootline/bus';
import {
  AppError,
  type BusReply,
  type CallContext,
  HEADER,
  headersToContext,
  type InputOf,
  idFromKey,
  isAppError,
  newId,
  type ReplyOf,
  type ServiceName,
  type ServiceStatus,
  type SubjectDef,
  statusSubject,
} from '@rootline/contracts';
import type { Database, Db, Inbox, InboxTable, Outbox, OutboxTable, ReadRouter, ReadTarget } from '@rootline/db';
import {
  createInbox,
  createOutbox,
  isDatabaseUnavailable,
  migrateSchema,
  openReadRouter,
  primaryReads,
} from '@rootline/db';
import type { Static, TObject } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import type { Registry } from 'prom-client';
import type { Agent } from './agent.js';
import { type Clock, systemClock } from './clock.js';
import { type BaseConfig, loadConfig } from './config.js';
import { deliveryHandler, noDatabase } from './consumers.js';
import type { HandlerContext } from './handler-context.js';
import type { LedgerRecorder } from './ledger/recorder.js';
import { ledgerRecorderOf, type ServiceLedger, serviceSettings } from './ledger/service-ledger.js';
import { lightHistogramOn } from './light-histogram.js';
import type { Logger } from './logger.js';
import { LATENCY_BUCKETS, type ServiceMetrics, serviceMetrics, unscrapedMetrics } from './metrics.js';
import type { Periodic } from './periodic.js';
import { replyWriter } from './reply-writer.js';
import type { Job } from './scheduled-job.js';
import { statisticsKeeper } from './statistics.js';
import type { Subscriber } from './subscriber.js';
import { endSpan, SpanKind, startSpan, traceparentOf } from './tracing.js';

/** Everything a service receives: one typed object, the same in embedded and cluster mode. */
export interface ServiceContext<C = BaseConfig, R = unknown> {
  bus: Bus;
  /** The service's database; only its own schema is touched. Absent for services without state. */
  db: Db;
  log: Logger;
  clock: Clock;
  config: C;
  /** Transactional outbox: enqueue events inside the transaction that changes state. */
  outbox: Outbox;
  /**
   * LISTENs on a PostgreSQL NOTIFY channel of the service's database (a `pg_notify` is delivered when its
   * transaction commits, to every instance): `fn` gets each payload, `onListen` runs each time listening (re)starts,
   * when notifications sent in a gap may have been missed. Resolves to a function that stops listening; without a
   * database, never calls either.
   */
  listen(channel: string, fn: (payload: string) => void, onListen?: () => void): Promise<() => Promise<void>>;
  /** Unique id of this instance. */
  instanceId: string;
  /** The process's metrics, where the service declares its own (blocks mined, deliveries by outcome, …). */
  metrics: ServiceMetrics;
  /**
   * Reads that may be served by a read replica (`DATABASE_READ_URL`): `ctx.reads.run(call, (db) => …)` runs on the
   * replica while it keeps up with the primary and the caller has not just written, on `db` otherwise. Only for
   * answers to requests that change nothing; a read inside a write, and every event consumer, use `db`.
   */
  reads: Reads;
  /**
   * The recorder of the service's declared ledger (`ServiceModule.ledger`), built, started and stopped by the host.
   * For a service without a ledger, a stand-in that throws on use.
   */
  ledger: LedgerRecorder<R>;
  /**
   * A new record's id: derived from the call's Idempotency-Key reference when it has one (`idFromKey`), so a
   * retried request names the same record, otherwise a fresh one at `clock`'s time (`newId`).
   */
  newId(prefix: string, call?: Pick<CallContext, 'idempotencyRef'>): string;
}

/** See `ServiceContext.reads`. */
export interface Reads {
  run<T>(call: CallContext, fn: (db: Db) => Promise<T>): Promise<T>;
}

/** One request subject and the function that answers it. */
export interface Handler {
  readonly def: SubjectDef;
  readonly fn: (input: unknown, call: HandlerContext) => Promise<unknown>;
}

/** Binds a handler to its declared subject; input and reply types come from the declaration. */
export function handle<D extends SubjectDef>(
  def: D,
  // Properties with a contract default are present: toEndpoint fills them in before the handler runs.
  fn: (input: InputOf<D>, call: HandlerContext) => Promise<ReplyOf<D>>,
): Handler {
  return { def, fn: fn as Handler['fn'] };
}

/** A service as `createService(ctx)` returns it: its handlers and subscribers in plain arrays. */
export interface ServiceDefinition {
  handlers: Handler[];
  subscribers?: Subscriber[];
  /**
   * Background work on a timer (`createScheduledJob`, `createPeriodic`): the host starts it after the handlers are
   * served and stops it after in-flight requests are answered. Runs are observed in `job_run_duration_seconds`.
   */
  jobs?: Job[];
  /**
   * The service's agents (`createAgent`): jobs with the shared state machine, started and stopped as `jobs`; their
   * rows are created before the handlers are served.
   */
  agents?: Agent[];
  /** Starts other background work (after handlers are served). */
  start?(): Promise<void>;
  /** Stops other background work (after in-flight requests are answered). */
  stop?(): Promise<void>;
  /** What the service adds to its `<service>.ops.status` answer (the host adds a declared ledger's intent counts). */
  status?(): Promise<Pick<ServiceStatus, 'ledgerIntents'>>;
}

/** A service package's description, exported from its `src/service.ts`. */
export interface ServiceModule<C extends TObject = typeof BaseConfig, R = unknown> {
  name: ServiceName;
  version: string;
  /** Settings schema (defaults to the base settings). */
  config?: C;
  /**
   * Own Postgres schema, its generated migrations, its outbox table and, for a service with subscribers, its
   * inbox table (both exported from its `schema.ts`).
   */
  db?: { schema: string; migrationsFolder: string; outbox: OutboxTable; inbox?: InboxTable };
  /**
   * Writes that must be on the ledger (needs `db`): the intents table and how recorded writes are stored. The host
   * builds the recorder (`ctx.ledger`), adds `LEDGER_RECOVER_AFTER_SECONDS` to the settings, runs the recovery
   * sweep between start and stop and reports the intent counts in the status and metrics.
   */
  ledger?: ServiceLedger<R>;
  create(ctx: ServiceContext<Static<C>, R>): ServiceDefinition | Promise<ServiceDefinition>;
}

export interface HostDeps {
  bus: Bus;
  database?: Database;
  log: Logger;
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
  /**
   * The process's metrics registry (scraped at the process's metrics listener, or at /api/metrics in embedded
   * mode). Without one the service keeps its metrics on a registry of its own that nobody scrapes.
   */
  metrics?: Registry;
}

export interface RunningService {
  readonly name: string;
  readonly instanceId: string;
  readonly outbox: Outbox;
  /** The service's inbox; absent for a service without a database or without an inbox table. */
  readonly inbox?: Inbox;
  /** The registry the service's metrics are on. */
  readonly metrics: Registry;
  /** Finishes in-flight requests, stops consumers and background work. The caller closes bus and database. */
  stop(): Promise<void>;
}

/** How often a service with subscribers deletes inbox records past their retention. */
const INBOX_PRUNE_EVERY_MS = 60 * 60 * 1000;

const noLedgerUse = async (): Promise<never> => {
  throw new Error('this service declares no ledger');
};
const noLedger: LedgerRecorder<never> = {
  recoverAfterMs: 0,
  record: noLedgerUse,
  intend: noLedgerUse,
  recordIntended: noLedgerUse,
  recover: async () => 0,
  start: () => {},
  stop: async () => {},
  hasIntent: noLedgerUse,
  intentCounts: noLedgerUse,
};

const noOutbox: Outbox = {
  enqueue: async () => {
    throw new Error('this service declares no outbox');
  },
  enqueueMany: async () => {
    throw new Error('this service declares no outbox');
  },
  commitWith: async () => {
    throw new Error('this service declares no outbox');
  },
  start: () => {},
  stop: async () => {},
  flush: async () => 0,
  backlog: async () => 0,
};

/**
 * The latency histogram of the endpoints a service answers, by service, subject and outcome (`ok` or the error
 * code): request rate, errors and duration in one family.
 */
export function endpointDuration(metrics: ServiceMetrics) {
  return lightHistogramOn(metrics.registry, {
    name: 'endpoint_request_duration_seconds',
    help: 'Requests answered by a service, by service, subject and outcome (ok or the error code)',
    labelNames: ['service', 'subject', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
  });
}

/**
 * Turns a handler into a bus endpoint: decode context, validate input, map errors to the spec's codes. With
 * `metrics`, each request is observed in `endpoint_request_duration_seconds`; with tracing on, each request is a
 * server span, child of the caller's `traceparent`, and the handler's calls and events carry this span on.
 */
export function toEndpoint(h: Handler, log: Logger, metrics?: ServiceMetrics, clock: Clock = systemClock): Endpoint {
  const answer = answerOf(h, log, clock);
  const subject = h.def.subject;
  const duration = metrics ? endpointDuration(metrics) : undefined;
  const service = metrics?.service ?? '';
  // The child of the common outcome is bound once: observing it costs no label lookup per request.
  const ok = duration?.child({ service, subject, outcome: 'ok' });
  const write = replyWriter(h.def);
  return {
    subject,
    handler: async (payload, headers) => {
      const started = duration ? performance.now() : 0;
      const span = startSpan(subject, SpanKind.SERVER, headers.traceparent, { 'messaging.destination.name': subject });
      const reply = await answer(payload, span ? { ...headers, traceparent: traceparentOf(span) } : headers);
      if (duration) {
        const seconds = (performance.now() - started) / 1000;
        if (reply.ok) ok?.observe(seconds);
        else duration.observe({ service, subject, outcome: reply.error.code }, seconds);
      }
      if (span) endSpan(span, reply.ok ? undefined : reply.error.code);
      if (!reply.ok) return reply;
      try {
        return write(reply.data);
      } catch (err) {
        // The handler's answer breaks the subject's reply schema (a required property missing, a wrong type): a
        // bug of this service, logged here with its detail; the caller gets the generic error.
        log.error({ err, subject }, 'reply does not match its contract');
        return INTERNAL_REPLY;
      }
    },
  };
}

function answerOf(
  h: Handler,
  log: Logger,
  clock: Clock,
): (payload: unknown, headers: Record<string, string>) => Promise<BusReply<unknown>> {
  const check = TypeCompiler.Compile(h.def.request);
  // Defaults are written once, in the contract, and filled in here for every caller (the gateway's validator
  // fills them too, so HTTP and bus callers see the same input). Skipped for requests that declare none.
  const withDefaults = JSON.stringify(h.def.request).includes('"default":');
  return async (payload, headers): Promise<BusReply<unknown>> => {
    const call = headersToContext(headers, () => newId('req', clock.now().getTime()));
    // The request's logger is built on first use: most requests log nothing, and a pino child costs a
    // serialisation of its bindings.
    let reqLog: Logger | undefined;
    const logOf = () => {
      reqLog ??= log.child({ requestId: call.requestId, subject: h.def.subject });
      return reqLog;
    };
    if (withDefaults) payload = Value.Default(h.def.request, payload);
    if (!check.Check(payload)) {
      const first = check.Errors(payload).First();
      const where = first?.path ? first.path.replace(/^\//, '').replaceAll('/', '.') : 'input';
      return {
        ok: false,
        error: { code: 'VALIDATION_ERROR', message: `${where}: ${first?.message ?? 'invalid input'}` },
      };
    }
    try {
      const context = Object.defineProperty({ ...call }, 'log', { get: logOf, enumerable: true }) as HandlerContext;
      const data = await h.fn(payload, context);
      return { ok: true, data };
    } catch (err) {
      if (isAppError(err)) return { ok: false, error: (err as AppError).toBody() };
      if (isDatabaseUnavailable(err)) {
        // An outage, not a bug: the caller may retry (503 with Retry-After at the gateway).
        logOf().warn({ err }, 'database unavailable');
        return {
          ok: false,
          error: {
            code: 'UNAVAILABLE',
            message: 'The database is unavailable; retry shortly',
            details: { retryAfterSeconds: 2 },
          },
        };
      }
      logOf().error({ err }, 'handler failed');
      return INTERNAL_REPLY;
    }
  };
}

/**
 * Starts one service on the given bus and database: validates its settings, applies its migrations,
 * serves its handlers (plus `<service>.ops.status`), starts its outbox relay and its durable consumers.
 */
export async function startService<C extends TObject, R = unknown>(
  mod: ServiceModule<C, R>,
  deps: HostDeps,
): Promise<RunningService> {
  const config = loadConfig(serviceSettings(mod) as C, deps.env ?? process.env);
  const instanceId = randomUUID();
  const log = deps.log.child({ instance: instanceId.slice(0, 8) });
  const startedAt = performance.now();
  const metrics = deps.metrics ? serviceMetrics(deps.metrics, mod.name) : unscrapedMetrics(mod.name);

  let outbox = noOutbox;
  let inbox: Inbox | undefined;
  if (mod.db) {
    if (!deps.database) throw new Error(`${mod.name} needs a database`);
    await migrateSchema(deps.database, { schema: mod.db.schema, migrationsFolder: mod.db.migrationsFolder });
    outbox = createOutbox({
      database: deps.database,
      table: mod.db.outbox,
      publish: (e) => publishTraced(deps.bus, e),
      log,
    });
    if (mod.db.inbox) inbox = createInbox({ database: deps.database, table: mod.db.inbox, log });
  }

  const router = mod.db && deps.database ? readRouter(deps.database, config as BaseConfig, metrics, log) : undefined;
  const clock = deps.clock ?? systemClock;
  let ledger: LedgerRecorder<R> | undefined;
  if (mod.ledger) {
    if (!mod.db || !deps.database) throw new Error(`${mod.name} declares a ledger but no database`);
    const { LEDGER_RECOVER_AFTER_SECONDS } = config as { LEDGER_RECOVER_AFTER_SECONDS: number };
    ledger = ledgerRecorderOf(mod.ledger, {
      db: deps.database.db,
      bus: deps.bus,
      outbox,
      log,
      clock,
      recoverAfterMs: LEDGER_RECOVER_AFTER_SECONDS * 1000,
    });
  }
  const ctx: ServiceContext<Static<C>, R> = {
    bus: deps.bus,
    db: mod.db && deps.database ? deps.database.db : noDatabase,
    reads: router
      ? { run: (call, fn) => router.run(call.readPrimary === true, fn) }
      : { run: (_call, fn) => fn(noDatabase) },
    log,
    clock,
    config,
    outbox,
    listen: (channel, fn, onListen) =>
      mod.db && deps.database ? deps.database.listen(channel, fn, onListen) : Promise.resolve(async () => {}),
    instanceId,
    metrics,
    ledger: ledger ?? (noLedger as LedgerRecorder<R>),
    newId: (prefix, call) =>
      call?.idempotencyRef ? idFromKey(prefix, call.idempotencyRef) : newId(prefix, clock.now().getTime()),
  };
  const def = await mod.create(ctx);
  const extraStatus = statusOf(def, ledger);
  const background: Job[] = [...(def.agents ?? []), ...(def.jobs ?? [])];
  for (const job of background) await job.prepare?.();
  const subscribers = def.subscribers ?? [];
  if (subscribers.length > 0 && mod.db && !inbox) {
    // Checked before anything is served or started, so a refused service leaves nothing running.
    throw new Error(`${mod.name} has subscribers and a database but no inbox: add db.inbox (inboxTable(schema))`);
  }

  const status = handle(statusSubject(mod.name), async () => {
    let database: 'ok' | 'error' | 'none' = 'none';
    if (mod.db && deps.database) {
      database = await deps.database.ping().then(
        () => 'ok' as const,
        () => 'error' as const,
      );
    }
    const backlog = database === 'ok' ? await outbox.backlog().catch(() => 0) : 0;
    const extra = database === 'ok' && extraStatus ? await extraStatus().catch(() => ({})) : {};
    return {
      ...extra,
      service: mod.name,
      instance: instanceId,
      version: mod.version,
      database,
      outboxBacklog: backlog,
      uptimeSeconds: (performance.now() - startedAt) / 1000,
    };
  });

  const served = await deps.bus.serve(
    { name: mod.name, version: mod.version },
    [...def.handlers, status].map((h) => toEndpoint(h, log, metrics, ctx.clock)),
  );
  outbox.start();
  // Prepared statements keep a generic plan (ADR 125); refreshed statistics make PostgreSQL plan them again as the
  // service's tables grow.
  let statistics: Periodic | undefined;
  if (mod.db && deps.database) {
    statistics = statisticsKeeper(deps.database, mod.db.schema, log);
    statistics.start();
  }

  const subscriptions: Subscription[] = [];
  const consumers: { durable: string; subscription: Subscription }[] = [];
  for (const s of subscribers) {
    const durable = `${mod.name}-${s.durable}`;
    const handler = deliveryHandler(s, { durable, inbox, log, metrics });
    const subscription = await deps.bus.consume({
      durable,
      subject: s.event.subject,
      ...s.options,
      // A batched subscriber holds its running batches and the next one gathering.
      ...(s.batch ? { maxInFlight: (s.batch.concurrency + 1) * s.batch.max } : {}),
      // Resolving acknowledges the event, so it is acknowledged only once the inbox transaction has committed.
      handler,
    });
    subscriptions.push(subscription);
    consumers.push({ durable, subscription });
  }
  readServiceGauges(metrics, { outbox, consumers, database: mod.db ? deps.database : undefined, status: extraStatus });
  let pruneTimer: NodeJS.Timeout | undefined;
  if (inbox && subscribers.length > 0) {
    const box = inbox;
    const prune = () => {
      box.prune().catch((err: unknown) => log.warn({ err }, 'inbox prune failed'));
    };
    prune();
    pruneTimer = setInterval(prune, INBOX_PRUNE_EVERY_MS).unref();
  }
  ledger?.start();
  for (const job of background) await job.start();
  await def.start?.();
  log.info({ handlers: def.handlers.length, subscribers: subscriptions.length }, `${mod.name} started`);

  return {
    name: mod.name,
    instanceId,
    outbox,
    inbox,
    metrics: metrics.registry,
    stop: async () => {
      metrics.stop();
      await served.stop();
      clearInterval(pruneTimer);
      await Promise.all(subscriptions.map((s) => s.stop()));
      await def.stop?.();
      await Promise.all(background.map((job) => job.stop()));
      await ledger?.stop();
      await statistics?.stop();
      await outbox.stop();
      await router?.close();
      log.info(`${mod.name} stopped`);
    },
  };
}

/** What the host adds to the service's status answer: the ledger's intent counts, then the service's own. */
function statusOf(def: ServiceDefinition, ledger: LedgerRecorder<unknown> | undefined): ServiceDefinition['status'] {
  if (!ledger) return def.status;
  return async () => ({ ledgerIntents: await ledger.intentCounts(), ...(await def.status?.()) });
}

/**
 * Where the service's `ctx.reads` go: a streaming replica named by `DATABASE_READ_URL` while it keeps up (PostgreSQL
 * only; the embedded database has none), the service's database otherwise. Counts reads by where they were served.
 */
function readRouter(database: Database, config: BaseConfig, metrics: ServiceMetrics, log: Logger): ReadRouter {
  const reads = metrics.counter({
    name: 'db_reads_total',
    help: 'Reads that may be served by a read replica, by service and where they were served (primary or replica)',
    labelNames: ['service', 'target'] as const,
  });
  const onRead = (target: ReadTarget) => reads.inc({ service: metrics.service, target });
  const url = config.DATABASE_READ_URL;
  if (url && database.driver === 'postgres') return openReadRouter({ primary: database, replicaUrl: url, log, onRead });
  if (url) log.warn('DATABASE_READ_URL is ignored: the embedded database has no replicas');
  return primaryReads(database, onRead);
}

/** Publishes an event from the outbox; with tracing on, as a producer span that the consumers' spans follow. */
function publishTraced(bus: Bus, e: EventMessage): Promise<void> {
  const span = startSpan(`publish ${e.subject}`, SpanKind.PRODUCER, e.headers[HEADER.traceparent], {
    'messaging.destination.name': e.subject,
    'messaging.message.id': e.id,
  });
  if (!span) return bus.publish(e);
  return bus.publish({ ...e, headers: { ...e.headers, [HEADER.traceparent]: traceparentOf(span) } }).then(
    () => endSpan(span),
    (err: unknown) => {
      endSpan(span, err);
      throw err;
    },
  );
}

/**
 * The gauges read from a service at each scrape: its outbox backlog, the lag of each of its consumers (events not
 * yet acknowledged) and its ledger intents by state. Nothing is read while the database does not answer.
 */
function readServiceGauges(
  metrics: ServiceMetrics & { stop(): void },
  o: {
    outbox: Outbox;
    consumers: { durable: string; subscription: Subscription }[];
    database: Database | undefined;
    status: ServiceDefinition['status'];
  },
): void {
  const service = metrics.service;
  if (o.database) {
    metrics.gauge(
      {
        name: 'outbox_backlog',
        help: 'Events committed by a service but not yet published, read at scrape time',
        labelNames: ['service'] as const,
      },
      async () => [{ labels: { service }, value: await o.outbox.backlog() }],
    );
  }
  if (o.consumers.length > 0) {
    metrics.gauge(
      {
        name: 'consumer_lag',
        help: 'Events a durable consumer has not acknowledged yet (not delivered, or delivered and in work)',
        labelNames: ['service', 'consumer'] as const,
      },
      () =>
        Promise.all(
          o.consumers.map(async (c) => ({
            labels: { service, consumer: c.durable },
            value: await c.subscription.lag(),
          })),
        ),
    );
  }
  const status = o.status;
  if (status) {
    metrics.gauge(
      {
        name: 'ledger_intents',
        help: 'Ledger writes of a service not finished yet (pending) or given up after repeated store failures (failed)',
        labelNames: ['service', 'state'] as const,
      },
      async () => {
        const counts = (await status()).ledgerIntents;
        if (!counts) return [];
        return [
          { labels: { service, state: 'pending' }, value: counts.pending },
          { labels: { service, state: 'failed' }, value: counts.failed },
        ];
      },
    );
  }
}

/** Thrown by a handler when a precondition is not met; a shorthand for the common NOT_FOUND case. */
export function notFound(what: string, id: string): AppError {
  return new AppError('NOT_FOUND', `${what} ${id} not found`);
}
