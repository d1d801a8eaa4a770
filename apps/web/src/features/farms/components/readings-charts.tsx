import { Chart } from '../../../components/chart/chart';
import { formatNumber } from '../../../lib/format';
import type { BatchReadings, ReadingPoint } from '../api/farms';
import { FARMS } from '../strings';

const S = FARMS.charts;
type Metric = keyof typeof FARMS.metrics;
const METRICS = Object.keys(FARMS.metrics) as Metric[];

/** The label of a metric with its unit. */
export function metricLabel(metric: string): string {
  const m = FARMS.metrics[metric as Metric];
  if (!m) return metric;
  return m.unit ? `${m.label} (${m.unit})` : m.label;
}

/** One chart per metric the batch has readings of, each against the target band of the phase of every reading. */
export function ReadingsCharts({ readings }: { readings: BatchReadings }) {
  const points = readings.readings;
  const shown = METRICS.filter((m) => points.some((p) => p[m] !== null));
  return (
    <section className="card" aria-labelledby="readings-title">
      <h2 id="readings-title">{S.title}</h2>
      <p className="hint">{S.lead}</p>
      {points.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <>
          {readings.total > points.length && <p className="hint">{S.shown(points.length, readings.total)}</p>}
          <div className="cards">
            {shown.map((m) => (
              <MetricChart key={m} metric={m} points={points} />
            ))}
          </div>
        </>
      )}
    </section>
  );
}

function MetricChart({ metric, points }: { metric: Metric; points: readonly ReadingPoint[] }) {
  const label = metricLabel(metric);
  const rows = points.filter((p) => p[metric] !== null);
  const values = rows.map((p) => p[metric]);
  const lower = rows.map((p) => p.targets[metric]?.min ?? null);
  // An open upper bound (dissolved oxygen: at least 6 mg/L) is drawn to just above the highest value.
  const top = Math.max(...rows.map((p) => Math.max(p[metric] ?? 0, p.targets[metric]?.min ?? 0))) * 1.1;
  const upper = rows.map((p) => {
    const band = p.targets[metric];
    if (!band) return null;
    return band.max ?? top;
  });
  const last = rows.length - 1;
  const summary =
    last < 0
      ? S.noValues(label)
      : S.summary(
          label,
          formatNumber(values[last] ?? 0, 2),
          formatNumber(lower[last] ?? 0, 2),
          formatNumber(upper[last] ?? 0, 2),
          rows.length,
        );
  return (
    <Chart
      title={label}
      summary={summary}
      x={rows.map((p) => new Date(p.at).getTime())}
      xKind="time"
      xLabel={S.time}
      series={[{ label, values, kind: rows.length < 3 ? 'points' : 'line' }]}
      bands={[{ label: S.target, lower, upper }]}
      height={200}
    />
  );
}
