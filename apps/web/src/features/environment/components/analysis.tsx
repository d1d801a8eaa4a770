import { useState } from 'react';
import { Field } from '../../../components/field';
import { ScrollTable } from '../../../components/scroll-table';
import { ErrorAlert, Loading } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatNumber } from '../../../lib/format';
import { type AnalysisQuery, useAnalysis } from '../api/environment';
import { ENVIRONMENT } from '../strings';

const S = ENVIRONMENT.analysis;
const pValue = (p: number) => (p < 0.001 ? '< 0.001' : formatNumber(p, 3));

/**
 * Network-wide correlations of conditions with growth by species, with the multiple-comparison correction
 * explained: a row is significant by its corrected q, not its p.
 */
export function Analysis() {
  const [species, setSpecies] = useState('');
  const [minSamples, setMinSamples] = useState('10');
  const [query, setQuery] = useState<AnalysisQuery>({});
  const analysis = useAnalysis(query);
  return (
    <>
      <form
        className="row search-row"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery({
            ...(species.trim() ? { species: species.trim() } : {}),
            ...(minSamples ? { minSamples: Number(minSamples) } : {}),
          });
        }}
      >
        <Field
          label={S.species}
          name="species"
          value={species}
          onChange={(e) => setSpecies(e.target.value)}
          error={errorFor(analysis.error, 'species')}
        />
        <Field
          label={S.minSamples}
          name="minSamples"
          type="number"
          min={4}
          step={1}
          value={minSamples}
          onChange={(e) => setMinSamples(e.target.value)}
          error={errorFor(analysis.error, 'minSamples')}
        />
        <div className="actions">
          <button type="submit">{S.submit}</button>
        </div>
      </form>
      <section className="card" aria-labelledby="analysis-explain-heading">
        <h2 id="analysis-explain-heading">{S.explainTitle}</h2>
        {S.explain.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </section>
      {analysis.isPending ? (
        <Loading />
      ) : analysis.error ? (
        <ErrorAlert error={analysis.error} />
      ) : (
        <section aria-labelledby="analysis-results-heading">
          <h2 id="analysis-results-heading">{S.results}</h2>
          <p role="status">{S.summary(analysis.data.plants, analysis.data.tests, analysis.data.skipped)}</p>
          {analysis.data.correlations.length === 0 ? (
            <p>{S.none}</p>
          ) : (
            <ScrollTable label={S.results}>
              <table>
                <caption className="visually-hidden">{S.title}</caption>
                <thead>
                  <tr>
                    <th scope="col">{S.columns.species}</th>
                    <th scope="col">{S.columns.condition}</th>
                    <th scope="col">{S.columns.outcome}</th>
                    <th scope="col">{S.columns.n}</th>
                    <th scope="col">{S.columns.r}</th>
                    <th scope="col">{S.columns.ci}</th>
                    <th scope="col">{S.columns.p}</th>
                    <th scope="col">{S.columns.q}</th>
                    <th scope="col">{S.columns.significant}</th>
                  </tr>
                </thead>
                <tbody>
                  {analysis.data.correlations.map((c) => (
                    <tr key={`${c.species}-${c.condition}-${c.outcome}`}>
                      <td>{c.species}</td>
                      <td>{S.condition(c.condition)}</td>
                      <td>{S.condition(c.outcome)}</td>
                      <td>{c.n}</td>
                      <td>{formatNumber(c.r, 3)}</td>
                      <td>{S.interval(formatNumber(c.ci95.low, 2), formatNumber(c.ci95.high, 2))}</td>
                      <td>{pValue(c.pValue)}</td>
                      <td>{pValue(c.qValue)}</td>
                      <td>
                        <span className={c.significant ? 'badge' : 'badge idle'}>{c.significant ? S.yes : S.no}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollTable>
          )}
        </section>
      )}
    </>
  );
}
