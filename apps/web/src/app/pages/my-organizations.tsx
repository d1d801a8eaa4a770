import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ErrorAlert, Loading } from '../../components/status';
import { useMyOrganizations } from '../../features/organizations/api/organizations';
import { OrganizationCard } from '../../features/organizations/components/organization-list';
import { ORGS, ROLE_LABELS } from '../../features/organizations/strings';
import { RequireSession } from '../require-session';

function Mine() {
  const mine = useMyOrganizations();
  if (mine.isPending) return <Loading />;
  if (mine.error) return <ErrorAlert error={mine.error} />;
  if (mine.data.length === 0) return <p>{ORGS.mine.none}</p>;
  return (
    <ul className="org-cards" aria-label={ORGS.mine.title}>
      {mine.data.map((o) => (
        <OrganizationCard
          key={o.id}
          org={o}
          extra={
            <p>
              {ORGS.mine.role(ROLE_LABELS[o.role] ?? o.role)} ·{' '}
              <Link to={`/organizations/${o.id}/members`}>{ORGS.mine.members(o.name)}</Link>
            </p>
          }
        />
      ))}
    </ul>
  );
}

export function Page() {
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={ORGS.mine.lead}>{ORGS.mine.title}</PageTitle>
          <p className="actions">
            <Link to="/organizations/new">{ORGS.list.create}</Link>
          </p>
          <Mine />
        </>
      )}
    </RequireSession>
  );
}
