import { useNavigate } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { RegisterPlantForm } from '../../features/plants/components/register-plant-form';
import { PLANTS } from '../../features/plants/strings';
import { RequireSession } from '../require-session';

export function Page() {
  const navigate = useNavigate();
  return (
    <RequireSession>
      {(user) => (
        <div className="narrow-wide">
          <PageTitle lead={PLANTS.register.lead}>{PLANTS.register.title}</PageTitle>
          <RegisterPlantForm
            owner={{ id: user.id, name: user.name }}
            onRegistered={(plant) => navigate(`/plants/${plant.id}`)}
          />
        </div>
      )}
    </RequireSession>
  );
}
