import { AppError } from '@rootline/contracts';
import {
  AckPolicy,
  type ConsumerConfig,
  type ConsumerMessages,
  connect,
  DeliverPolicy,
  ErrorCode,
  type JetStreamManager,
  type JsMsg,
  type MsgHdrs,
  type NatsConnection,
  NatsError,
  nanos,
  headers as natsHeaders,
  RequestStrategy,
  type ServiceMsg,
  StorageType,
} from 'nats';
import { copyHeaders, decodeJson, encodeJson, jsonText } from './codec.js';
import {
  ACK_WAIT_MS,
  type BusLog,
  DISCOVER_WAIT_MS,
  DUPLICATE_WINDOW_MS,
  EVENT_MAX_AGE_MS,
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

export interface NatsBusOptions {
  /** Server URL, e.g. `nats://127.0.0.1:4222`. */
  url: string;
  /** Connection name, shown by the server's monitoring. */
  name: string;
  /** JetStream stream holding the events (default `EVENTS`). */
  stream?: string;
  /** How long the stream keeps events (default EVENT_MAX_AGE_MS, 7 days). */
  eventMaxAgeMs?: number;
  log?: BusLog;
}

/** How long to wait between reconnect attempts; the client retries forever. */
const RECONNECT_WAIT_MS = 500;

function toNatsHeaders(h: Headers | undefined): MsgHdrs | undefined {
  const checked = copyHeaders(h);
  const keys = Object.keys(checked);
  if (keys.length === 0) return undefined;
  const out = natsHeaders();
  for (const k of keys) out.set(k, checked[k]!);
  return out;
}

/** Message headers as a plain object; `Nats-*` headers belong to the server (e.g. Nats-Msg-Id) and are left out. */
function fromNatsHeaders(h: MsgHdrs | undefined): Headers {
  const out: Headers = {};
  if (!h) return out;
  for (const k of h.keys()) {
    if (!k.toLowerCase().startsWith('nats-')) out[k] = h.get(k);
  }
  return out;
}

function isNatsCode(err: unknown, code: string): boolean {
  return err instanceof NatsError && err.code === code;
}

/** Errors of the connection itself: the request may not have reached anyone, and a retry later may succeed. */
const CONNECTION_ERRORS: ReadonlySet<string> = new Set([
  ErrorCode.Disconnect,
  ErrorCode.ConnectionClosed,
  ErrorCode.ConnectionDraining,
  ErrorCode.ConnectionRefused,
  ErrorCode.ConnectionTimeout,
]);

/**
 * The bus error of a failed request: no responder, a timeout and a lost connection are all UNAVAILABLE (the
 * caller may retry later); anything else is passed on as it is.
 */
export function requestError(err: unknown, subject: string, timeoutMs: number): unknown {
  if (isNatsCode(err, ErrorCode.NoResponders)) return unavailable(subject, 'no-responders');
  if (isNatsCode(err, ErrorCode.Timeout)) return unavailable(subject, 'timeout', timeoutMs);
  if (err instanceof NatsError && CONNECTION_ERRORS.has(err.code)) return unavailable(subject, 'disconnected');
  return err;
}

function isNotFound(err: unknown): boolean {
  return err instanceof NatsError && err.api_error?.code === 404;
}

/** A valid endpoint name derived from its subject (names are single tokens, subjects have dots). */
function endpointName(subject: string): string {
  return subject.replace(/[^-\w]/g, '_');
}

/**
 * Connects to NATS and returns the bus: request/reply through the NATS services API (queue group = service
 * name, discoverable with `$SRV.PING`) and events on a JetStream stream with durable pull consumers. The
 * connection retries forever after a loss, so a service outlives a NATS restart; only the first connect
 * fails fast.
 */
export async function createNatsBus(opts: NatsBusOptions): Promise<Bus> {
  const log = opts.log ?? jsonLog;
  const streamName = opts.stream ?? 'EVENTS';
  const maxAge = nanos(opts.eventMaxAgeMs ?? EVENT_MAX_AGE_MS);
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers: opts.url,
      name: opts.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: RECONNECT_WAIT_MS,
      // Async stack traces make nats.js build an Error on every request just in case it fails; measured at
      // tens of microseconds per request, on the hot path of every API call.
      noAsyncTraces: true,
    });
  } catch (err) {
    throw new Error(`cannot reach NATS at ${opts.url}: ${(err as Error).message}`, { cause: err });
  }

  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') log.warn(`bus ${opts.name}: disconnected from NATS`);
      else if (s.type === 'reconnect') log.info(`bus ${opts.name}: reconnected to NATS`);
      else if (s.type === 'error') log.error({ err: s.data }, `bus ${opts.name}: NATS error`);
    }
  })();

  /**
   * A flush (PING, then its PONG) issued once the current turn of the event loop is over, shared by everything
   * published until then: every message published before it was sent is known to the server when it resolves.
   */
  let pendingFlush: Promise<void> | undefined;
  const flushAfterTurn = () => {
    pendingFlush ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      pendingFlush = undefined;
      return nc.flush();
    });
    return pendingFlush;
  };

  const js = nc.jetstream();
  let jsmReady: Promise<JetStreamManager> | undefined;
  const manager = () => {
    jsmReady ??= nc.jetstreamManager().catch((err: unknown) => {
      jsmReady = undefined;
      throw err;
    });
    return jsmReady;
  };

  let streamReady: Promise<void> | undefined;
  /**
   * Creates the event stream if it is missing. An existing stream is left as its owner configured it, except
   * that one kept without a maximum age (as early versions created it) gets the configured one.
   */
  const ensureStream = () => {
    streamReady ??= (async () => {
      const jsm = await manager();
      try {
        const info = await jsm.streams.info(streamName);
        if (!info.config.max_age) await jsm.streams.update(streamName, { ...info.config, max_age: maxAge });
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      try {
        await jsm.streams.add({
          name: streamName,
          subjects: [EVENT_SUBJECTS],
          storage: StorageType.File,
          duplicate_window: nanos(DUPLICATE_WINDOW_MS),
          max_age: maxAge,
        });
      } catch (err) {
        // Another instance may have created it a moment ago.
        await jsm.streams.info(streamName).catch(() => Promise.reject(err));
      }
    })().catch((err: unknown) => {
      streamReady = undefined;
      throw err;
    });
    return streamReady;
  };

  /** Creates the durable if missing, keeps its position if present, and applies the delivery limits asked for. */
  const ensureConsumer = async (o: ConsumeOptions, ackWaitMs: number, maxDeliver: number) => {
    const jsm = await manager();
    const wanted: Partial<ConsumerConfig> = {
      durable_name: o.durable,
      filter_subject: o.subject,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(ackWaitMs),
      max_deliver: maxDeliver,
      deliver_policy: DeliverPolicy.All,
    };
    const find = () =>
      jsm.consumers.info(streamName, o.durable).catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
    let info = await find();
    if (!info) {
      try {
        await jsm.consumers.add(streamName, wanted);
        return;
      } catch (err) {
        // Another instance may have created it a moment ago.
        info = await find();
        if (!info) throw err;
      }
    }
    if (info.config.filter_subject !== o.subject) {
      throw new Error(
        `durable ${o.durable} already exists with filter ${info.config.filter_subject}, not ${o.subject}`,
      );
    }
    if (info.config.ack_wait !== wanted.ack_wait || info.config.max_deliver !== maxDeliver) {
      await jsm.consumers.update(streamName, o.durable, { ack_wait: wanted.ack_wait, max_deliver: maxDeliver });
    }
  };

  const served = new Set<ServedService>();
  const subscriptions = new Set<Subscription>();
  let closing: Promise<void> | undefined;

  /** Runs one request through its handler and replies; a throwing handler gets the generic INTERNAL reply. */
  const answer = async (service: ServiceDescriptor, endpoint: Endpoint, msg: ServiceMsg) => {
    let input: unknown;
    try {
      input = decodeJson(msg.data);
    } catch {
      msg.respond(
        encodeJson({ ok: false, error: { code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' } }),
      );
      return;
    }
    let reply: Uint8Array;
    try {
      reply = encodeJson(await endpoint.handler(input, fromNatsHeaders(msg.headers)));
    } catch (err) {
      log.error({ err }, `bus: ${service.name} failed on ${msg.subject}`);
      reply = encodeJson(INTERNAL_REPLY);
    }
    msg.respond(reply);
  };

  /** Handles one event: ack on success, nak with back-off on failure, term once the deliveries are spent. */
  const handleEvent = async (o: ConsumeOptions, maxDeliver: number, m: JsMsg) => {
    const deliveryCount = m.info.deliveryCount;
    let event: DeliveredEvent;
    try {
      const body = decodeJson(m.data) as Omit<EventMessage, 'headers'>;
      event = { ...body, subject: m.subject, headers: fromNatsHeaders(m.headers), deliveryCount };
    } catch (err) {
      // A body no handler can read would fail on every delivery: drop it once, loudly.
      log.error({ err }, `bus: ${o.durable} dropped an undecodable event (stream seq ${m.seq})`);
      m.term();
      return;
    }
    try {
      // Acknowledged only once the handler has resolved: for a host subscriber, after its inbox transaction commits.
      await o.handler(event);
      m.ack();
    } catch (err) {
      if (deliveryCount >= maxDeliver) {
        log.error(
          { err },
          `bus: ${o.durable} gives up event ${event.id} (${event.subject}) after ${deliveryCount} deliveries`,
        );
        m.term();
      } else {
        log.warn({ err }, `bus: ${o.durable} failed event ${event.id} (${event.subject}), delivery ${deliveryCount}`);
        m.nak(nakDelayMs(deliveryCount));
      }
    }
  };

  async function requestBytes(subject: string, payload: unknown, ro: RequestOptions): Promise<Uint8Array> {
    const timeoutMs = ro.timeoutMs ?? REQUEST_TIMEOUT_MS;
    const body = encodeJson(payload);
    const headers = toNatsHeaders(ro.headers);
    try {
      const msg = await nc.request(subject, body, headers ? { timeout: timeoutMs, headers } : { timeout: timeoutMs });
      return msg.data;
    } catch (err) {
      throw requestError(err, subject, timeoutMs);
    }
  }

  return {
    async request(subject: string, payload: unknown, ro: RequestOptions = {}): Promise<unknown> {
      return decodeJson(await requestBytes(subject, payload, ro));
    },

    async requestJson(subject: string, payload: unknown, ro: RequestOptions = {}): Promise<string> {
      return jsonText(await requestBytes(subject, payload, ro));
    },

    async serve(service: ServiceDescriptor, endpoints: Endpoint[]): Promise<ServedService> {
      if (!NAME.test(service.name)) throw new Error(`invalid service name "${service.name}"`);
      const srv = await nc.services.add({
        name: service.name,
        version: service.version,
        description: service.description ?? '',
        queue: service.name,
      });
      const inFlight = new Set<Promise<void>>();
      for (const endpoint of endpoints) {
        srv.addEndpoint(endpointName(endpoint.subject), {
          subject: endpoint.subject,
          queue: service.name,
          handler: (err, msg) => {
            if (err) {
              log.error({ err }, `bus: ${service.name} endpoint ${endpoint.subject} failed`);
              return;
            }
            const run: Promise<void> = answer(service, endpoint, msg)
              .catch((e: unknown) => log.error({ err: e }, `bus: ${service.name} could not reply on ${msg.subject}`))
              .finally(() => inFlight.delete(run));
            inFlight.add(run);
          },
        });
      }
      // A flush is a round trip to the server: once it returns, the server has every subscription above, so a
      // request from any connection finds this instance and discovery lists it ("discoverable at once").
      await nc.flush();
      let stopped: Promise<void> | undefined;
      const handle: ServedService = {
        id: srv.info().id,
        stop() {
          stopped ??= (async () => {
            // Draining the subscriptions hands over what already arrived; then wait for those handlers.
            await srv.stop();
            while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
            served.delete(handle);
          })();
          return stopped;
        },
      };
      served.add(handle);
      return handle;
    },

    async publish(event: EventMessage): Promise<void> {
      const body = encodeJson({
        id: event.id,
        subject: event.subject,
        occurredAt: event.occurredAt,
        payload: event.payload,
      });
      const headers = toNatsHeaders(event.headers);
      await ensureStream();
      try {
        await js.publish(event.subject, body, headers ? { msgID: event.id, headers } : { msgID: event.id });
      } catch (err) {
        if (isNatsCode(err, ErrorCode.NoResponders)) throw new Error(`no stream stores ${event.subject}`);
        if (isNatsCode(err, ErrorCode.Timeout)) {
          throw new AppError('UNAVAILABLE', `event store did not confirm ${event.subject} ${event.id}`);
        }
        throw err;
      }
    },

    async consume(o: ConsumeOptions): Promise<Subscription> {
      if (!NAME.test(o.durable)) throw new Error(`invalid durable name "${o.durable}"`);
      const ackWaitMs = o.ackWaitMs ?? ACK_WAIT_MS;
      const maxDeliver = o.maxDeliver ?? MAX_DELIVER;
      await ensureStream();
      await ensureConsumer(o, ackWaitMs, maxDeliver);
      const consumer = await js.consumers.get(streamName, o.durable);
      const maxInFlight = o.maxInFlight ?? MAX_IN_FLIGHT;
      const messages: ConsumerMessages = await consumer.consume({ max_messages: maxInFlight });
      const inFlight = new Set<Promise<void>>();
      const loop = (async () => {
        for await (const m of messages) {
          // Bounded concurrency: one slow event must not hold up the others, nor may all of them run at once.
          while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
          const run: Promise<void> = handleEvent(o, maxDeliver, m)
            .catch((err: unknown) => log.error({ err }, `bus: ${o.durable} could not settle an event`))
            .finally(() => inFlight.delete(run));
          inFlight.add(run);
        }
      })().catch((err: unknown) => log.error({ err }, `bus: consumer ${o.durable} stopped`));
      let stopped: Promise<void> | undefined;
      const subscription: Subscription = {
        async lag() {
          const info = await (await manager()).consumers.info(streamName, o.durable);
          return info.num_pending + info.num_ack_pending;
        },
        stop() {
          stopped ??= (async () => {
            await messages.close();
            await loop;
            // Let running handlers acknowledge; past the ack wait their events are redelivered anyway.
            await settleWithin(inFlight, ackWaitMs);
            subscriptions.delete(subscription);
          })();
          return stopped;
        },
      };
      subscriptions.add(subscription);
      return subscription;
    },

    async broadcast(subject: string, payload: unknown): Promise<void> {
      nc.publish(subject, encodeJson(payload));
      // A round trip: once it returns, the server has passed the signal on to every listener it knows. The
      // broadcasts of one turn of the event loop share it (one PING after all their messages).
      await flushAfterTurn();
    },

    async listen(subject: string, handler: (payload: unknown) => void): Promise<Subscription> {
      const sub = nc.subscribe(subject, {
        callback: (err, msg) => {
          if (err) return;
          try {
            handler(decodeJson(msg.data));
          } catch (e) {
            log.error({ err: e }, `bus ${opts.name}: listener of ${subject} failed`);
          }
        },
      });
      // The subscription is known to the server before this resolves, so no later broadcast is missed.
      await nc.flush();
      return {
        lag: async () => 0,
        async stop() {
          if (!sub.isClosed()) sub.unsubscribe();
        },
      };
    },

    async discover(timeoutMs = DISCOVER_WAIT_MS): Promise<DiscoveredService[]> {
      const client = nc.services.client({ strategy: RequestStrategy.Timer, maxWait: timeoutMs });
      const found: DiscoveredService[] = [];
      try {
        for await (const s of await client.ping()) found.push({ name: s.name, id: s.id, version: s.version });
      } catch (err) {
        // Nobody answering $SRV.PING just means no service is running.
        if (!isNatsCode(err, ErrorCode.NoResponders)) throw err;
      }
      return found;
    },

    close(): Promise<void> {
      closing ??= (async () => {
        await Promise.all([...served].map((s) => s.stop()));
        await Promise.all([...subscriptions].map((s) => s.stop()));
        if (!nc.isClosed()) await nc.drain();
      })();
      return closing;
    },
  };
}
