import { ScrollTable } from '../../../components/scroll-table';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatNumber } from '../../../lib/format';
import { useComponentHealth } from '../api/health';
import { ADMIN } from '../strings';

const S = ADMIN.services;
const badge = (status: string) => (status === 'ok' ? 'badge' : status === 'degraded' ? 'badge warn' : 'badge bad');
const ms = (v: number | null) => (v === null ? S.none : S.ms(formatNumber(v, 1)));
const seconds = (v: number | null) => (v === null ? S.none : S.seconds(formatNumber(v, 1)));

/** Each service as the transparency service measures it, and the shared database, bus, outbox and audit consumer. */
export function ServiceHealthPanel() {
  const health = useComponentHealth();
  return (
    <section className="card" aria-labelledby="services-heading">
      <h2 id="services-heading">{S.title}</h2>
      <p className="muted">{S.lead}</p>
      {health.isPending ? (
        <Loading />
      ) : health.error ? (
        <ErrorAlert error={health.error} />
      ) : (
        <>
          <p>
            <span className={badge(health.data.status)}>{S.overall(S.statuses[health.data.status] ?? '')}</span>{' '}
            <span className="muted">{S.checkedAt(new Date(health.data.checkedAt).toLocaleTimeString())}</span>
          </p>
          <ScrollTable label={S.table}>
            <table>
              <caption className="visually-hidden">{S.table}</caption>
              <thead>
                <tr>
                  <th scope="col">{S.columns.service}</th>
                  <th scope="col">{S.columns.status}</th>
                  <th scope="col">{S.columns.instances}</th>
                  <th scope="col">{S.columns.latency}</th>
                  <th scope="col">{S.columns.version}</th>
                  <th scope="col">{S.columns.database}</th>
                  <th scope="col">{S.columns.backlog}</th>
                </tr>
              </thead>
              <tbody>
                {health.data.services.map((s) => (
                  <tr key={s.service}>
                    <th scope="row">{s.service}</th>
                    <td>
                      <span className={badge(s.status)}>{S.statuses[s.status]}</span>
                      {s.error && <span className="muted"> {s.error}</span>}
                    </td>
                    <td>{s.instances}</td>
                    <td>{ms(s.latencyMs)}</td>
                    <td>{s.version ?? S.none}</td>
                    <td>{s.database ? (S.databases[s.database] ?? s.database) : S.none}</td>
                    <td>{s.outboxBacklog ?? S.none}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
          <h3>{S.platform}</h3>
          <dl className="facts">
            <dt>{S.database}</dt>
            <dd>
              <span className={badge(health.data.database.status)}>{S.statuses[health.data.database.status]}</span>{' '}
              {ms(health.data.database.latencyMs)}
            </dd>
            <dt>{S.bus}</dt>
            <dd>
              <span className={badge(health.data.bus.status)}>{S.statuses[health.data.bus.status]}</span>{' '}
              {S.busFacts(health.data.bus.instances, ms(health.data.bus.latencyMs))}
            </dd>
            <dt>{S.outbox}</dt>
            <dd>{S.outboxFacts(health.data.outbox.backlog, seconds(health.data.outbox.oldestPendingSeconds))}</dd>
            <dt>{S.consumer}</dt>
            <dd>
              {S.consumerFacts(
                seconds(health.data.consumer.lastDelaySeconds),
                seconds(health.data.consumer.maxDelaySeconds),
              )}
            </dd>
          </dl>
        </>
      )}
    </section>
  );
}
