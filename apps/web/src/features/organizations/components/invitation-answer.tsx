import { Link } from 'react-router';
import { ErrorAlert, Loading, Notice } from '../../../components/status';
import { useAnswerInvitation, useInvitationPreview } from '../api/organizations';
import { ORGS, ROLE_IN_TEXT } from '../strings';

const S = ORGS.accept;

/** The page an invitation email opens: the organization, the role offered, and Accept / Decline. */
export function InvitationAnswer({ token }: { token: string | null }) {
  const preview = useInvitationPreview(token);
  const answer = useAnswerInvitation();
  if (token === null) return <p>{S.missing}</p>;
  if (preview.isPending) return <Loading />;
  if (preview.error && !answer.isSuccess) {
    return (
      <div className="alert alert-error" role="alert">
        {S.invalid}
      </div>
    );
  }
  if (answer.isSuccess) {
    const org = answer.data.organization;
    return (
      <>
        <Notice>
          {answer.data.role
            ? S.accepted(org.name, ROLE_IN_TEXT[answer.data.role] ?? answer.data.role)
            : S.declined(org.name)}
        </Notice>
        <p>
          <Link to={answer.data.role ? `/organizations/${org.id}/members` : `/organizations/${org.id}`}>{S.open}</Link>
        </p>
      </>
    );
  }
  const p = preview.data;
  if (!p) return null;
  return (
    <>
      <p className="lead">{S.lead(p.invitedByName, p.organization.name, ROLE_IN_TEXT[p.role] ?? p.role)}</p>
      {p.organization.description && <p>{p.organization.description}</p>}
      <div className="actions">
        <button type="button" disabled={answer.isPending} onClick={() => answer.mutate({ token, accept: true })}>
          {S.accept}
        </button>
        <button
          type="button"
          className="secondary"
          disabled={answer.isPending}
          onClick={() => answer.mutate({ token, accept: false })}
        >
          {S.decline}
        </button>
      </div>
      <ErrorAlert error={answer.error} />
    </>
  );
}
