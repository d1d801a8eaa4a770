import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { OrganizationList } from '../../features/organizations/components/organization-list';
import { ORGS } from '../../features/organizations/strings';
import { WithSession } from '../require-session';

export function Page() {
  return (
    <>
      <PageTitle lead={ORGS.list.lead}>{ORGS.list.title}</PageTitle>
      <WithSession>
        {(user) =>
          user && (
            <p className="actions">
              <Link to="/organizations/mine">{ORGS.list.mine}</Link>
              <Link to="/organizations/new">{ORGS.list.create}</Link>
            </p>
          )
        }
      </WithSession>
      <OrganizationList />
    </>
  );
}
