import { Chart } from '../../../components/chart/chart';
import { formatNumber } from '../../../lib/format';
import type { Analytics } from '../api/farms';
import { FARMS } from '../strings';

const S = FARMS.analytics;
const pct = (v: number | null) => (v === null ? '–' : `${formatNumber(v * 100, 1)} %`);
const num = (v: number | null, unit: string) => (v === null ? '–' : `${formatNumber(v, 2)} ${unit}`);

/** A farm's figures over the period: totals as numbers, the comparisons as charts (with their tables). */
export function FarmAnalyticsView({ analytics: a }: { analytics: Analytics }) {
  const t = a.totals;
  const crops = a.byCrop;
  const recipes = a.byRecipe;
  const zones = a.zones;
  return (
    <>
      <section className="card" aria-labelledby="totals">
        <h2 id="totals">{S.totals}</h2>
        <dl className="row">
          <div>
            <dt>{S.yieldPerM2}</dt>
            <dd>
              {num(t.yieldPerM2PerYear, 'kg')} <span className="hint">{S.yieldPerM2Hint}</span>
            </dd>
          </div>
          <div>
            <dt>{S.cycleDays}</dt>
            <dd>{num(t.cycleDays, 'days')}</dd>
          </div>
          <div>
            <dt>{S.compliance}</dt>
            <dd>{pct(t.compliance)}</dd>
          </div>
          <div>
            <dt>{S.success}</dt>
            <dd>{pct(t.successRate)}</dd>
          </div>
          <div>
            <dt>{S.utilisation}</dt>
            <dd>{pct(t.utilisation)}</dd>
          </div>
          <div>
            <dt>{S.harvested}</dt>
            <dd>
              {t.harvested} ({formatNumber(t.yieldKg, 2)} kg)
            </dd>
          </div>
        </dl>
      </section>
      {crops.length === 0 && zones.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <div className="cards">
          {crops.length > 0 && (
            <Chart
              title={S.yieldByCrop}
              summary={crops.map((c) => `${c.crop}: ${formatNumber(c.yieldKg, 2)} kg`).join('; ')}
              x={crops.map((c) => c.crop)}
              xKind="category"
              xLabel={S.crop}
              series={[{ label: S.yieldKg, values: crops.map((c) => c.yieldKg), kind: 'bars' }]}
            />
          )}
          {crops.length > 0 && (
            <Chart
              title={S.byCrop}
              summary={crops.map((c) => `${c.crop}: ${num(c.yieldPerM2PerYear, 'kg')}`).join('; ')}
              x={crops.map((c) => c.crop)}
              xKind="category"
              xLabel={S.crop}
              series={[
                {
                  label: S.yieldPerM2InUse,
                  values: crops.map((c) => c.yieldPerM2PerYear),
                  kind: 'bars',
                  color: '#6b3a8f',
                },
              ]}
            />
          )}
          {crops.length > 0 && (
            <Chart
              title={S.cycleByCrop}
              summary={crops.map((c) => `${c.crop}: ${num(c.cycleDays, 'days')}`).join('; ')}
              x={crops.map((c) => c.crop)}
              xKind="category"
              xLabel={S.crop}
              series={[{ label: S.cycleDays, values: crops.map((c) => c.cycleDays), kind: 'bars', color: '#3b5ba5' }]}
            />
          )}
          {recipes.length > 0 && (
            <Chart
              title={S.complianceByRecipe}
              summary={recipes.map((r) => `${r.name}: ${pct(r.compliance)}`).join('; ')}
              x={recipes.map((r) => r.name)}
              xKind="category"
              xLabel={S.recipe}
              yRange={[0, 100]}
              series={[
                {
                  label: S.compliance,
                  values: recipes.map((r) => (r.compliance === null ? null : r.compliance * 100)),
                  kind: 'bars',
                  color: '#b5542d',
                },
              ]}
            />
          )}
          {zones.length > 0 && (
            <Chart
              title={S.zoneUse}
              summary={zones.map((z) => `${z.name}: ${pct(z.utilisation)}`).join('; ')}
              x={zones.map((z) => z.name)}
              xKind="category"
              xLabel={S.zone}
              yRange={[0, 100]}
              series={[
                {
                  label: S.utilisation,
                  values: zones.map((z) => (z.utilisation === null ? null : z.utilisation * 100)),
                  kind: 'bars',
                  color: '#8a6d1d',
                },
              ]}
            />
          )}
        </div>
      )}
    </>
  );
}
