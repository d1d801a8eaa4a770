import type { RealtimeEvent } from '@rootline/sdk';
import { useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ErrorAlert, Loading } from '../../components/status';
import type { User } from '../../features/auth/api/session';
import { FARM_KEYS, useBatch, useBatchReadings } from '../../features/farms/api/farms';
import { AlertsList } from '../../features/farms/components/alerts-list';
import { BatchFacts } from '../../features/farms/components/batch-facts';
import { FarmManagerOnly, managesFarms } from '../../features/farms/components/farm-manager-gate';
import { HarvestPanel } from '../../features/farms/components/harvest-form';
import { ReadingForm } from '../../features/farms/components/reading-form';
import { ReadingsCharts } from '../../features/farms/components/readings-charts';
import { FARMS } from '../../features/farms/strings';
import { useLiveRefresh } from '../../lib/live';
import { RequireSession } from '../require-session';

/** A batch: its state, a reading entered by hand, its readings charted against the recipe's targets, its alerts and its harvest, kept live. */
export function Page() {
  return (
    <RequireSession>
      {(user) => (managesFarms(user.role) ? <BatchPage user={user} /> : <FarmManagerOnly />)}
    </RequireSession>
  );
}

const naming = (batchId: string) => (e: RealtimeEvent) => {
  if (e.event === 'notification') return (e.data.data as { batchId?: unknown } | undefined)?.batchId === batchId;
  return e.data.batchId === batchId;
};

function BatchPage({ user }: { user: User }) {
  const { batchId = '' } = useParams();
  const batch = useBatch(batchId);
  const readings = useBatchReadings(batchId);
  const keys = [FARM_KEYS.batch(batchId), FARM_KEYS.readings(batchId)];
  // New readings (`farm.readings`) and the harvest (`farm.harvest`) arrive in the farm's room; alerts reach the
  // manager as notifications in their own room. Either refetches what the page shows.
  useLiveRefresh(batch.data ? `farm:${batch.data.farmId}` : null, keys, naming(batchId));
  useLiveRefresh(`user:${user.id}`, keys, naming(batchId));
  if (batch.isPending) return <Loading />;
  if (batch.error) return <ErrorAlert error={batch.error} />;
  const b = batch.data;
  return (
    <>
      <PageTitle>{FARMS.batch.title(b.crop, b.variety)}</PageTitle>
      <div className="grid-2">
        <BatchFacts batch={b} />
        <HarvestPanel batch={b} />
      </div>
      {b.closedAt === null && <ReadingForm batchId={b.id} />}
      {readings.isPending ? (
        <Loading />
      ) : readings.error ? (
        <ErrorAlert error={readings.error} />
      ) : (
        <>
          <AlertsList alerts={readings.data.alerts} />
          <ReadingsCharts readings={readings.data} />
        </>
      )}
    </>
  );
}
