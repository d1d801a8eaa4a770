import { useEffect, useRef, useState } from 'react';
import { SelectField } from '../../../components/field';
import { Pager } from '../../../components/pager';
import { ScrollTable } from '../../../components/scroll-table';
import { ErrorAlert, Loading, Notice } from '../../../components/status';
import { formatDateTime, formatNumber } from '../../../lib/format';
import {
  headerCells,
  IMPORT_COLUMNS,
  IMPORT_MAX_MB,
  type ImportJob,
  type ImportKind,
  useImportJob,
  useStartImport,
} from '../api/imports';
import { type ImportReason, SEEDS } from '../strings';

const S = SEEDS.csv;
const KINDS: ImportKind[] = ['seed-lots', 'plants'];
const IGNORE = '';

/** The field a header is read as by default: the field it is named like, case aside, or none. */
function defaultField(kind: ImportKind, header: string): string {
  return IMPORT_COLUMNS[kind].find((f) => f.toLowerCase() === header.toLowerCase()) ?? IGNORE;
}

/**
 * The import of a CSV file: its kind, the file, which field each of its columns holds (its own headers offered),
 * a dry run with every problem by line, then the import itself, with its progress.
 */
export function CsvImport({
  initialKind = 'seed-lots',
  jobId,
  onJob,
}: {
  initialKind?: ImportKind;
  /** The import whose report is shown: the one just started, or an earlier one chosen from the list. */
  jobId: string | null;
  onJob: (jobId: string | null) => void;
}) {
  const [kind, setKind] = useState<ImportKind>(initialKind);
  const [file, setFile] = useState<File | null>(null);
  const [headers, setHeaders] = useState<string[]>([]);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [page, setPage] = useState(1);
  const setJobId = (id: string | null) => {
    setPage(1);
    onJob(id);
  };
  const start = useStartImport();
  const job = useImportJob(jobId, page);

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setJobId(null);
    start.reset();
    if (!chosen) return setHeaders([]);
    const found = headerCells(await chosen.slice(0, 64 * 1024).text());
    setHeaders(found);
    setFields(Object.fromEntries(found.map((h) => [h, defaultField(kind, h)])));
  };
  const run = (dryRun: boolean) => {
    if (!file) return;
    const mapping = Object.fromEntries(Object.entries(fields).filter(([, f]) => f !== IGNORE));
    setPage(1);
    start.mutate({ kind, file, mapping, dryRun }, { onSuccess: (j) => setJobId(j.id) });
  };
  const running = start.isPending || (job.data !== undefined && !['done', 'failed'].includes(job.data.state));
  const options = [{ value: IGNORE, label: S.ignore }, ...IMPORT_COLUMNS[kind].map((f) => ({ value: f, label: f }))];

  return (
    <div className="stack">
      <form
        className="stack"
        aria-label={S.title}
        onSubmit={(e) => {
          e.preventDefault();
          run(true);
        }}
      >
        <fieldset className="choice-group">
          <legend>{S.kind}</legend>
          {KINDS.map((k) => (
            <label key={k} className="radio">
              <input
                type="radio"
                name="import-kind"
                value={k}
                checked={kind === k}
                onChange={() => {
                  setKind(k);
                  setFields(Object.fromEntries(headers.map((h) => [h, defaultField(k, h)])));
                }}
              />
              {S.kinds[k]}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="import-file">{S.file}</label>
          <input
            id="import-file"
            type="file"
            accept=".csv,text/csv"
            aria-describedby="import-file-hint"
            onChange={(e) => void choose(e.target.files?.[0] ?? null)}
          />
          <p className="hint" id="import-file-hint">
            {S.fileHint(IMPORT_MAX_MB)}
          </p>
        </div>
        {headers.length > 0 && (
          <fieldset className="stack">
            <legend>{S.columns}</legend>
            <p className="hint">{S.columnsLead}</p>
            {headers.map((h) => (
              <SelectField
                key={h}
                label={`${S.column}: ${h}`}
                name={`field-${h}`}
                value={fields[h] ?? IGNORE}
                onChange={(v) => setFields({ ...fields, [h]: v })}
                options={options}
              />
            ))}
          </fieldset>
        )}
        <div className="actions">
          <button type="submit" disabled={!file || running}>
            {S.check}
          </button>
          <button type="button" className="secondary" disabled={!file || running} onClick={() => run(false)}>
            {S.import}
          </button>
        </div>
      </form>
      {start.error && <ErrorAlert error={start.error} />}
      {jobId &&
        (job.isPending ? (
          <Loading />
        ) : job.error ? (
          <ErrorAlert error={job.error} />
        ) : (
          <ImportReport job={job.data} onPage={setPage} />
        ))}
    </div>
  );
}

/** What an import did or would do: its state, progress, counts, and its problems by line. */
function ImportReport({ job, onPage }: { job: ImportJob; onPage: (page: number) => void }) {
  const { progress, counts, problems } = job;
  const ended = job.state === 'done' || job.state === 'failed';
  const heading = useRef<HTMLHeadingElement>(null);
  // A report opened from the list of earlier imports is brought into view, its heading focused.
  useEffect(() => {
    if (job.id) heading.current?.focus({ preventScroll: false });
  }, [job.id]);
  return (
    <section className="stack" aria-labelledby="import-report-title">
      <h2 id="import-report-title" ref={heading} tabIndex={-1}>
        {S.state(job.state)}
      </h2>
      <p>
        {S.earlier.shown(job.filename)} · {formatDateTime(job.createdAt)}
      </p>
      <div aria-live="polite">
        {job.dryRun && ended && <Notice>{S.dryRun}</Notice>}
        <label htmlFor="import-progress">{S.progress}</label>{' '}
        <progress id="import-progress" max={Math.max(progress.totalBytes, 1)} value={progress.bytesRead} />{' '}
        <span>
          {S.progressText(
            formatNumber(progress.rowsRead, 0),
            formatNumber(progress.bytesRead, 0),
            formatNumber(progress.totalBytes, 0),
          )}
        </span>
      </div>
      <dl className="facts">
        <dt>{job.dryRun ? S.wouldCreate : S.created}</dt>
        <dd>{formatNumber(counts.created, 0)}</dd>
        <dt>{S.unchanged}</dt>
        <dd>{formatNumber(counts.unchanged, 0)}</dd>
        <dt>{S.failed}</dt>
        <dd>{formatNumber(counts.failed, 0)}</dd>
      </dl>
      {ended && problems.items.length === 0 && <p>{S.noProblems}</p>}
      {problems.items.length > 0 && (
        <>
          <ScrollTable label={S.report}>
            <table>
              <caption>{S.report}</caption>
              <thead>
                <tr>
                  <th scope="col">{S.line}</th>
                  <th scope="col">{S.column}</th>
                  <th scope="col">{S.problem}</th>
                </tr>
              </thead>
              <tbody>
                {problems.items.map((p) => (
                  <tr key={`${p.line}-${p.field ?? ''}-${p.reason}`}>
                    <td>{p.line}</td>
                    <td>{p.column ?? '—'}</td>
                    <td>{S.reason(p.reason as ImportReason, p.field ?? p.column ?? '', p.column ?? '')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
          {problems.truncated && <p>{S.truncated}</p>}
          <Pager
            page={problems.pagination.page}
            totalPages={problems.pagination.totalPages}
            onPage={onPage}
            label={S.pager}
          />
        </>
      )}
    </section>
  );
}
