import { useState } from 'react';
import { Link } from 'react-router';
import { SelectField } from '../../../components/field';
import { Pager } from '../../../components/pager';
import { ScrollTable } from '../../../components/scroll-table';
import { ErrorAlert, Loading } from '../../../components/status';
import { ANOMALY_KINDS, type AnomalyKind, useAnomalies, useControlLineage, useLineageAgent } from '../api/agents';
import { ADMIN } from '../strings';
import { AgentStatus } from './agent-status';

const S = ADMIN.agents;

/** The lineage agent: status and controls, the lineage network's figures, and the anomalies of its last scan. */
export function LineageAgent() {
  const status = useLineageAgent();
  const control = useControlLineage();
  return (
    <section className="card" aria-labelledby="lineage-agent-heading">
      <h2 id="lineage-agent-heading">{S.lineage}</h2>
      {status.isPending ? (
        <Loading />
      ) : status.error ? (
        <ErrorAlert error={status.error} />
      ) : (
        <>
          <AgentStatus
            name={S.lineage}
            status={status.data}
            onAction={(action) => control.mutate(action as 'start')}
            busy={control.isPending}
            error={control.error}
          />
          <h3>{S.network}</h3>
          <dl className="facts">
            <dt>{S.totalPlants}</dt>
            <dd>{status.data.network.totalPlants}</dd>
            <dt>{S.rootPlants}</dt>
            <dd>{status.data.network.rootPlants}</dd>
            <dt>{S.propagatedPlants}</dt>
            <dd>{status.data.network.propagatedPlants}</dd>
            <dt>{S.maxGeneration}</dt>
            <dd>{status.data.network.maxGeneration}</dd>
          </dl>
          <Anomalies lastRunAt={status.data.lastRunAt} />
        </>
      )}
    </section>
  );
}

function Anomalies({ lastRunAt }: { lastRunAt: string | null }) {
  const [kind, setKind] = useState<AnomalyKind | ''>('');
  const [page, setPage] = useState(1);
  const anomalies = useAnomalies(kind, page, lastRunAt);
  return (
    <>
      <h3>{S.anomalies}</h3>
      <SelectField
        label={S.kind}
        name="anomaly-kind"
        value={kind}
        onChange={(value) => {
          setKind(value as AnomalyKind | '');
          setPage(1);
        }}
        options={[
          { value: '', label: S.anyKind },
          ...ANOMALY_KINDS.map((k) => ({ value: k, label: S.anomalyKinds[k] ?? k })),
        ]}
      />
      {anomalies.isPending ? (
        <Loading />
      ) : anomalies.error ? (
        <ErrorAlert error={anomalies.error} />
      ) : anomalies.data.items.length === 0 ? (
        <p>{S.noAnomalies}</p>
      ) : (
        <ScrollTable label={S.anomalies}>
          <table>
            <caption className="visually-hidden">{S.anomalies}</caption>
            <thead>
              <tr>
                <th scope="col">{S.kind}</th>
                <th scope="col">{S.plants}</th>
                <th scope="col">{S.reason}</th>
              </tr>
            </thead>
            <tbody>
              {anomalies.data.items.map((a) => (
                <tr key={`${a.kind}-${a.plantIds.join('-')}`}>
                  <td>{S.anomalyKinds[a.kind] ?? a.kind}</td>
                  <td>
                    {a.plantIds.map((id, i) => {
                      // The plant first, then its parent: the ids are in the reason, the links say which is which.
                      const role = i === 0 ? S.plant : S.parent;
                      return (
                        <div key={id}>
                          <Link to={`/plants/${id}`} aria-label={S.plantLink(role, id)}>
                            {role}
                          </Link>
                        </div>
                      );
                    })}
                  </td>
                  <td>{a.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
      {anomalies.data && (
        <Pager label={S.anomalies} page={page} totalPages={anomalies.data.pagination.totalPages} onPage={setPage} />
      )}
    </>
  );
}
