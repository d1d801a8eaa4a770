import { useState } from 'react';
import { Chart } from '../../../components/chart/chart';
import { Field } from '../../../components/field';
import { ErrorAlert, Loading, Notice } from '../../../components/status';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { type ExportFormat, exportFile, useComplianceReport } from '../api/exports';
import { kindLabel, TRANSPARENCY } from '../strings';

const S = TRANSPARENCY.exports;
const FORMATS: ExportFormat[] = ['json', 'csv', 'epcis'];
const toIso = (local: string) => (local ? new Date(local).toISOString() : undefined);

function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads the public history in each format, narrowed by kinds and period. */
export function ExportPanel() {
  const [types, setTypes] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [state, setState] = useState<{ busy: ExportFormat | null; error: unknown; done: string | null }>({
    busy: null,
    error: null,
    done: null,
  });
  const query = () => {
    const q: { type?: string; from?: string; to?: string } = {};
    if (types.trim()) q.type = types.replace(/\s+/g, '');
    const f = toIso(from);
    const t = toIso(to);
    if (f) q.from = f;
    if (t) q.to = t;
    return q;
  };
  return (
    <section className="card form" aria-labelledby="export-heading">
      <h2 id="export-heading">{S.history}</h2>
      <Field label={S.types} name="type" value={types} onChange={(e) => setTypes(e.target.value)} />
      <div className="row">
        <Field
          label={S.from}
          name="from"
          type="datetime-local"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
        />
        <Field label={S.to} name="to" type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      <p className="actions">
        {FORMATS.map((format) => (
          <button
            key={format}
            type="button"
            className="secondary"
            disabled={state.busy !== null}
            onClick={async () => {
              setState({ busy: format, error: null, done: null });
              try {
                const file = await exportFile(format, query());
                save(file.blob, file.name);
                setState({ busy: null, error: null, done: file.name });
              } catch (error) {
                setState({ busy: null, error, done: null });
              }
            }}
          >
            {state.busy === format ? S.preparing : S.download(S.formats[format])}
          </button>
        ))}
      </p>
      <ErrorAlert error={state.error} />
      {state.done && <Notice>{S.downloaded(state.done)}</Notice>}
    </section>
  );
}

/** The compliance report of the last 30 days (ADMIN). */
export function ComplianceReport() {
  const report = useComplianceReport({}, true);
  if (report.isPending) return <Loading />;
  if (report.error) return <ErrorAlert error={report.error} />;
  const r = report.data;
  const yes = (v: boolean) => (v ? S.yes : S.no);
  return (
    <section className="card" aria-labelledby="report-heading">
      <h2 id="report-heading">{S.report}</h2>
      <p className="hint">
        {formatDateTime(r.period.from)} – {formatDateTime(r.period.to)}
      </p>
      <dl className="facts">
        <dt>{S.auditValid}</dt>
        <dd>
          <span className={r.auditLog.valid ? 'badge' : 'badge bad'}>{yes(r.auditLog.valid)}</span> (
          {formatNumber(r.auditLog.treeSize, 0)})
        </dd>
        <dt>{S.entries}</dt>
        <dd>{formatNumber(r.auditLog.entriesInPeriod, 0)}</dd>
        <dt>{S.adminActions}</dt>
        <dd>{formatNumber(r.auditLog.adminActionsInPeriod, 0)}</dd>
        <dt>{S.ledgerValid}</dt>
        <dd>
          <span className={r.ledger.valid ? 'badge' : 'badge bad'}>{yes(r.ledger.valid)}</span>
        </dd>
        <dt>{S.blocks}</dt>
        <dd>{formatNumber(r.ledger.checkedBlocks, 0)}</dd>
        <dt>{S.successRate}</dt>
        <dd>{r.webhooks.successRate === null ? '—' : `${formatNumber(r.webhooks.successRate * 100)} %`}</dd>
        <dt>{S.averageAttempts}</dt>
        <dd>{r.webhooks.averageAttempts === null ? '—' : formatNumber(r.webhooks.averageAttempts)}</dd>
        <dt>{S.events}</dt>
        <dd>
          {formatNumber(r.events.total, 0)}
          {r.events.byKind.length > 0 &&
            ` (${r.events.byKind.map((k) => `${kindLabel(k.kind)} ${k.count}`).join(', ')})`}
        </dd>
        <dt>{S.retention}</dt>
        <dd>{r.retention.auditLog.policy}</dd>
      </dl>
      {r.privacy.total > 0 && (
        <Chart
          title={S.privacy}
          summary={r.privacy.byLevel.map((l) => `${l.level}: ${l.count}`).join(', ')}
          x={r.privacy.byLevel.map((l) => l.level)}
          xKind="category"
          xLabel={S.level}
          series={[{ label: S.count, values: r.privacy.byLevel.map((l) => l.count), kind: 'bars' }]}
          format={(v) => formatNumber(v)}
        />
      )}
    </section>
  );
}
