import {
  Counter,
  type CounterConfiguration,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  type HistogramConfiguration,
  Registry,
} from 'prom-client';

export type { Counter, Histogram, Registry } from 'prom-client';

/**
 * How often (ms) the event loop's delay is sampled for `nodejs_eventloop_lag_*`. prom-client's default, 10 ms, is a
 * libuv timer that wakes every process a hundred times a second even when it has nothing to do: across a cluster's
 * ten processes, a thousand wake-ups a second of a machine at rest. At 100 ms the percentiles scraped every 15 s
 * still rest on 150 samples.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/** Registers the default Node process metrics (CPU, memory, event loop, garbage collection) on `registry`. */
export function collectProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
}

/**
 * Creates the metrics registry of one process, with the default Node process metrics. A process that hosts several
 * services (embedded mode) has one, shared by all of them.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectProcessMetrics(registry);
  return registry;
}

type Config<L extends string> = { name: string; help: string; labelNames?: readonly L[] };

/** The counter named `cfg.name` on the registry, created on first use (services sharing a registry share it). */
export function counterOn<L extends string = string>(registry: Registry, cfg: Config<L>): Counter<L> {
  const found = registry.getSingleMetric(cfg.name);
  if (found) return found as Counter<L>;
  return new Counter({ ...cfg, registers: [registry] } as CounterConfiguration<L>);
}

/** The histogram named `cfg.name` on the registry, created on first use. */
export function histogramOn<L extends string = string>(
  registry: Registry,
  cfg: Config<L> & { buckets?: number[] },
): Histogram<L> {
  const found = registry.getSingleMetric(cfg.name);
  if (found) return found as Histogram<L>;
  return new Histogram({ ...cfg, registers: [registry] } as HistogramConfiguration<L>);
}

/** One reading of a gauge read at scrape time: its labels and value. */
export type Reading<L extends string> = { labels: Partial<Record<L, string>>; value: number };

/** A source of readings; readings of several sources with the same labels add up. */
export type ReadingSource<L extends string> = () => Reading<L>[] | Promise<Reading<L>[]>;

const sourcesByGauge = new WeakMap<Gauge<string>, Set<ReadingSource<string>>>();

/**
 * Adds a source to the gauge named `cfg.name`, read at each scrape (the gauge is created on first use). Sources
 * that fail are left out of that scrape rather than reported with a stale value. Returns a function that removes
 * the source (a stopped service reports nothing).
 */
export function gaugeReadAt<L extends string>(
  registry: Registry,
  cfg: Config<L>,
  source: ReadingSource<L>,
): () => void {
  let gauge = registry.getSingleMetric(cfg.name) as Gauge<L> | undefined;
  if (!gauge) {
    const sources = new Set<ReadingSource<string>>();
    gauge = new Gauge<L>({
      ...cfg,
      labelNames: cfg.labelNames ?? [],
      registers: [registry],
      async collect() {
        const all = await Promise.all(
          [...sources].map((s) =>
            Promise.resolve()
              .then(s)
              .catch(() => []),
          ),
        );
        this.reset();
        for (const readings of all) for (const r of readings) this.inc(r.labels as never, r.value);
      },
    });
    sourcesByGauge.set(gauge as Gauge<string>, sources);
  }
  const sources = sourcesByGauge.get(gauge as Gauge<string>);
  if (!sources) throw new Error(`metric ${cfg.name} exists and is not read at scrape time`);
  sources.add(source as ReadingSource<string>);
  return () => {
    sources.delete(source as ReadingSource<string>);
  };
}

/** Latency buckets (seconds) of requests and event deliveries: 1 ms to 10 s. */
export const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Buckets (seconds) of background runs and uploads, which take longer: 10 ms to 5 min. */
export const RUN_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/**
 * The metrics of one service: the registry of its process and the helpers to declare the service's own metrics on
 * it. Metric names are unique in the process; the families every service shares carry a `service` label.
 */
export interface ServiceMetrics {
  readonly registry: Registry;
  readonly service: string;
  counter<L extends string = string>(cfg: Config<L>): Counter<L>;
  histogram<L extends string = string>(cfg: Config<L> & { buckets?: number[] }): Histogram<L>;
  /** A gauge read at scrape time from `source` (see `gaugeReadAt`); removed when the service stops. */
  gauge<L extends string = string>(cfg: Config<L>, source: ReadingSource<L>): void;
  /** Records one run of background work (a scheduled job, an agent's cycle) by its name (`task`) and outcome. */
  run(task: string, outcome: 'ok' | 'error', seconds: number): void;
}

/** Creates the metrics of `service` on `registry`; `stop()` removes its scrape-time sources. */
export function serviceMetrics(registry: Registry, service: string): ServiceMetrics & { stop(): void } {
  const removers: (() => void)[] = [];
  const runs = histogramOn(registry, {
    name: 'job_run_duration_seconds',
    // `task`, not `job`: Prometheus sets `job` on every target.
    help: 'Runs of background work (scheduled jobs, agents, delivery rounds) by service, task and outcome',
    labelNames: ['service', 'task', 'outcome'] as const,
    buckets: RUN_BUCKETS,
  });
  return {
    registry,
    service,
    counter: (cfg) => counterOn(registry, cfg),
    histogram: (cfg) => histogramOn(registry, cfg),
    gauge: (cfg, source) => {
      removers.push(gaugeReadAt(registry, cfg, source));
    },
    run: (task, outcome, seconds) => runs.observe({ service, task, outcome }, seconds),
    stop: () => {
      for (const remove of removers.splice(0)) remove();
    },
  };
}

/** Metrics of a service that has none to report (tests, tools): a registry of its own, not scraped. */
export function unscrapedMetrics(service: string): ServiceMetrics & { stop(): void } {
  return serviceMetrics(new Registry(), service);
}
