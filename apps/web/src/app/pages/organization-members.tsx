import { Link, useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { ErrorAlert, Loading } from '../../components/status';
import { useMembers, useOrganization } from '../../features/organizations/api/organizations';
import { InvitationsPanel } from '../../features/organizations/components/invitations-panel';
import { MembersPanel } from '../../features/organizations/components/members-panel';
import { ORGS } from '../../features/organizations/strings';
import { RequireSession } from '../require-session';

function Members({ organizationId, userId }: { organizationId: string; userId: string }) {
  const org = useOrganization(organizationId);
  const members = useMembers(organizationId);
  if (org.isPending || members.isPending) return <Loading />;
  const name = org.data?.name ?? ORGS.list.title;
  const me = members.data?.find((m) => m.userId === userId);
  return (
    <>
      <PageTitle lead={ORGS.members.lead}>{ORGS.members.title(name)}</PageTitle>
      {org.data && (
        <p>
          <Link to={`/organizations/${organizationId}`}>{org.data.name}</Link>
        </p>
      )}
      <ErrorAlert error={org.error ?? members.error} />
      {members.data && me && (
        <>
          <MembersPanel organizationId={organizationId} members={members.data} me={{ id: userId, role: me.role }} />
          {(me.role === 'owner' || me.role === 'manager') && (
            <InvitationsPanel organizationId={organizationId} myRole={me.role} />
          )}
        </>
      )}
    </>
  );
}

export function Page() {
  const { organizationId = '' } = useParams();
  return <RequireSession>{(user) => <Members organizationId={organizationId} userId={user.id} />}</RequireSession>;
}
