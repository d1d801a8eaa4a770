import { useState } from 'react';
import { Field } from '../../../components/field';
import { RecordIds } from '../../../components/record-ids';
import { ErrorAlert, Loading } from '../../../components/status';
import { usePeople } from '../../../hooks/use-people';
import { errorFor } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { type AuditFilters, useAuditLog, usePublicEntries, useTreeHead } from '../api/audit';
import { auditSentence, peopleIn } from '../lib/audit-sentences';
import { TRANSPARENCY } from '../strings';
import { EntryCheckButton } from './entry-check';

const S = TRANSPARENCY.audit;
const LIMIT = 20;

function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={S.page(page, pages)}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {S.previous}
      </button>
      <span>{S.page(page, pages)}</span>
      <button type="button" className="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {S.next}
      </button>
    </nav>
  );
}

const toIso = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** The whole audit log with filters, each entry checked in the browser (ADMIN). */
export function AdminAuditLog() {
  const [form, setForm] = useState({ kind: '', actor: '', entity: '', from: '', to: '' });
  const [filters, setFilters] = useState<AuditFilters>({ page: 1, limit: LIMIT });
  const log = useAuditLog(filters);
  // Everyone the page's entries name, in one read (ADR 200).
  const { nameOf } = usePeople((log.data?.items ?? []).flatMap(peopleIn));
  const set = (name: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setForm({ ...form, [name]: e.target.value });
  return (
    <>
      <form
        className="card form filters"
        aria-label={S.filters}
        onSubmit={(e) => {
          e.preventDefault();
          const next: AuditFilters = { page: 1, limit: LIMIT };
          if (form.kind.trim()) next.kind = form.kind.trim();
          if (form.actor.trim()) next.actor = form.actor.trim();
          if (form.entity.trim()) next.entity = form.entity.trim();
          const from = toIso(form.from);
          const to = toIso(form.to);
          if (from) next.from = from;
          if (to) next.to = to;
          setFilters(next);
        }}
      >
        <h2>{S.filters}</h2>
        <div className="filter-row">
          <Field
            label={S.kind}
            name="kind"
            value={form.kind}
            onChange={set('kind')}
            error={errorFor(log.error, 'kind')}
          />
          <Field
            label={S.actor}
            name="actor"
            value={form.actor}
            onChange={set('actor')}
            error={errorFor(log.error, 'actor')}
          />
          <Field
            label={S.entity}
            name="entity"
            value={form.entity}
            onChange={set('entity')}
            error={errorFor(log.error, 'entity')}
          />
          <Field
            label={S.from}
            name="from"
            type="datetime-local"
            value={form.from}
            onChange={set('from')}
            error={errorFor(log.error, 'from')}
          />
          <Field
            label={S.to}
            name="to"
            type="datetime-local"
            value={form.to}
            onChange={set('to')}
            error={errorFor(log.error, 'to')}
          />
        </div>
        <p className="actions">
          <button type="submit">{S.apply}</button>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setForm({ kind: '', actor: '', entity: '', from: '', to: '' });
              setFilters({ page: 1, limit: LIMIT });
            }}
          >
            {S.clear}
          </button>
        </p>
      </form>
      {log.isPending ? (
        <Loading />
      ) : log.error ? (
        <ErrorAlert error={log.error} />
      ) : log.data.items.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">{S.title}</caption>
              <thead>
                <tr>
                  <th scope="col">{S.columns.index}</th>
                  <th scope="col">{S.columns.what}</th>
                  <th scope="col">{S.columns.actor}</th>
                  <th scope="col">{S.columns.occurred}</th>
                  <th scope="col">{S.columns.check}</th>
                </tr>
              </thead>
              <tbody>
                {log.data.items.map((entry) => (
                  <tr key={entry.index}>
                    <td>{entry.index}</td>
                    <td>
                      {auditSentence(entry, nameOf)}
                      <RecordIds
                        ids={[
                          { label: S.ids.kind, value: entry.kind },
                          { label: S.ids.entity, value: entry.entity },
                          { label: S.ids.actor, value: entry.actor },
                          { label: S.ids.event, value: entry.eventId },
                        ]}
                      />
                    </td>
                    <td>{nameOf(entry.actor) ?? S.someone}</td>
                    <td>{formatDateTime(entry.occurredAt)}</td>
                    <td>
                      <EntryCheckButton index={entry.index} content={entry} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={log.data.pagination.page}
            pages={log.data.pagination.totalPages}
            onPage={(page) => setFilters({ ...filters, page })}
          />
        </>
      )}
    </>
  );
}

/** The public form of the newest entries, newest first, each checked in the browser (everyone). */
export function PublicAuditLog() {
  const head = useTreeHead();
  const [page, setPage] = useState(1);
  const size = head.data?.treeSize ?? 0;
  const top = size - 1 - (page - 1) * LIMIT;
  const indexes = Array.from({ length: Math.max(0, Math.min(LIMIT, top + 1)) }, (_, i) => top - i);
  const entries = usePublicEntries(indexes);
  const { nameOf } = usePeople((entries.data ?? []).flatMap((e) => peopleIn({ kind: e.kind, data: e.data })));
  if (head.isPending) return <Loading />;
  if (head.error) return <ErrorAlert error={head.error} />;
  return (
    <>
      <p className="hint">{S.publicLead}</p>
      {entries.isPending ? (
        <Loading />
      ) : entries.error ? (
        <ErrorAlert error={entries.error} />
      ) : entries.data.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{S.title}</caption>
            <thead>
              <tr>
                <th scope="col">{S.columns.index}</th>
                <th scope="col">{S.columns.what}</th>
                <th scope="col">{S.columns.occurred}</th>
                <th scope="col">{S.columns.check}</th>
              </tr>
            </thead>
            <tbody>
              {entries.data.map((entry) => (
                <tr key={entry.index}>
                  <td>{entry.index}</td>
                  <td>
                    {auditSentence({ source: entry.source, kind: entry.kind, data: entry.data }, nameOf)}
                    <RecordIds
                      ids={[
                        { label: S.ids.kind, value: entry.kind },
                        { label: S.ids.entity, value: entry.entity },
                      ]}
                    />
                  </td>
                  <td>{formatDateTime(entry.occurredAt)}</td>
                  <td>
                    <EntryCheckButton index={entry.index} leafHash={entry.leafHash} content={entry.entry} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pages={Math.max(1, Math.ceil(size / LIMIT))} onPage={setPage} />
    </>
  );
}
