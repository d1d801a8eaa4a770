import type { EventDef, PayloadOf } from '@rootline/contracts';
import {
  organizationDissolved,
  organizationInvitationDeclined,
  organizationInvitationRevoked,
  organizationInvitationSent,
  organizationMemberAdded,
  organizationMemberLeft,
  organizationMemberRemoved,
  organizationMemberRoleChanged,
} from '@rootline/contracts/organizations';
import { type EventMeta, type ServiceContext, subscribe } from '@rootline/host';
import { findRecipient } from '../db/recipients.repo.js';
import type { OrganizationChange } from '../domain/messages.js';
import { publishLive, recordNotices } from './dispatch.js';

interface Change {
  change: OrganizationChange;
  /** The member it is about (told too, as "you"), if any. */
  member: string | null;
  /** Who did it: not told of their own act. */
  actor: string;
  role?: string | null;
  previousRole?: string | null;
}

/**
 * A change in an organization: its owners and managers (the event's audience) and the member it is about each get
 * a notice of type `organization` on the channels their preferences allow; whoever made the change gets none.
 */
async function noticeOfChange(
  ctx: ServiceContext,
  meta: EventMeta,
  p: { organizationId: string; organizationName: string; audience: string[] },
  c: Change,
): Promise<void> {
  const readers = [...new Set([...p.audience, ...(c.member ? [c.member] : [])])].filter((id) => id !== c.actor);
  if (readers.length === 0) return;
  const named = c.member ?? c.actor;
  const memberName = (await findRecipient(meta.tx, named))?.name ?? null;
  const notices = await recordNotices(
    ctx,
    meta.tx,
    readers.map((userId) => ({
      sourceId: meta.eventId,
      userId,
      template: {
        name: 'organization-change' as const,
        params: {
          organizationId: p.organizationId,
          organizationName: p.organizationName,
          change: c.change,
          memberName,
          you: userId === c.member,
          role: c.role ?? null,
          previousRole: c.previousRole ?? null,
        },
      },
      data: { organizationId: p.organizationId },
      publicUrl: meta.publicUrl,
    })),
  );
  meta.afterCommit(() => {
    for (const n of notices) if (n) void publishLive(ctx, n);
  });
}

function onChange<E extends EventDef>(
  ctx: ServiceContext,
  def: E,
  durable: string,
  describe: (p: PayloadOf<E>) => Change,
) {
  return subscribe(def, durable, async (p, meta) => {
    const payload = p as PayloadOf<E> & { organizationId: string; organizationName: string; audience: string[] };
    await noticeOfChange(ctx, meta, payload, describe(p as PayloadOf<E>));
  });
}

/**
 * An invitation to send: the email with its link goes to the invited address (by email only, whatever anyone's
 * preferences: the address may have no account yet; the delivery is keyed by the invitation), and the owners and
 * managers hear of it.
 */
export const onOrganizationInvitationSent = (ctx: ServiceContext) =>
  subscribe(organizationInvitationSent, 'organization-invitation-sent', async (p, meta) => {
    await recordNotices(ctx, meta.tx, [
      {
        sourceId: meta.eventId,
        userId: p.invitationId,
        template: {
          name: 'organization-invitation',
          params: {
            invitationId: p.invitationId,
            organizationName: p.organizationName,
            role: p.role,
            invitedByName: p.invitedByName,
            invitedBy: p.invitedBy,
          },
        },
        data: { organizationId: p.organizationId },
        publicUrl: meta.publicUrl,
      },
    ]);
    await noticeOfChange(ctx, meta, p, { change: 'invitation-sent', member: null, actor: p.invitedBy, role: p.role });
  });

export const onOrganizationChanged = (ctx: ServiceContext) => [
  onChange(ctx, organizationMemberAdded, 'organization-member-added', (p) => ({
    change: 'member-added',
    member: p.userId,
    actor: p.userId,
    role: p.role,
  })),
  onChange(ctx, organizationMemberRoleChanged, 'organization-member-role-changed', (p) => ({
    change: 'role-changed',
    member: p.userId,
    actor: p.changedBy,
    role: p.role,
    previousRole: p.previousRole,
  })),
  onChange(ctx, organizationMemberRemoved, 'organization-member-removed', (p) => ({
    change: 'member-removed',
    member: p.userId,
    actor: p.removedBy,
  })),
  onChange(ctx, organizationMemberLeft, 'organization-member-left', (p) => ({
    change: 'member-left',
    member: p.userId,
    actor: p.userId,
  })),
  onChange(ctx, organizationInvitationDeclined, 'organization-invitation-declined', (p) => ({
    change: 'invitation-declined',
    member: null,
    actor: p.userId,
  })),
  onChange(ctx, organizationInvitationRevoked, 'organization-invitation-revoked', (p) => ({
    change: 'invitation-revoked',
    member: null,
    actor: p.revokedBy,
  })),
  onChange(ctx, organizationDissolved, 'organization-dissolved', (p) => ({
    change: 'dissolved',
    member: null,
    actor: p.dissolvedBy,
  })),
];
