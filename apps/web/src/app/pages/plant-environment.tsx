import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ErrorAlert, Loading } from '../../components/status';
import { useSession } from '../../features/auth/api/session';
import { useEnvironmentHistory } from '../../features/environment/api/environment';
import { CurrentEnvironment } from '../../features/environment/components/current-environment';
import { EnvironmentEditor } from '../../features/environment/components/environment-editor';
import { RecordHistory } from '../../features/environment/components/record-history';
import { SimilarPlants } from '../../features/environment/components/similar-plants';
import { ENVIRONMENT } from '../../features/environment/strings';
import { usePlant } from '../../features/plants/api/plants';
import { useActingAs } from '../../lib/acting-as';
import { RequireSession } from '../require-session';

const S = ENVIRONMENT.page;

/** A plant's environment: its current values, the form to update them (owner or ADMIN), similar plants, records. */
export function Page() {
  return <RequireSession>{() => <PlantEnvironmentPage />}</RequireSession>;
}

function PlantEnvironmentPage() {
  const { plantId = '' } = useParams();
  const plant = usePlant(plantId);
  const [page, setPage] = useState(1);
  const history = useEnvironmentHistory(plantId, page);
  const session = useSession();
  const acting = useActingAs();
  if (plant.isPending || history.isPending) return <Loading />;
  if (plant.error) return <ErrorAlert error={plant.error} />;
  if (history.error) return <ErrorAlert error={history.error} />;
  const p = plant.data;
  const user = session.data;
  const canWrite = user?.id === p.owner.id || (user && acting === p.owner.id) || user?.role === 'ADMIN';
  const current = history.data.current;
  return (
    <>
      <PageTitle lead={S.lead}>{S.title(p.commonName)}</PageTitle>
      <p className="actions">
        <Link to={`/plants/${p.id}`}>{S.back}</Link>
        <Link to="/environment/analysis">{S.analysis}</Link>
      </p>
      <CurrentEnvironment current={current} />
      <section className="card">
        {canWrite ? (
          // After a save the form already holds what is now current: it stays as it is, with its message.
          <EnvironmentEditor key={p.id} plantId={p.id} current={current} />
        ) : (
          <p>{ENVIRONMENT.edit.ownerOnly}</p>
        )}
      </section>
      <SimilarPlants plantId={p.id} />
      <RecordHistory
        items={history.data.items}
        page={page}
        totalPages={history.data.pagination.totalPages}
        onPage={setPage}
      />
    </>
  );
}
