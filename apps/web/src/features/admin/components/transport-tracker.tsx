import { useState } from 'react';
import { Link } from 'react-router';
import { SelectField } from '../../../components/field';
import { Pager } from '../../../components/pager';
import { ScrollTable } from '../../../components/scroll-table';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatNumber } from '../../../lib/format';
import {
  PATTERN_KINDS,
  type PatternKind,
  useControlTracker,
  usePatterns,
  useSavings,
  useTrackerAgent,
} from '../api/agents';
import { ADMIN } from '../strings';
import { AgentStatus } from './agent-status';

const S = ADMIN.agents;

/** The transport tracker: status and controls, its last cycle's counts, the inefficiencies found and the savings. */
export function TransportTracker() {
  const status = useTrackerAgent();
  const control = useControlTracker();
  return (
    <section className="card" aria-labelledby="tracker-heading">
      <h2 id="tracker-heading">{S.tracker}</h2>
      {status.isPending ? (
        <Loading />
      ) : status.error ? (
        <ErrorAlert error={status.error} />
      ) : (
        <>
          <AgentStatus
            name={S.tracker}
            status={status.data}
            onAction={(action) => control.mutate(action as 'run')}
            busy={control.isPending}
            error={control.error}
          />
          <h3>{S.counts}</h3>
          <dl className="facts">
            <dt>{S.eventsScanned}</dt>
            <dd>{status.data.counts.eventsScanned}</dd>
            <dt>{S.patternsFound}</dt>
            <dd>{status.data.counts.patternsFound}</dd>
            <dt>{S.eventsNow}</dt>
            <dd>{status.data.counts.events}</dd>
          </dl>
          <Patterns lastRunAt={status.data.lastRunAt} />
          <Savings lastRunAt={status.data.lastRunAt} />
        </>
      )}
    </section>
  );
}

function Patterns({ lastRunAt }: { lastRunAt: string | null }) {
  const [kind, setKind] = useState<PatternKind | ''>('');
  const [page, setPage] = useState(1);
  const patterns = usePatterns(kind, page, lastRunAt);
  return (
    <>
      <h3>{S.patterns}</h3>
      <SelectField
        label={S.kind}
        name="pattern-kind"
        value={kind}
        onChange={(value) => {
          setKind(value as PatternKind | '');
          setPage(1);
        }}
        options={[
          { value: '', label: S.anyKind },
          ...PATTERN_KINDS.map((k) => ({ value: k, label: S.patternKinds[k] ?? k })),
        ]}
      />
      {patterns.isPending ? (
        <Loading />
      ) : patterns.error ? (
        <ErrorAlert error={patterns.error} />
      ) : patterns.data.items.length === 0 ? (
        <p>{S.noPatterns}</p>
      ) : (
        <ScrollTable label={S.patterns}>
          <table>
            <caption className="visually-hidden">{S.patterns}</caption>
            <thead>
              <tr>
                <th scope="col">{S.kind}</th>
                <th scope="col">{S.event}</th>
                <th scope="col">{S.kg}</th>
                <th scope="col">{S.reason}</th>
              </tr>
            </thead>
            <tbody>
              {patterns.data.items.map((p) => (
                <tr key={`${p.kind}-${p.eventId}`}>
                  <td>{S.patternKinds[p.kind] ?? p.kind}</td>
                  <td>
                    {p.plantId ? (
                      <Link className="mono" to={`/plants/${p.plantId}`}>
                        {p.eventId}
                      </Link>
                    ) : (
                      <span className="mono">{p.eventId}</span>
                    )}
                  </td>
                  <td>{formatNumber(p.kgCo2e, 2)}</td>
                  <td>{p.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
      {patterns.data && (
        <Pager label={S.patterns} page={page} totalPages={patterns.data.pagination.totalPages} onPage={setPage} />
      )}
    </>
  );
}

function Savings({ lastRunAt }: { lastRunAt: string | null }) {
  const savings = useSavings(lastRunAt);
  if (savings.isPending) return <Loading />;
  if (savings.error) return <ErrorAlert error={savings.error} />;
  const s = savings.data;
  return (
    <>
      <h3>{S.savings}</h3>
      <dl className="facts">
        <dt>{S.delivered}</dt>
        <dd>{formatNumber(s.deliveredKg, 1)} kg</dd>
        <dt>{S.actual}</dt>
        <dd>{formatNumber(s.actualKgCo2e, 2)} kg CO2e</dd>
        <dt>{S.baseline}</dt>
        <dd>{formatNumber(s.baselineKgCo2e, 2)} kg CO2e</dd>
        <dt>{S.saved}</dt>
        <dd>
          <strong>{formatNumber(s.savedKgCo2e, 2)} kg CO2e</strong>
        </dd>
      </dl>
      <p>
        {s.savedKgCo2e >= 0
          ? S.equivalents(formatNumber(s.equivalents.carKm, 1), formatNumber(s.equivalents.treeYears, 2))
          : S.noSaving(formatNumber(-s.savedKgCo2e, 2))}
      </p>
      <p className="muted">{s.method}</p>
      <details>
        <summary>{S.factors}</summary>
        <ScrollTable label={S.factors}>
          <table>
            <thead>
              <tr>
                <th scope="col">{S.factor}</th>
                <th scope="col">{S.value}</th>
                <th scope="col">{S.source}</th>
              </tr>
            </thead>
            <tbody>
              {s.factors.map((f) => (
                <tr key={f.name}>
                  <td>{f.name}</td>
                  <td>
                    {f.value} {f.unit}
                  </td>
                  <td>{f.source}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      </details>
    </>
  );
}
