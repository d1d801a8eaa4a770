import { Link, useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Loading } from '../../components/status';
import { useMyOrganizations, useOrganization } from '../../features/organizations/api/organizations';
import { KIND_LABELS, ORGS } from '../../features/organizations/strings';
import { WithSession } from '../require-session';

const S = ORGS.profile;

/** The link to the members page, for a member of the organization. */
function MemberLink({ organizationId }: { organizationId: string }) {
  const mine = useMyOrganizations();
  if (!mine.data?.some((o) => o.id === organizationId)) return null;
  return (
    <p>
      <Link to={`/organizations/${organizationId}/members`}>{S.manage}</Link>
    </p>
  );
}

export function Page() {
  const { organizationId = '' } = useParams();
  const org = useOrganization(organizationId);
  if (org.isPending) return <Loading />;
  if (!org.data) {
    return (
      <>
        <PageTitle>{ORGS.list.title}</PageTitle>
        <div className="alert alert-error" role="alert">
          {S.notFound}
        </div>
      </>
    );
  }
  const o = org.data;
  const place = [o.location?.city, o.location?.country].filter(Boolean).join(', ');
  return (
    <>
      <PageTitle lead={`${KIND_LABELS[o.kind] ?? o.kind} · ${S.members(o.memberCount)}`}>{o.name}</PageTitle>
      {o.description && <p>{o.description}</p>}
      <dl className="facts">
        {o.website && (
          <>
            <dt>{S.website}</dt>
            <dd>
              <a href={o.website} rel="noopener noreferrer">
                {o.website}
              </a>
            </dd>
          </>
        )}
        <dt>{S.where}</dt>
        <dd>
          {o.location ? place || `${o.location.latitude.toFixed(2)}, ${o.location.longitude.toFixed(2)}` : S.hidden}
        </dd>
      </dl>
      <WithSession>{(user) => user && <MemberLink organizationId={o.id} />}</WithSession>
    </>
  );
}
