import { formatDateTime, formatNumber } from '../../../lib/format';
import type { BatchReadings } from '../api/farms';
import { FARMS } from '../strings';
import { metricLabel } from './readings-charts';

const S = FARMS.alerts;

/** The batch's latest readings outside their targets, newest first; new ones are announced as they arrive. */
export function AlertsList({ alerts }: { alerts: BatchReadings['alerts'] }) {
  return (
    <section className="card" aria-labelledby="alerts-title">
      <h2 id="alerts-title">{S.title}</h2>
      <div role="log" aria-labelledby="alerts-title">
        {alerts.length === 0 ? (
          <p>{S.none}</p>
        ) : (
          <ul className="timeline">
            {alerts.map((a) => (
              <li key={`${a.at}-${a.metric}`}>
                <strong>
                  {S.item(
                    metricLabel(a.metric),
                    formatNumber(a.value, 2),
                    formatNumber(a.min, 2),
                    a.max >= Number.MAX_VALUE ? null : formatNumber(a.max, 2),
                  )}
                </strong>{' '}
                <span className="muted">{formatDateTime(a.at)}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
