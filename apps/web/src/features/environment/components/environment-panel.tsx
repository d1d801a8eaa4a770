import { useState } from 'react';
import { Link } from 'react-router';
import { Field } from '../../../components/field';
import { ErrorAlert, Loading } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatNumber } from '../../../lib/format';
import { KeptNotice } from '../../outbox/components/kept-notice';
import { type Recommendation, useRecommendations, useRecordClimate } from '../api/environment';
import { ENVIRONMENT } from '../strings';

const S = ENVIRONMENT.panel;

/** What was measured and the range it is judged against, the numbers as the reader's language writes them. */
function rangeOf({ params: p }: Recommendation): string {
  const range = { min: formatNumber(p.min, 2), max: formatNumber(p.max, 2), unit: S.unit(p.unit) };
  return p.measured === null ? S.optimal(range) : S.measured({ ...range, measured: formatNumber(p.measured, 2) });
}

/** The health score from the plant's current environment, the advice, and a quick climate reading. */
export function EnvironmentPanel({ plantId, canWrite }: { plantId: string; canWrite: boolean }) {
  const env = useRecommendations(plantId);
  const record = useRecordClimate(plantId);
  const [temperature, setTemperature] = useState('');
  const [humidity, setHumidity] = useState('');
  return (
    <section className="card" aria-labelledby="environment-heading">
      <h2 id="environment-heading">{S.title}</h2>
      {env.isPending ? (
        <Loading />
      ) : env.error ? (
        <ErrorAlert error={env.error} />
      ) : (
        <>
          {env.data.health.score === null ? (
            <p>{S.none}</p>
          ) : (
            <p>
              <strong>
                {S.score}: {S.outOf(formatNumber(env.data.health.score, 0))}
              </strong>{' '}
              <span className="muted">({S.ranges(env.data.health.ranges)})</span>
            </p>
          )}
          <h3>{S.recommendations}</h3>
          {env.data.recommendations.length === 0 ? (
            <p>{S.noRecommendations}</p>
          ) : (
            <ul>
              {env.data.recommendations.slice(0, 6).map((r) => (
                <li key={`${r.category}-${r.parameter}`}>
                  <span className={r.priority === 'high' ? 'badge bad' : 'badge'}>{S.priority(r.priority)}</span>{' '}
                  {S.advice(r.code)} <span className="muted">({rangeOf(r)})</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <p>
        <Link to={`/plants/${plantId}/environment`}>{S.details}</Link>
      </p>
      {canWrite && (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            record.mutate({ temperatureC: Number(temperature), humidityPercent: Number(humidity) });
          }}
        >
          <h3>{S.record}</h3>
          <ErrorAlert error={record.error} />
          <KeptNotice result={record.data} />
          <div className="row">
            <Field
              label={S.temperature}
              name="temperatureC"
              type="number"
              step="any"
              required
              value={temperature}
              onChange={(e) => setTemperature(e.target.value)}
              error={errorFor(record.error, 'temperatureC')}
            />
            <Field
              label={S.humidity}
              name="humidityPercent"
              type="number"
              step="any"
              min="0"
              max="100"
              required
              value={humidity}
              onChange={(e) => setHumidity(e.target.value)}
              error={errorFor(record.error, 'humidityPercent')}
            />
          </div>
          <button type="submit" className="secondary" disabled={record.isPending}>
            {S.submit}
          </button>
        </form>
      )}
    </section>
  );
}
