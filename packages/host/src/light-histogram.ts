import type { Registry } from 'prom-client';

/** One label set's figures: counts per bucket (not cumulative), sum and count. */
interface Series {
  labels: Record<string, string>;
  counts: number[];
  sum: number;
  count: number;
}

/** A bound label set of a `LightHistogram`: observing costs a bucket search and three additions. */
export interface HistogramChild {
  observe(value: number): void;
}

/**
 * A Prometheus histogram for hot paths, registered on a prom-client registry and exported in the same text format.
 * prom-client's own `observe` validates and hashes the labels on every call, even through `labels()` (about 2 µs
 * here); this one looks a label set up once (`child`), so a request pays only the observation.
 */
export class LightHistogram<L extends string = string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[],
    readonly buckets: readonly number[],
  ) {}

  /** The series of one label set (every label named), created on first use. Keep it: looking it up has a cost. */
  child(labels: Record<L, string>): HistogramChild {
    const values = this.labelNames.map((n) => String(labels[n]));
    const key = values.join('\u0000');
    let s = this.series.get(key);
    if (!s) {
      s = {
        labels: Object.fromEntries(this.labelNames.map((n, i) => [n, values[i]!])),
        counts: new Array(this.buckets.length).fill(0),
        sum: 0,
        count: 0,
      };
      this.series.set(key, s);
    }
    const series = s;
    const bounds = this.buckets;
    return {
      observe(value: number) {
        let i = 0;
        while (i < bounds.length && value > bounds[i]!) i++;
        if (i < bounds.length) series.counts[i]! += 1;
        series.sum += value;
        series.count += 1;
      },
    };
  }

  /** Observes one value for a label set (a lookup per call; bind a `child` on hot paths). */
  observe(labels: Record<L, string>, value: number): void {
    this.child(labels).observe(value);
  }

  /** The figures in prom-client's export format (what `registry.metrics()` prints). */
  get() {
    const values: {
      labels: Record<string, string | number>;
      sharedLabels: Record<string, string>;
      value: number;
      metricName: string;
    }[] = [];
    for (const s of this.series.values()) {
      let acc = 0;
      this.buckets.forEach((le, i) => {
        acc += s.counts[i]!;
        values.push({ labels: { le }, sharedLabels: s.labels, value: acc, metricName: `${this.name}_bucket` });
      });
      values.push({
        labels: { le: '+Inf' },
        sharedLabels: s.labels,
        value: s.count,
        metricName: `${this.name}_bucket`,
      });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.series = new Map();
  }
}

/** The light histogram named `cfg.name` on the registry, created and registered on first use. */
export function lightHistogramOn<L extends string>(
  registry: Registry,
  cfg: { name: string; help: string; labelNames: readonly L[]; buckets: readonly number[] },
): LightHistogram<L> {
  const found = registry.getSingleMetric(cfg.name) as unknown;
  if (found instanceof LightHistogram) return found as LightHistogram<L>;
  if (found) throw new Error(`metric ${cfg.name} exists and is not a light histogram`);
  const h = new LightHistogram(cfg.name, cfg.help, cfg.labelNames, cfg.buckets);
  registry.registerMetric(h as never);
  return h;
}
