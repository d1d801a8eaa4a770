import { PageTitle } from '../../components/page-title';
import { OrganizationForm } from '../../features/organizations/components/organization-form';
import { ORGS } from '../../features/organizations/strings';
import { RequireSession } from '../require-session';

export function Page() {
  return (
    <RequireSession>
      {() => (
        <div className="narrow">
          <PageTitle lead={ORGS.form.lead}>{ORGS.form.title}</PageTitle>
          <OrganizationForm />
        </div>
      )}
    </RequireSession>
  );
}
