import { useState } from 'react';
import { Link } from 'react-router';
import { SelectField } from '../../../components/field';
import { Pager } from '../../../components/pager';
import { ScrollTable } from '../../../components/scroll-table';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { IMPORT_STATES, type ImportState, type ImportSummary, useImports } from '../api/imports';
import { SEEDS } from '../strings';

const C = SEEDS.csv;
const S = C.earlier;

/** The row counts of an import in words: created (or would be, for a check), unchanged, with problems. */
function countsText(job: ImportSummary): string {
  const n = (v: number) => formatNumber(v, 0);
  return S.counts(job.dryRun, n(job.counts.created), n(job.counts.unchanged), n(job.counts.failed));
}

/**
 * "Earlier imports": the imports of whoever the tab acts as, newest first, by state, each with its file, kind,
 * counts and a link to its report (`/imports?job=…`, shown on the same page).
 */
export function ImportList({ reportHref }: { reportHref: (job: ImportSummary) => string }) {
  const [filter, setFilter] = useState<{ state: ImportState | ''; page: number }>({ state: '', page: 1 });
  const jobs = useImports(filter);
  return (
    <section className="stack" aria-labelledby="earlier-imports">
      <h2 id="earlier-imports">{S.title}</h2>
      <p>{S.lead}</p>
      <div className="filters seed-filters">
        <SelectField
          label={S.state}
          name="importState"
          value={filter.state}
          onChange={(state) => setFilter({ state: state as ImportState | '', page: 1 })}
          options={[{ value: '', label: S.all }, ...IMPORT_STATES.map((s) => ({ value: s, label: C.state(s) }))]}
        />
      </div>
      {jobs.isPending ? (
        <Loading />
      ) : jobs.error ? (
        <ErrorAlert error={jobs.error} />
      ) : jobs.data.items.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <>
          <ScrollTable label={S.tableLabel}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{S.file}</th>
                  <th scope="col">{S.kind}</th>
                  <th scope="col">{S.when}</th>
                  <th scope="col">{S.state}</th>
                  <th scope="col">{S.rows}</th>
                  <th scope="col">{S.report}</th>
                </tr>
              </thead>
              <tbody>
                {jobs.data.items.map((job) => {
                  const when = formatDateTime(job.createdAt);
                  return (
                    <tr key={job.id}>
                      <td>{job.filename}</td>
                      <td>
                        {C.kinds[job.kind]}
                        {job.dryRun && <span className="muted"> ({S.checkOnly})</span>}
                      </td>
                      <td>{when}</td>
                      <td>
                        <span className={job.state === 'failed' ? 'badge warn' : 'badge'}>{C.state(job.state)}</span>
                      </td>
                      <td>{countsText(job)}</td>
                      <td>
                        <Link to={reportHref(job)} aria-label={S.reportOf(job.filename, when)}>
                          {S.report}
                        </Link>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </ScrollTable>
          <Pager
            page={filter.page}
            totalPages={jobs.data.pagination.totalPages}
            onPage={(page) => setFilter({ ...filter, page })}
            label={S.pager}
          />
        </>
      )}
    </section>
  );
}
