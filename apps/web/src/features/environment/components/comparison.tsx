import { ErrorAlert, Loading } from '../../../components/status';
import { formatNumber } from '../../../lib/format';
import { useComparison, usePlantNames } from '../api/environment';
import { CATEGORIES, type FieldSpec, labelWithUnit, readableValue } from '../lib/fields';
import { ENVIRONMENT } from '../strings';

const S = ENVIRONMENT.compare;
const BY_KEY = Object.fromEntries(CATEGORIES.map((c) => [c.key, c]));

const show = (spec: (typeof CATEGORIES)[number] | undefined, field: FieldSpec | undefined, v: unknown) =>
  v === null || v === undefined
    ? S.missing
    : spec && field
      ? readableValue(spec.key, field, v)
      : typeof v === 'number'
        ? formatNumber(v, 2)
        : String(v);

/** Two plants' environments side by side: overall and per-category similarity, each value of both and b − a. */
export function Comparison({ plantA, plantB }: { plantA: string; plantB: string }) {
  const comparison = useComparison(plantA, plantB);
  const names = usePlantNames([plantA, plantB]);
  if (comparison.isPending) return <Loading />;
  if (comparison.error) return <ErrorAlert error={comparison.error} />;
  const c = comparison.data;
  const nameA = names[plantA] ?? plantA;
  const nameB = names[plantB] ?? plantB;
  return (
    <section aria-labelledby="comparison-heading">
      <h2 id="comparison-heading">
        {nameA} · {nameB}
      </h2>
      <p className="lead">
        {c.similarity === null ? (
          S.noOverlap
        ) : (
          <>
            {S.overall}: <strong>{S.outOf(formatNumber(c.similarity, 1))}</strong>
          </>
        )}
      </p>
      <p className="muted">{S.differenceIs}</p>
      <div>
        {c.categories.map((cat) => {
          const spec = BY_KEY[cat.category];
          const title = spec?.title ?? cat.category;
          const fields = new Map((spec?.fields ?? []).map((f) => [`${cat.category}.${f.path.join('.')}`, f]));
          // Values neither plant recorded say nothing: only those of at least one plant are listed.
          const rows = cat.differences.filter((d) => d.a !== null || d.b !== null);
          return (
            <section key={cat.category} className="card" aria-label={title}>
              <h3>
                {title}{' '}
                <span className="muted">
                  {cat.similarity === null ? '' : S.outOf(formatNumber(cat.similarity, 1))} ({S.weight(cat.weight)})
                </span>
              </h3>
              {rows.length === 0 ? (
                <p className="muted">{S.notBoth}</p>
              ) : (
                <div className="table-wrap">
                  <table className="compare-table">
                    <caption className="visually-hidden">{title}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{S.parameter}</th>
                        <th scope="col">{nameA}</th>
                        <th scope="col">{nameB}</th>
                        <th scope="col">{S.difference}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((d) => {
                        const field = fields.get(d.parameter);
                        return (
                          <tr key={d.parameter}>
                            <th scope="row">{field ? labelWithUnit(field) : d.parameter}</th>
                            <td>{show(spec, field, d.a)}</td>
                            <td>{show(spec, field, d.b)}</td>
                            <td>{d.difference === null ? S.missing : formatNumber(d.difference, 2)}</td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
          );
        })}
      </div>
    </section>
  );
}
