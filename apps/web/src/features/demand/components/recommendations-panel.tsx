import { useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { EMPTY_LOCATION, LocationPicker, toApiLocation } from '../../../components/location-picker';
import { ErrorAlert, Loading } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatNumber } from '../../../lib/format';
import { type RecommendationQuery, useRecommendations } from '../api/demand';
import { DEMAND, METHODS } from '../strings';

const S = DEMAND.recommend;
type Method = NonNullable<RecommendationQuery['method']>;

/** Crops to plant at a place on an area, ranked, with their reasons. */
export function RecommendationsPanel() {
  const [place, setPlace] = useState(EMPTY_LOCATION);
  const [area, setArea] = useState('10');
  const [method, setMethod] = useState<Method>('open-field');
  const [startDate, setStartDate] = useState('');
  const [radius, setRadius] = useState('50');
  const [query, setQuery] = useState<RecommendationQuery | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const result = useRecommendations(query);
  const err = result.error;
  return (
    <section className="card" aria-labelledby="recommend-title">
      <h2 id="recommend-title">{S.title}</h2>
      <p className="hint">{S.lead}</p>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          const at = toApiLocation(place);
          setProblem(at ? null : S.missingLocation);
          if (!at) return;
          setQuery({
            lat: at.latitude,
            lon: at.longitude,
            areaM2: Number(area),
            method,
            radius: Number(radius),
            ...(startDate ? { startDate } : {}),
          });
        }}
      >
        <LocationPicker legend="Where you grow" value={place} onChange={setPlace} />
        <div className="row">
          <Field
            label={S.area}
            name="areaM2"
            type="number"
            min={0.1}
            step="any"
            required
            value={area}
            onChange={(e) => setArea(e.target.value)}
            error={errorFor(err, 'areaM2')}
          />
          <SelectField
            label={S.method}
            name="method"
            value={method}
            onChange={(v) => setMethod(v as Method)}
            options={METHODS.map((m) => ({ value: m, label: DEMAND.methods[m] }))}
          />
        </div>
        <div className="row">
          <Field
            label={S.startDate}
            name="startDate"
            type="date"
            value={startDate}
            onChange={(e) => setStartDate(e.target.value)}
            error={errorFor(err, 'startDate')}
          />
          <Field
            label={S.radius}
            name="radius"
            type="number"
            min={1}
            max={500}
            required
            value={radius}
            onChange={(e) => setRadius(e.target.value)}
            error={errorFor(err, 'radius')}
          />
        </div>
        <ErrorAlert error={problem ?? err} />
        <button type="submit">{S.submit}</button>
      </form>
      {query && result.isPending && <Loading />}
      {result.data &&
        (result.data.length === 0 ? (
          <p>{S.none}</p>
        ) : (
          <div className="table-wrap" role="status">
            <table>
              <caption className="visually-hidden">{S.title}</caption>
              <thead>
                <tr>
                  <th scope="col">{S.columns.rank}</th>
                  <th scope="col">{S.columns.crop}</th>
                  <th scope="col">{S.columns.harvest}</th>
                  <th scope="col">{S.columns.yield}</th>
                  <th scope="col">{S.columns.unmet}</th>
                  <th scope="col">{S.columns.revenue}</th>
                  <th scope="col">{S.columns.reasons}</th>
                </tr>
              </thead>
              <tbody>
                {result.data.map((r) => (
                  <tr key={r.crop}>
                    <td>{r.rank}</td>
                    <th scope="row">
                      {r.crop}
                      {!r.suitable && <span className="muted"> ({S.notSuitable})</span>}
                    </th>
                    <td>{r.harvestDate}</td>
                    <td>{formatNumber(r.expectedYieldKg, 1)} kg</td>
                    <td>{formatNumber(r.unmetDemandKg, 1)} kg</td>
                    <td>
                      {formatNumber(r.expectedRevenue.amount / 100, 2)} {r.expectedRevenue.currency}
                    </td>
                    <td>
                      <ul>
                        {r.reasonCodes.map((reason) => (
                          <li key={reason.code}>{S.reason(reason)}</li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
    </section>
  );
}
