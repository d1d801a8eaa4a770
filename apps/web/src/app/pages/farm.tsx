import { Link, useNavigate, useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ErrorAlert, Loading } from '../../components/status';
import type { User } from '../../features/auth/api/session';
import { FARM_KEYS, useFarm } from '../../features/farms/api/farms';
import { BatchList } from '../../features/farms/components/batches';
import { FarmFacts } from '../../features/farms/components/farm-facts';
import { FarmManagerOnly, managesFarms } from '../../features/farms/components/farm-manager-gate';
import { StartBatchForm } from '../../features/farms/components/start-batch-form';
import { AddZoneForm, ZoneList } from '../../features/farms/components/zones';
import { FARMS } from '../../features/farms/strings';
import { useLiveRefresh } from '../../lib/live';
import { RequireSession } from '../require-session';

/** A farm: its profile and zones, and for its manager its batches, a new batch and its analytics. */
export function Page() {
  return (
    <RequireSession>
      {(user) => (managesFarms(user.role) ? <FarmPage user={user} /> : <FarmManagerOnly />)}
    </RequireSession>
  );
}

function FarmPage({ user }: { user: User }) {
  const { farmId = '' } = useParams();
  const navigate = useNavigate();
  const farm = useFarm(farmId);
  const operates = !!farm.data && (farm.data.ownerId === user.id || user.role === 'ADMIN');
  // A harvest recorded elsewhere (another tab, the API) moves its batch on this page.
  useLiveRefresh(operates ? `farm:${farmId}` : null, [FARM_KEYS.batches(farmId), FARM_KEYS.zones(farmId)]);
  if (farm.isPending) return <Loading />;
  if (farm.error) return <ErrorAlert error={farm.error} />;
  const f = farm.data;
  return (
    <>
      <PageTitle>{f.name}</PageTitle>
      {operates && (
        <p>
          <Link to={`/vertical-farm/${f.id}/analytics`}>{FARMS.farm.analytics}</Link>
        </p>
      )}
      <div className="grid-2">
        <FarmFacts farm={f} />
        <section className="card" aria-labelledby="zones-title">
          <h2 id="zones-title">{FARMS.zones.title}</h2>
          <ZoneList farmId={f.id} />
        </section>
      </div>
      {operates ? (
        <>
          <section className="card" aria-labelledby="batches-title">
            <h2 id="batches-title">{FARMS.batches.title}</h2>
            <BatchList farmId={f.id} />
          </section>
          <div className="grid-2">
            <StartBatchForm farmId={f.id} onStarted={(b) => navigate(`/vertical-farm/batch/${b.id}`)} />
            <AddZoneForm farmId={f.id} />
          </div>
        </>
      ) : (
        <p>{FARMS.farm.notOwner}</p>
      )}
    </>
  );
}
