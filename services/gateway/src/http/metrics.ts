import type { Bus, RequestOptions } from '@rootline/bus';
import { type BusReply, HEADER, isAppError, newId } from '@rootline/contracts';
import {
  type Clock,
  collectProcessMetrics,
  endSpan,
  type LightHistogram,
  lightHistogramOn,
  SpanKind,
  startSpan,
  traceparentOf,
} from '@rootline/host';
import { Gauge, Registry } from 'prom-client';
import { probeServices } from './service-status.js';

/** Route label of requests that matched no route, so unknown URLs cannot grow the label set. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The gateway's metrics, on a registry of its own so that two gateways in one process do not collide. */
export interface GatewayMetrics {
  registry: Registry;
  httpDuration: LightHistogram<'method' | 'route' | 'status'>;
  busDuration: LightHistogram<'subject' | 'outcome'>;
}

/**
 * Creates the HTTP and bus latency histograms on `shared` (the registry of a process that hosts the services too,
 * embedded mode), or on a registry of the gateway's own with the default process metrics.
 */
export function createMetrics(shared?: Registry): GatewayMetrics {
  const registry = shared ?? new Registry();
  if (!shared) collectProcessMetrics(registry);
  // Light histograms: observed on every request, where prom-client's own cost about 2 µs each (ADR 135).
  const httpDuration = lightHistogramOn(registry, {
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  const busDuration = lightHistogramOn(registry, {
    name: 'bus_request_duration_seconds',
    help: 'Bus request latency by subject and outcome (ok or the error code)',
    labelNames: ['subject', 'outcome'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  return { registry, httpDuration, busDuration };
}

/**
 * Adds the gauges read from the services' status at each scrape: the outbox backlog, and the ledger writes a
 * service has not finished (`pending`) or gave up (`failed`, an operator's case). Every service is asked once per
 * scrape; services that do not answer are left out rather than reported with a stale value.
 */
export function addOutboxBacklogGauge(registry: Registry, bus: Bus, clock: Clock): void {
  // On a registry the services share, they report these themselves.
  if (registry.getSingleMetric('outbox_backlog')) return;
  // Both gauges of one scrape share one round of probes.
  let probing: { at: number; probes: ReturnType<typeof probeServices> } | undefined;
  const probe = () => {
    const now = performance.now();
    if (!probing || now - probing.at > 1000)
      probing = { at: now, probes: probeServices(bus, { requestId: newId('req', clock.now().getTime()) }) };
    return probing.probes;
  };
  new Gauge({
    name: 'outbox_backlog',
    help: 'Events committed by a service but not yet published, read at scrape time',
    labelNames: ['service'] as const,
    registers: [registry],
    async collect() {
      const probes = await probe();
      this.reset();
      for (const p of probes) {
        if (p.status) this.set({ service: p.service }, p.status.outboxBacklog);
      }
    },
  });
  new Gauge({
    name: 'ledger_intents',
    help: 'Ledger writes of a service not finished yet (pending) or given up after repeated store failures (failed)',
    labelNames: ['service', 'state'] as const,
    registers: [registry],
    async collect() {
      const probes = await probe();
      this.reset();
      for (const p of probes) {
        const counts = p.status?.ledgerIntents;
        if (!counts) continue;
        this.set({ service: p.service, state: 'pending' }, counts.pending);
        this.set({ service: p.service, state: 'failed' }, counts.failed);
      }
    },
  });
}

function outcomeOf(reply: unknown): string {
  const r = reply as Partial<BusReply<unknown>> | null;
  if (r?.ok === true) return 'ok';
  if (r?.ok === false && typeof r.error?.code === 'string') return r.error.code;
  return 'INTERNAL';
}

/** The outcome of a reply still in its JSON text: a success is recognised without parsing it. */
function outcomeOfText(text: string): string {
  if (text.startsWith('{"ok":true')) return 'ok';
  try {
    return outcomeOf(JSON.parse(text));
  } catch {
    return 'INTERNAL';
  }
}

/** Wraps a bus so each request's latency is observed with its subject and outcome. */
export function instrumentBus(bus: Bus, duration: GatewayMetrics['busDuration']): Bus {
  const observed = async <R>(
    subject: string,
    opts: RequestOptions | undefined,
    send: (opts: RequestOptions | undefined) => Promise<R>,
    outcomeOfReply: (reply: R) => string,
  ): Promise<R> => {
    const span = startSpan(`request ${subject}`, SpanKind.CLIENT, opts?.headers?.[HEADER.traceparent], {
      'messaging.destination.name': subject,
    });
    if (span) opts = { ...opts, headers: { ...opts?.headers, [HEADER.traceparent]: traceparentOf(span) } };
    const started = performance.now();
    const end = (outcome: string) => duration.observe({ subject, outcome }, (performance.now() - started) / 1000);
    try {
      const reply = await send(opts);
      const outcome = outcomeOfReply(reply);
      end(outcome);
      if (span) endSpan(span, outcome === 'ok' ? undefined : outcome);
      return reply;
    } catch (err) {
      end(isAppError(err) ? err.code : 'INTERNAL');
      if (span) endSpan(span, err);
      throw err;
    }
  };
  return {
    request: (subject, payload, opts) => observed(subject, opts, (o) => bus.request(subject, payload, o), outcomeOf),
    requestJson: (subject, payload, opts) =>
      observed(subject, opts, (o) => bus.requestJson(subject, payload, o), outcomeOfText),
    serve: (service, endpoints) => bus.serve(service, endpoints),
    publish: (event) => bus.publish(event),
    consume: (opts) => bus.consume(opts),
    broadcast: (subject, payload) => bus.broadcast(subject, payload),
    listen: (subject, handler) => bus.listen(subject, handler),
    discover: (timeoutMs) => bus.discover(timeoutMs),
    close: () => bus.close(),
  };
}
