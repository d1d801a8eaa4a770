import { ScrollTable } from '../../../components/scroll-table';
import { ErrorAlert, Loading } from '../../../components/status';
import { useReadiness, useRecheckHealth } from '../api/health';
import { ADMIN } from '../strings';

const S = ADMIN.health;

/**
 * The gateway's liveness and each back-end component's readiness, checked again every 30 s and on demand (with the
 * services' view beside it).
 */
export function HealthPanel() {
  const health = useReadiness();
  const recheck = useRecheckHealth();
  if (health.isPending) return <Loading />;
  if (health.error) return <ErrorAlert error={health.error} />;
  const h = health.data;
  return (
    <section className="card" aria-labelledby="health-heading">
      <h2 id="health-heading">{h.ready ? S.ready : S.notReady}</h2>
      <div aria-live="polite">
        {!h.ready && h.message && <p className="alert alert-error">{h.message}</p>}
        <p>
          {S.gateway}: <span className={h.live ? 'badge' : 'badge bad'}>{h.live ? S.gatewayLive : S.gatewayDown}</span>
        </p>
        <p className="muted">{S.checkedAt(h.checkedAt.toLocaleTimeString())}</p>
      </div>
      <ScrollTable label={S.title}>
        <table>
          <caption className="visually-hidden">{S.title}</caption>
          <thead>
            <tr>
              <th scope="col">{S.component}</th>
              <th scope="col">{S.status}</th>
              <th scope="col">{S.version}</th>
              <th scope="col">{S.database}</th>
            </tr>
          </thead>
          <tbody>
            {h.components.map((c) => (
              <tr key={c.service}>
                <th scope="row">{c.service}</th>
                <td>
                  <span className={c.state === 'ready' ? 'badge' : 'badge bad'}>
                    {c.state === 'ready' ? S.isReady : c.state === 'missing' ? S.missing : S.failing}
                  </span>
                  {c.reason && <span className="muted"> {c.reason}</span>}
                </td>
                <td>{c.version ?? '—'}</td>
                <td>{c.database ? (S.databases[c.database] ?? c.database) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      <p>
        <button type="button" className="secondary" disabled={health.isFetching} onClick={() => void recheck()}>
          {S.refresh}
        </button>
      </p>
    </section>
  );
}
