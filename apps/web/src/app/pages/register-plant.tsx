import { useNavigate } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { RegisterPlantForm } from '../../features/plants/components/register-plant-form';
import { PLANTS } from '../../features/plants/strings';
import { useActingAs } from '../../lib/acting-as';
import { RequireSession } from '../require-session';

export function Page() {
  const navigate = useNavigate();
  // Acting for an organization, the plant is the organization's.
  const acting = useActingAs();
  return (
    <RequireSession>
      {(user) => (
        <div className="narrow-wide">
          <PageTitle lead={PLANTS.register.lead}>{PLANTS.register.title}</PageTitle>
          <RegisterPlantForm
            owner={acting ? { id: acting } : { id: user.id, name: user.name }}
            onRegistered={(plant) => navigate(`/plants/${plant.id}`)}
          />
        </div>
      )}
    </RequireSession>
  );
}
