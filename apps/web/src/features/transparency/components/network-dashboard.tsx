import { useMemo } from 'react';
import { Chart } from '../../../components/chart/chart';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useDashboard, useEventSummary } from '../api/network';
import { kindLabel, TRANSPARENCY } from '../strings';

const S = TRANSPARENCY.network;
const DAY = 86_400_000;

/** The network's figures and charts: events by kind, per day, and webhook deliveries by status. */
export function NetworkDashboard() {
  const dashboard = useDashboard();
  const from = useMemo(() => new Date(Math.floor(Date.now() / DAY) * DAY - 29 * DAY).toISOString(), []);
  const summary = useEventSummary(from);
  if (dashboard.isPending) return <Loading />;
  if (dashboard.error) return <ErrorAlert error={dashboard.error} />;
  const d = dashboard.data;
  const byKind = [...d.events.byKind].sort((a, b) => b.count - a.count);
  // Every day of the period, those without events as 0, so the time axis spans the 30 days.
  const counts = new Map((summary.data?.byDay ?? []).map((d) => [Date.parse(d.day), d.count]));
  const start = Date.parse(from);
  const byDay = counts.size
    ? Array.from({ length: 30 }, (_, i) => ({ day: start + i * DAY, count: counts.get(start + i * DAY) ?? 0 }))
    : [];
  const hooks = d.webhooks;
  return (
    <>
      <section className="card" aria-labelledby="figures-heading">
        <h2 id="figures-heading">{S.figures}</h2>
        <dl className="figures">
          <div>
            <dt>{S.auditEntries}</dt>
            <dd>{formatNumber(d.auditLog.entries, 0)}</dd>
            {d.auditLog.lastRecordedAt && <dd className="hint">{formatDateTime(d.auditLog.lastRecordedAt)}</dd>}
          </div>
          <div>
            <dt>{S.events}</dt>
            <dd>{formatNumber(d.events.total, 0)}</dd>
            <dd className="hint">
              {formatNumber(d.events.last24h, 0)} {S.last24h}
            </dd>
          </div>
          <div>
            <dt>{S.plants}</dt>
            <dd>{formatNumber(d.plants.registered, 0)}</dd>
            <dd className="hint">
              {formatNumber(d.plants.last30d, 0)} {S.last30d}
            </dd>
          </div>
          <div>
            <dt>{S.transport}</dt>
            <dd>{formatNumber(d.transport.events, 0)}</dd>
            <dd className="hint">{S.km(formatNumber(d.transport.distanceKm), formatNumber(d.transport.kgCo2e))}</dd>
          </div>
        </dl>
      </section>
      <div className="grid-2">
        <section className="card">
          {byKind.length === 0 ? (
            <p>{S.none}</p>
          ) : (
            <Chart
              title={S.byKind}
              summary={S.byKindSummary(kindLabel(byKind[0]!.kind))}
              x={byKind.map((k) => kindLabel(k.kind))}
              xKind="category"
              xLabel={S.kind}
              series={[{ label: S.count, values: byKind.map((k) => k.count), kind: 'bars' }]}
              format={(v) => formatNumber(v)}
            />
          )}
        </section>
        <section className="card">
          <Chart
            title={S.deliveries}
            summary={S.deliveriesSummary(hooks.delivered, hooks.failed)}
            x={['delivered', 'pending', 'failed']}
            xKind="category"
            xLabel={S.status}
            series={[
              {
                label: S.count,
                values: [hooks.delivered, hooks.pending, hooks.failed],
                kind: 'bars',
                color: '#3b5ba5',
              },
            ]}
            format={(v) => formatNumber(v)}
          />
        </section>
      </div>
      <section className="card">
        {summary.error ? (
          <ErrorAlert error={summary.error} />
        ) : summary.isPending ? (
          <Loading />
        ) : byDay.length === 0 ? (
          <p>{S.none}</p>
        ) : (
          <Chart
            title={S.perDay}
            summary={S.perDaySummary(
              byDay.reduce((n, day) => n + day.count, 0),
              counts.size,
            )}
            x={byDay.map((day) => day.day)}
            xKind="time"
            xLabel={S.day}
            series={[{ label: S.count, values: byDay.map((day) => day.count), kind: 'bars' }]}
            format={(v) => formatNumber(v)}
          />
        )}
      </section>
    </>
  );
}
