/**
 * The bus: request/reply between services and a durable stream of domain events.
 * Two implementations share this interface and one contract test suite: NATS (cluster mode)
 * and an in-process broker (embedded mode). Payloads are JSON values; both serialise them.
 */

export type Headers = Record<string, string>;

/** One request subject a service answers. The handler's return value is the reply body. */
export interface Endpoint {
  subject: string;
  handler: (payload: unknown, headers: Headers) => Promise<unknown>;
}

export interface ServiceDescriptor {
  /** Service name; also its queue group, so instances of one service share the load. */
  name: string;
  version: string;
  description?: string;
}

export interface ServedService {
  /** Unique id of this instance. */
  readonly id: string;
  /** Stops taking new requests and resolves once every in-flight request has been answered. */
  stop(): Promise<void>;
}

/** A domain event as it is published (its id is the de-duplication id). */
export interface EventMessage {
  id: string;
  subject: string;
  occurredAt: string;
  payload: unknown;
  headers: Headers;
}

/** An event as a consumer receives it. */
export interface DeliveredEvent extends EventMessage {
  /** 1 on first delivery, more on redelivery. */
  deliveryCount: number;
}

export interface ConsumeOptions {
  /** Durable consumer name; instances that use the same name share its events. */
  durable: string;
  /** Subject filter, NATS wildcards allowed (`evt.plants.>`). */
  subject: string;
  /** Resolving acknowledges the event; throwing asks for redelivery after a back-off. */
  handler: (event: DeliveredEvent) => Promise<void>;
  /** How long an unacknowledged delivery waits before redelivery (default 30 s). */
  ackWaitMs?: number;
  /** Deliveries before an event is given up and logged (default 10). */
  maxDeliver?: number;
  /**
   * Events handed to this subscription at once, unacknowledged (default 8). A consumer that applies events in
   * batches raises it, so the next batch gathers while the current one commits.
   */
  maxInFlight?: number;
}

export interface Subscription {
  /** Stops receiving; unacknowledged events are redelivered to another instance or later. */
  stop(): Promise<void>;
  /**
   * Events of the durable consumer not acknowledged yet, whichever instance holds them: not delivered yet, or
   * delivered and in work. Read for the consumer-lag metric. A signal listener (`listen`) has none: 0.
   */
  lag(): Promise<number>;
}

export interface DiscoveredService {
  name: string;
  id: string;
  version: string;
}

export interface RequestOptions {
  headers?: Headers;
  timeoutMs?: number;
}

export interface Bus {
  /**
   * Sends a request and resolves with the reply body. Rejects with AppError('UNAVAILABLE') when nobody
   * serves the subject or no reply arrives within the timeout.
   */
  request(subject: string, payload: unknown, opts?: RequestOptions): Promise<unknown>;
  /**
   * `request`, resolving with the reply's JSON text as it arrived instead of the parsed value: for a caller that
   * forwards the reply (the gateway writes a service's reply into its HTTP answer without parsing it again).
   */
  requestJson(subject: string, payload: unknown, opts?: RequestOptions): Promise<string>;
  /** Registers a service instance with its endpoints (queue group = service name), discoverable at once. */
  serve(service: ServiceDescriptor, endpoints: Endpoint[]): Promise<ServedService>;
  /** Publishes a domain event durably; a second publish of the same id inside the window is dropped. */
  publish(event: EventMessage): Promise<void>;
  /** Starts a durable consumer with explicit acknowledgement and redelivery. */
  consume(opts: ConsumeOptions): Promise<Subscription>;
  /**
   * Sends a signal to every instance listening on the subject right now: no queue group, nothing stored,
   * no acknowledgement. For news every replica must hear at once and may safely miss while it is down
   * (e.g. "drop this session from your cache": a replica that starts later starts with an empty cache).
   */
  broadcast(subject: string, payload: unknown): Promise<void>;
  /** Receives every signal broadcast on the subject while the subscription lasts. */
  listen(subject: string, handler: (payload: unknown) => void): Promise<Subscription>;
  /** Lists running service instances (NATS: `$SRV.PING`). */
  discover(timeoutMs?: number): Promise<DiscoveredService[]>;
  /** Drains subscriptions and closes the connection. */
  close(): Promise<void>;
}
