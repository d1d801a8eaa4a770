import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ScrollTable } from '../../../components/scroll-table';
import { ErrorAlert, Notice } from '../../../components/status';
import { formatDateTime } from '../../../lib/format';
import {
  type Member,
  ORG_ROLES,
  type OrgRole,
  refusalReason,
  useChangeRole,
  useLeave,
  useRemoveMember,
} from '../api/organizations';
import './organizations.css';
import { ORGS, ROLE_IN_TEXT, ROLE_LABELS } from '../strings';

const S = ORGS.members;

/** An API refusal in the organization's words (the last owner, owner-only changes), else as the API words it. */
export function RefusalAlert({ error }: { error: unknown }) {
  const reason = refusalReason(error);
  if (reason === 'LAST_OWNER' || reason === 'OWNER_ONLY') {
    return (
      <div className="alert alert-error" role="alert">
        {reason === 'LAST_OWNER' ? S.lastOwner : S.ownerOnly}
      </div>
    );
  }
  return <ErrorAlert error={error} />;
}

/** Whether someone holding `me` may change a member holding `role` (owners anyone; managers below owner). */
const mayManage = (me: OrgRole, role: OrgRole) => me === 'owner' || (me === 'manager' && role !== 'owner');

/**
 * The members with their roles: owners and managers change roles and remove members (as far as their role allows:
 * the API refuses the rest and the refusal is shown in words); everyone may leave, the last owner excepted.
 */
export function MembersPanel({
  organizationId,
  members,
  me,
}: {
  organizationId: string;
  members: Member[];
  me: { id: string; role: OrgRole };
}) {
  const leave = useLeave(organizationId);
  const navigate = useNavigate();
  return (
    <>
      <ScrollTable label={S.tableLabel}>
        <table>
          <caption className="visually-hidden">{S.tableLabel}</caption>
          <thead>
            <tr>
              <th scope="col">{S.columns.name}</th>
              <th scope="col">{S.columns.role}</th>
              <th scope="col">{S.columns.joined}</th>
              <th scope="col">{S.columns.actions}</th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <MemberRow key={m.userId} organizationId={organizationId} member={m} me={me} />
            ))}
          </tbody>
        </table>
      </ScrollTable>
      <p>
        <button
          type="button"
          className="secondary"
          disabled={leave.isPending}
          onClick={() => leave.mutate(undefined, { onSuccess: () => navigate('/organizations/mine') })}
        >
          {S.leave}
        </button>
      </p>
      <RefusalAlert error={leave.error} />
      {leave.isSuccess && <Notice>{S.left}</Notice>}
    </>
  );
}

function MemberRow({
  organizationId,
  member,
  me,
}: {
  organizationId: string;
  member: Member;
  me: { id: string; role: OrgRole };
}) {
  const [role, setRole] = useState<OrgRole>(member.role);
  const change = useChangeRole(organizationId);
  const remove = useRemoveMember(organizationId);
  const isMe = member.userId === me.id;
  const manage = mayManage(me.role, member.role);
  const roles = me.role === 'owner' ? ORG_ROLES : ORG_ROLES.filter((r) => r !== 'owner');
  return (
    <tr>
      <th scope="row">
        {member.name} {isMe && <span className="muted">{S.you}</span>}
      </th>
      <td>
        {manage ? (
          <form
            className="role-form"
            onSubmit={(e) => {
              e.preventDefault();
              change.mutate({ userId: member.userId, role });
            }}
          >
            <label className="visually-hidden" htmlFor={`org-role-${member.userId}`}>
              {S.roleOf(member.name)}
            </label>
            <select id={`org-role-${member.userId}`} value={role} onChange={(e) => setRole(e.target.value as OrgRole)}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
            <button
              type="submit"
              className="secondary small"
              aria-label={S.changeFor(member.name)}
              disabled={change.isPending || role === member.role}
            >
              {S.change}
            </button>
          </form>
        ) : (
          ROLE_LABELS[member.role]
        )}
        <RefusalAlert error={change.error} />
        {change.isSuccess && <Notice>{S.changed(member.name, ROLE_IN_TEXT[change.data.role] ?? role)}</Notice>}
      </td>
      <td>{formatDateTime(member.joinedAt)}</td>
      <td>
        {manage && !isMe && (
          <button
            type="button"
            className="secondary small"
            aria-label={S.removeFor(member.name)}
            disabled={remove.isPending}
            onClick={() => remove.mutate(member.userId)}
          >
            {S.remove}
          </button>
        )}
        <RefusalAlert error={remove.error} />
      </td>
    </tr>
  );
}
