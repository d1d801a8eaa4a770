import { useState } from 'react';
import { Chart } from '../../../components/chart/chart';
import { Field, SelectField } from '../../../components/field';
import { ErrorAlert, Loading } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatNumber } from '../../../lib/format';
import { type Forecast, type ForecastQuery, useForecast } from '../api/demand';
import { CROPS, DEMAND } from '../strings';

const S = DEMAND.forecast;
type Crop = ForecastQuery['crop'];

/** A crop's demand forecast in a region: the history and the weeks ahead with their 80 % and 95 % intervals. */
export function ForecastPanel({ initial }: { initial?: { crop: Crop; region: string } }) {
  const [crop, setCrop] = useState<Crop>(initial?.crop ?? 'tomato');
  const [region, setRegion] = useState(initial?.region ?? '');
  const [weeks, setWeeks] = useState('4');
  const [query, setQuery] = useState<ForecastQuery | null>(null);
  const forecast = useForecast(query);
  const err = forecast.error;
  return (
    <section className="card" aria-labelledby="forecast-title">
      <h2 id="forecast-title">{S.title}</h2>
      <p className="hint">{S.lead}</p>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery({ crop, region: region.trim(), weeks: Number(weeks) });
        }}
      >
        <div className="row">
          <SelectField
            label={S.crop}
            name="crop"
            value={crop}
            onChange={(v) => setCrop(v as Crop)}
            options={CROPS.map((c) => ({ value: c, label: c }))}
            error={errorFor(err, 'crop')}
          />
          <Field
            label={S.region}
            name="region"
            required
            maxLength={241}
            hint={S.regionHint}
            value={region}
            onChange={(e) => setRegion(e.target.value)}
            error={errorFor(err, 'region')}
          />
          <Field
            label={S.weeks}
            name="weeks"
            type="number"
            min={1}
            max={26}
            required
            value={weeks}
            onChange={(e) => setWeeks(e.target.value)}
            error={errorFor(err, 'weeks')}
          />
        </div>
        <button type="submit">{S.submit}</button>
      </form>
      {query && forecast.isPending && <Loading />}
      <ErrorAlert error={err} />
      {forecast.data && <ForecastChart forecast={forecast.data} />}
    </section>
  );
}

function ForecastChart({ forecast: f }: { forecast: Forecast }) {
  const weeks = [...f.history.map((h) => h.weekStart), ...f.forecast.map((w) => w.weekStart)];
  const past = f.history.length;
  const lastHistory = f.history[past - 1]?.demandKg ?? null;
  const none = <T,>(n: number): (T | null)[] => Array.from({ length: n }, () => null);
  // The forecast line starts at the last recorded week, so the two lines join.
  const ahead = [...none<number>(past - 1), lastHistory, ...f.forecast.map((w) => w.demandKg)];
  const first = f.forecast[0];
  const b = f.backtest;
  return (
    <div role="status">
      <p>{S.method(f.method, f.basedOnWeeks)}</p>
      <Chart
        title={S.chart(f.crop, f.region)}
        summary={
          first
            ? S.summary(
                f.crop,
                formatNumber(first.demandKg, 1),
                formatNumber(first.pi95.lower, 1),
                formatNumber(first.pi95.upper, 1),
              )
            : S.chart(f.crop, f.region)
        }
        x={weeks}
        xKind="category"
        xLabel={S.week}
        series={[
          { label: S.history, values: [...f.history.map((h) => h.demandKg), ...none<number>(f.forecast.length)] },
          { label: S.forecast, values: ahead, dash: [6, 4], color: '#b5542d' },
        ]}
        bands={[
          {
            label: S.pi95,
            lower: [...none<number>(past), ...f.forecast.map((w) => w.pi95.lower)],
            upper: [...none<number>(past), ...f.forecast.map((w) => w.pi95.upper)],
            color: 'rgba(181, 84, 45, 0.12)',
          },
          {
            label: S.pi80,
            lower: [...none<number>(past), ...f.forecast.map((w) => w.pi80.lower)],
            upper: [...none<number>(past), ...f.forecast.map((w) => w.pi80.upper)],
            color: 'rgba(181, 84, 45, 0.22)',
          },
        ]}
      />
      <h3>{S.backtest}</h3>
      <p>
        {S.backtestText(
          b.points,
          b.mape === null ? '–' : `${formatNumber(b.mape, 2)} %`,
          b.mase === null ? '–' : formatNumber(b.mase, 3),
        )}
      </p>
    </div>
  );
}
