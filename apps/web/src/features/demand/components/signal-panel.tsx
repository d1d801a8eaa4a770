import { useState } from 'react';
import { Chart } from '../../../components/chart/chart';
import { Field } from '../../../components/field';
import { EMPTY_LOCATION, LocationPicker, toApiLocation } from '../../../components/location-picker';
import { ErrorAlert } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatNumber } from '../../../lib/format';
import { type Signal, useDemandSignal } from '../api/demand';
import { DEMAND } from '../strings';

const S = DEMAND.signal;
const kg = (v: number) => `${formatNumber(v, 1)} kg`;

/** Demand by region: a country and city, or a point and radius; per crop and week, net of committed supply. */
export function SignalPanel() {
  const signal = useDemandSignal();
  const [by, setBy] = useState<'name' | 'point'>('name');
  const [country, setCountry] = useState('');
  const [city, setCity] = useState('');
  const [point, setPoint] = useState(EMPTY_LOCATION);
  const [radius, setRadius] = useState('25');
  const [weeks, setWeeks] = useState('4');
  const [problem, setProblem] = useState<string | null>(null);
  const err = signal.error;
  return (
    <section className="card" aria-labelledby="signal-title">
      <h2 id="signal-title">{S.title}</h2>
      <p className="hint">{S.lead}</p>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          const at = toApiLocation(point);
          if (by === 'point' && !at) {
            setProblem(DEMAND.recommend.missingLocation);
            return;
          }
          setProblem(null);
          signal.mutate({
            region:
              by === 'point' && at
                ? { latitude: at.latitude, longitude: at.longitude, radiusKm: Number(radius) }
                : { country: country.trim(), ...(city.trim() ? { city: city.trim() } : {}) },
            horizonWeeks: Number(weeks),
          });
        }}
      >
        <fieldset className="checkbox-grid">
          <legend>{S.by}</legend>
          <label className="checkbox">
            <input type="radio" name="by" checked={by === 'name'} onChange={() => setBy('name')} />
            {S.byName}
          </label>
          <label className="checkbox">
            <input type="radio" name="by" checked={by === 'point'} onChange={() => setBy('point')} />
            {S.byPoint}
          </label>
        </fieldset>
        {by === 'name' ? (
          <div className="row">
            <Field
              label={S.country}
              name="country"
              required
              maxLength={120}
              value={country}
              onChange={(e) => setCountry(e.target.value)}
              error={errorFor(err, 'country')}
            />
            <Field
              label={S.city}
              name="city"
              maxLength={120}
              value={city}
              onChange={(e) => setCity(e.target.value)}
              error={errorFor(err, 'city')}
            />
          </div>
        ) : (
          <>
            <LocationPicker legend={S.byPoint} value={point} onChange={setPoint} />
            <Field
              label={S.radius}
              name="radiusKm"
              type="number"
              min={1}
              max={500}
              required
              value={radius}
              onChange={(e) => setRadius(e.target.value)}
              error={errorFor(err, 'radiusKm')}
            />
          </>
        )}
        <Field
          label={S.weeks}
          name="horizonWeeks"
          type="number"
          min={1}
          max={26}
          required
          value={weeks}
          onChange={(e) => setWeeks(e.target.value)}
          error={errorFor(err, 'horizonWeeks')}
        />
        <ErrorAlert error={problem ?? err} />
        <button type="submit" disabled={signal.isPending}>
          {signal.isPending ? S.busy : S.submit}
        </button>
      </form>
      {signal.data && <SignalResult signal={signal.data} />}
    </section>
  );
}

function SignalResult({ signal }: { signal: Signal }) {
  return (
    <div role="status">
      <p>{S.households(signal.consumers, signal.suppressedCrops)}</p>
      {signal.crops.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">{S.title}</caption>
              <thead>
                <tr>
                  <th scope="col">{S.columns.crop}</th>
                  <th scope="col">{S.columns.households}</th>
                  <th scope="col">{S.columns.demand}</th>
                  <th scope="col">{S.columns.supply}</th>
                  <th scope="col">{S.columns.gap}</th>
                </tr>
              </thead>
              <tbody>
                {signal.crops.map((c) => (
                  <tr key={c.crop}>
                    <th scope="row">{c.crop}</th>
                    <td>{c.consumers}</td>
                    <td>{kg(c.demandKg)}</td>
                    <td>{kg(c.supplyKg)}</td>
                    <td>{kg(c.gapKg)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="cards">
            {signal.crops.slice(0, 3).map((c) => (
              <Chart
                key={c.crop}
                title={S.chart(c.crop)}
                summary={S.chartSummary(
                  c.crop,
                  formatNumber(c.demandKg, 1),
                  formatNumber(c.supplyKg, 1),
                  formatNumber(c.gapKg, 1),
                )}
                x={c.weeks.map((w) => w.weekStart)}
                xKind="category"
                xLabel={S.week}
                series={[
                  { label: S.demand, values: c.weeks.map((w) => w.demandKg), kind: 'bars' },
                  { label: S.supply, values: c.weeks.map((w) => w.supplyKg), color: '#3b5ba5' },
                ]}
                height={200}
              />
            ))}
          </div>
        </>
      )}
    </div>
  );
}
