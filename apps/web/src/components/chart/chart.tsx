import { useEffect, useId, useRef } from 'react';
import uPlot, { type AlignedData, type Options } from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { COMMON } from '../../lib/strings';

// Charts drawn with uPlot (ADR 141): a canvas for the eye, and the same numbers as a table for everyone else.

/** One line (or bars, or points) of a chart. */
export interface ChartSeries {
  label: string;
  values: readonly (number | null)[];
  /** CSS colour of the line or bars. */
  color?: string;
  kind?: 'line' | 'bars' | 'points';
  /** Dashes, e.g. [6, 4] for a forecast. */
  dash?: number[];
}

/** A shaded band between a lower and an upper bound (a target range, a prediction interval). */
export interface ChartBand {
  label: string;
  lower: readonly (number | null)[];
  upper: readonly (number | null)[];
  /** CSS colour of the fill (give it transparency). */
  color?: string;
}

export interface ChartProps {
  /** The caption: what the chart shows. */
  title: string;
  /** One sentence a screen reader announces for the picture, e.g. the last value against its band. */
  summary: string;
  /** Time in milliseconds since the epoch (`time`), or category names (`category`). */
  x: readonly number[] | readonly string[];
  xKind: 'time' | 'category';
  /** The heading of the x column in the table. */
  xLabel: string;
  series: readonly ChartSeries[];
  bands?: readonly ChartBand[];
  yLabel?: string;
  /** Fixed bounds of the value axis, e.g. [0, 100] for a percentage (default: fitted to the values). */
  yRange?: [number, number];
  height?: number;
  /** Formats values in the table and the axis (default: up to two decimals). */
  format?: (value: number) => string;
}

const PALETTE = ['#2f6b3a', '#b5542d', '#3b5ba5', '#8a6d1d', '#6b3a8f'];
const defaultFormat = (v: number) => (Math.round(v * 100) / 100).toLocaleString();

function xText(props: ChartProps, i: number): string {
  const v = props.x[i];
  if (props.xKind === 'category') return String(v);
  return new Date(Number(v)).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Longest category name drawn on the axis; the table under the chart gives the whole name. */
const AXIS_NAME_CHARS = 16;
const shorten = (name: string) => (name.length > AXIS_NAME_CHARS ? `${name.slice(0, AXIS_NAME_CHARS - 1)}…` : name);

/**
 * The x axis of categories: one tick each, names shortened; when they would not fit side by side they are slanted,
 * the axis tall enough for them, so neighbours never overlap.
 */
function categoryAxis(categories: readonly string[], width: number): uPlot.Axis {
  const names = categories.map(shorten);
  const longest = Math.max(1, ...names.map((n) => n.length));
  const slant = longest * 7.5 > (width - 60) / Math.max(1, categories.length);
  return {
    values: (_u, splits) => splits.map((v) => names[v] ?? ''),
    splits: () => categories.map((_, i) => i),
    ...(slant ? { rotate: -30, size: Math.round(longest * 4 + 28) } : { size: 40 }),
  };
}

/** The uPlot options and data of a chart (pure: tested without a canvas). */
export function chartSpec(props: ChartProps, width: number): { options: Options; data: AlignedData } {
  const format = props.format ?? defaultFormat;
  const xs = props.xKind === 'time' ? (props.x as readonly number[]).map((t) => t / 1000) : props.x.map((_, i) => i);
  const columns: (number | null)[][] = [];
  const series: Options['series'] = [{}];
  const bands: NonNullable<Options['bands']> = [];
  for (const [i, b] of (props.bands ?? []).entries()) {
    const fill = b.color ?? 'rgba(47, 107, 58, 0.15)';
    columns.push([...b.upper], [...b.lower]);
    series.push(
      { label: `${b.label} (upper)`, stroke: 'transparent', points: { show: false } },
      { label: `${b.label} (lower)`, stroke: 'transparent', points: { show: false } },
    );
    bands.push({ series: [1 + i * 2, 2 + i * 2], fill });
  }
  for (const [i, s] of props.series.entries()) {
    const color = s.color ?? PALETTE[i % PALETTE.length]!;
    columns.push([...s.values]);
    series.push({
      label: s.label,
      stroke: color,
      width: 2,
      ...(s.dash ? { dash: s.dash } : {}),
      ...(s.kind === 'bars'
        ? { fill: color, paths: uPlot.paths.bars?.({ size: [0.6, 64] }), points: { show: false } }
        : {}),
      ...(s.kind === 'points' ? { paths: () => null, points: { show: true, size: 6, fill: color } } : {}),
    });
  }
  const categories = props.xKind === 'category' ? (props.x as readonly string[]) : null;
  const options: Options = {
    width,
    height: props.height ?? 260,
    series,
    bands,
    // Categories sit at 0…n−1: half a step of room each side keeps the first and last bars whole.
    scales: {
      x: categories
        ? { time: false, range: (): uPlot.Range.MinMax => [-0.5, categories.length - 0.5] }
        : { time: props.xKind === 'time' },
      ...(props.yRange ? { y: { range: (): uPlot.Range.MinMax => props.yRange as uPlot.Range.MinMax } } : {}),
    },
    axes: [
      categories ? categoryAxis(categories, width) : { space: 90 },
      {
        label: props.yLabel,
        values: (_u, splits) => splits.map((v) => format(v)),
        // Wide enough for the longest label (a fixed width cut off values such as 2,000,000).
        size: (_u, values) => Math.max(48, Math.max(0, ...(values ?? []).map((v) => String(v).length)) * 8 + 18),
        space: 36,
      },
    ],
    // A key only where there is more than one thing to tell apart, never live values: hovering showed
    // "Value: --" rows under every chart. The numbers are in the table under the chart.
    legend: { show: props.series.length > 1, live: false },
    cursor: { drag: { x: false, y: false } },
  };
  return { options, data: [xs, ...columns] as AlignedData };
}

/** A chart with its caption, and its data as a table under "Show the data". */
export function Chart(props: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const captionId = useId();
  const format = props.format ?? defaultFormat;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const { options, data } = chartSpec(props, el.clientWidth || 600);
    const plot = new uPlot(options, data, el);
    // A band's bounds are drawn as two helper series, first in the key: the band is named in the table instead.
    const rows = plot.root.querySelectorAll<HTMLElement>('.u-legend .u-series');
    for (let i = 0; i < (props.bands?.length ?? 0) * 2; i++) rows[i]?.style.setProperty('display', 'none');
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth || 600, height: options.height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [props]);

  const rows = props.x.map((_, i) => i);
  return (
    <figure className="chart" aria-labelledby={captionId}>
      <figcaption id={captionId}>{props.title}</figcaption>
      <div ref={box} role="img" aria-label={props.summary} className="chart-canvas" data-points={props.x.length} />
      <details className="chart-data">
        <summary>{COMMON.showData}</summary>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{props.title}</caption>
            <thead>
              <tr>
                <th scope="col">{props.xLabel}</th>
                {props.series.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
                {(props.bands ?? []).map((b) => (
                  <th scope="col" key={b.label}>
                    {b.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((i) => (
                <tr key={i}>
                  <th scope="row">{xText(props, i)}</th>
                  {props.series.map((s) => (
                    <td key={s.label}>{s.values[i] == null ? '–' : format(s.values[i]!)}</td>
                  ))}
                  {(props.bands ?? []).map((b) => (
                    <td key={b.label}>
                      {b.lower[i] == null || b.upper[i] == null
                        ? '–'
                        : `${format(b.lower[i]!)} – ${format(b.upper[i]!)}`}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
