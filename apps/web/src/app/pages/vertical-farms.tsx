import { Link, useNavigate } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { FarmList } from '../../features/farms/components/farm-list';
import { FarmManagerOnly, managesFarms } from '../../features/farms/components/farm-manager-gate';
import { RegisterFarmForm } from '../../features/farms/components/register-farm-form';
import { FARMS } from '../../features/farms/strings';
import { RequireSession } from '../require-session';

/** A farm manager's farms, and registering a new one. */
export function Page() {
  return <RequireSession>{(user) => (managesFarms(user.role) ? <FarmsPage /> : <FarmManagerOnly />)}</RequireSession>;
}

function FarmsPage() {
  const navigate = useNavigate();
  return (
    <>
      <PageTitle lead={FARMS.list.lead}>{FARMS.list.title}</PageTitle>
      <p>
        <Link to="/vertical-farm/recipes">{FARMS.list.recipes}</Link>
      </p>
      <FarmList />
      <RegisterFarmForm onRegistered={(farm) => navigate(`/vertical-farm/${farm.id}`)} />
    </>
  );
}
