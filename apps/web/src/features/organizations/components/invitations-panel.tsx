import { useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { ErrorAlert, Loading, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { ORG_ROLES, type OrgRole, useInvitations, useInvite, useRevoke } from '../api/organizations';
import { ORGS, ROLE_LABELS } from '../strings';
import { RefusalAlert } from './members-panel';

const S = ORGS.invitations;

/** Invite by email with a role (owners any role, managers below owner), and the pending invitations with Revoke. */
export function InvitationsPanel({ organizationId, myRole }: { organizationId: string; myRole: OrgRole }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<OrgRole>('member');
  const invite = useInvite(organizationId);
  const revoke = useRevoke(organizationId);
  const pending = useInvitations(organizationId, true);
  const roles = myRole === 'owner' ? ORG_ROLES : ORG_ROLES.filter((r) => r !== 'owner');
  return (
    <section aria-labelledby="org-invitations">
      <h2 id="org-invitations">{S.title}</h2>
      <form
        className="row org-invite"
        aria-label={S.invite}
        onSubmit={(e) => {
          e.preventDefault();
          invite.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail('') });
        }}
      >
        <Field
          label={S.email}
          name="email"
          type="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errorFor(invite.error, 'email')}
        />
        <SelectField
          label={S.role}
          name="role"
          value={role}
          onChange={(r) => setRole(r as OrgRole)}
          options={roles.map((r) => ({ value: r, label: ROLE_LABELS[r] ?? r }))}
        />
        <div className="actions">
          <button type="submit" disabled={invite.isPending}>
            {S.submit}
          </button>
        </div>
      </form>
      <RefusalAlert error={invite.error} />
      {invite.isSuccess && <Notice>{S.sent(invite.data.email)}</Notice>}
      <h3>{S.pending}</h3>
      {pending.isPending ? (
        <Loading />
      ) : pending.error ? (
        <ErrorAlert error={pending.error} />
      ) : pending.data.length === 0 ? (
        <p>{S.none}</p>
      ) : (
        <ul className="org-invitations" aria-label={S.pending}>
          {pending.data.map((i) => (
            <li key={i.id}>
              <span>
                {i.email} · {ROLE_LABELS[i.role]} · {S.expires(formatDateTime(i.expiresAt))}
              </span>{' '}
              <button
                type="button"
                className="secondary small"
                aria-label={S.revokeFor(i.email)}
                disabled={revoke.isPending}
                onClick={() => revoke.mutate(i.id)}
              >
                {S.revoke}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorAlert error={revoke.error} />
      {revoke.isSuccess && <Notice>{S.revoked(revoke.data.email)}</Notice>}
    </section>
  );
}
