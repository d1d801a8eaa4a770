import { Link, useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ErrorAlert, Loading } from '../../components/status';
import { useFarm, useFarmAnalytics } from '../../features/farms/api/farms';
import { FarmAnalyticsView } from '../../features/farms/components/farm-analytics';
import { FarmManagerOnly, managesFarms } from '../../features/farms/components/farm-manager-gate';
import { FARMS } from '../../features/farms/strings';
import { RequireSession } from '../require-session';

/** A farm's yield per m² per year, cycle times, compliance and utilisation, as charts. */
export function Page() {
  return (
    <RequireSession>{(user) => (managesFarms(user.role) ? <AnalyticsPage /> : <FarmManagerOnly />)}</RequireSession>
  );
}

function AnalyticsPage() {
  const { farmId = '' } = useParams();
  const farm = useFarm(farmId);
  const analytics = useFarmAnalytics(farmId);
  if (farm.isPending || analytics.isPending) return <Loading />;
  if (farm.error || analytics.error) return <ErrorAlert error={farm.error ?? analytics.error} />;
  return (
    <>
      <PageTitle lead={FARMS.analytics.lead}>{FARMS.analytics.title(farm.data.name)}</PageTitle>
      <p>
        <Link to={`/vertical-farm/${farmId}`}>{FARMS.analytics.back}</Link>
      </p>
      <FarmAnalyticsView analytics={analytics.data} />
    </>
  );
}
