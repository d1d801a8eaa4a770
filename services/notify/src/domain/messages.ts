import { appLink } from '@rootline/contracts/app-links';
import { distanceBandKm } from '@rootline/contracts/demand';
import type { NotificationType } from '@rootline/contracts/notify';
import { decimal, type MessageLocale, messageLocale, textsIn } from './texts.js';

/** What a domain event says to one person, before it is put in a channel. */
export type Template =
  | { name: 'welcome'; params: Record<string, never> }
  | { name: 'plant-registered'; params: { plantId: string; commonName: string } }
  | {
      name: 'demand-match';
      params: { matchId: string; crop: string; quantityKg: number; distanceKm: number; side: 'grower' | 'consumer' };
    }
  | {
      name: 'offer-made' | 'offer-accepted';
      params: { offerId: string; listingId: string; quantity: number; price: number; currency: string };
    }
  | { name: 'verify-email' | 'reset-password'; params: { linkId: string } }
  | { name: 'password-changed'; params: Record<string, never> }
  | {
      name: 'transport-arriving';
      params: {
        transportEventId: string;
        kind: string;
        plantId: string | null;
        seedLotId: string | null;
        /** As the public event shows it: rounded to the event's privacy level, null when hidden. */
        distanceKm: number | null;
      };
    }
  | {
      name: 'farm-alert';
      params: { farmId: string; farmName: string; batchId: string; deviationCount: number; metrics: string[] };
    }
  | { name: 'harvest-ready'; params: { farmId: string; farmName: string; batchId: string; crop: string } }
  | { name: 'weekly-digest'; params: { weekStart: string; lines: string[] } }
  | {
      name: 'organization-invitation';
      /** `invitedBy`: the inviting account, whose language the email is written in (the address may have none). */
      params: {
        invitationId: string;
        organizationName: string;
        role: string;
        invitedByName: string;
        invitedBy?: string;
      };
    }
  | {
      name: 'organization-change';
      params: {
        organizationId: string;
        organizationName: string;
        change: OrganizationChange;
        /** The member the change is about (or who made it), by name; null when unknown (then by their part). */
        memberName: string | null;
        /** Whether the reader is that member. */
        you: boolean;
        role: string | null;
        previousRole: string | null;
      };
    }
  | {
      name: 'transfer';
      params: {
        transferId: string;
        change: TransferChange;
        /** `plant` or `seed-lot`; left out (a plant) in notices recorded before seed lots were transferred. */
        subjectType?: string;
        subjectId: string;
        subjectName: string;
        fromName: string;
        toName: string;
      };
    }
  | {
      name: 'seed-loan';
      params: { loanId: string; lotName: string; lenderName: string; amount: number; unit: string; dueSeason: string };
    }
  | {
      name: 'webhook-disabled';
      params: { webhookId: string; url: string; reason: 'gone' | 'failing'; failingSince: string | null };
    };

export type TemplateName = Template['name'];

/** What happened to an ownership transfer, told to the other side. */
export type TransferChange = 'proposed' | 'accepted' | 'declined' | 'cancelled';

/** What happened in an organization, for its owners and managers (and the member it is about). */
export type OrganizationChange =
  | 'invitation-sent'
  | 'member-added'
  | 'role-changed'
  | 'member-removed'
  | 'member-left'
  | 'invitation-declined'
  | 'invitation-revoked'
  | 'dissolved';

/** The notification type of each template (what preferences are asked about). */
export const TEMPLATE_TYPE: Record<TemplateName, NotificationType> = {
  welcome: 'welcome',
  'plant-registered': 'plant-registered',
  'demand-match': 'demand-match',
  'offer-made': 'marketplace',
  'offer-accepted': 'marketplace',
  'verify-email': 'account',
  'reset-password': 'account',
  'password-changed': 'account',
  'weekly-digest': 'weekly-digest',
  'transport-arriving': 'transport-alert',
  'farm-alert': 'farm-alert',
  'harvest-ready': 'harvest-ready',
  'webhook-disabled': 'account',
  // Sent to an address that may have no account yet, always and by email only.
  'organization-invitation': 'account',
  'organization-change': 'organization',
  transfer: 'transfer',
  // Seed handed over on loan: told as a transfer is (ADR 296).
  'seed-loan': 'transfer',
};

/** A rendered message: the in-app title and body, the page it is about, and the email's paragraphs. */
export interface Message {
  title: string;
  body: string;
  /** Path (from the public address) of the page it is about. */
  link: string | null;
}

const money = (lng: MessageLocale, minor: number, currency: string) => `${decimal(lng, minor / 100, 2)} ${currency}`;
const km = (lng: MessageLocale, d: number) => `${decimal(lng, d < 10 ? d : Math.round(d), d < 10 ? 1 : 0)} km`;

/**
 * Renders a template in the recipient's language (`locale`, English when unknown). `action` is the address of a
 * one-time link (verification, reset) minted at send time; it is needed for those two and ignored otherwise.
 */
export function render(t: Template, action?: string, locale?: string | null): Message {
  const lng = messageLocale(locale);
  const s = textsIn(lng);
  switch (t.name) {
    case 'welcome':
      return { title: s('welcome.title'), body: s('welcome.body'), link: appLink('registerPlant') };
    case 'plant-registered':
      return {
        title: s('plantRegistered.title', t.params),
        body: s('plantRegistered.body', t.params),
        link: appLink('plant', { plantId: t.params.plantId }),
      };
    case 'demand-match': {
      const { crop, quantityKg, distanceKm, side } = t.params;
      // The grower learns a household's distance only to the published precision (docs/privacy.md).
      return side === 'grower'
        ? {
            title: s('demandMatchGrower.title', { crop }),
            body: s('demandMatchGrower.body', { crop, quantityKg, band: distanceBandKm(distanceKm) }),
            link: appLink('demand'),
          }
        : {
            title: s('demandMatchConsumer.title', { crop }),
            body: s('demandMatchConsumer.body', { crop, quantityKg, distance: km(lng, distanceKm) }),
            link: appLink('demand'),
          };
    }
    case 'offer-made':
    case 'offer-accepted': {
      const key = t.name === 'offer-made' ? 'offerMade' : 'offerAccepted';
      const values = { quantity: t.params.quantity, price: money(lng, t.params.price, t.params.currency) };
      return {
        title: s(`${key}.title`),
        body: s(`${key}.body`, values),
        link: appLink('listing', { listingId: t.params.listingId }),
      };
    }
    case 'verify-email':
      return {
        title: s('verifyEmail.title'),
        body: s('verifyEmail.body', { link: requireAction(action) }),
        link: null,
      };
    case 'reset-password':
      return {
        title: s('resetPassword.title'),
        body: s('resetPassword.body', { link: requireAction(action) }),
        link: null,
      };
    case 'weekly-digest':
      return {
        title: s('weeklyDigest.title'),
        body: [s('weeklyDigest.body', { weekStart: t.params.weekStart }), ...t.params.lines.map((l) => `- ${l}`)].join(
          '\n',
        ),
        link: appLink('inbox'),
      };
    case 'transport-arriving': {
      const what = t.params.plantId
        ? s('transportArriving.plant', { id: t.params.plantId })
        : s('transportArriving.seedLot', { id: t.params.seedLotId });
      const kind = t.params.kind.replace(/_/g, ' ');
      return {
        title: s('transportArriving.title', { what }),
        body:
          t.params.distanceKm === null
            ? s('transportArriving.body', { what, kind })
            : s('transportArriving.bodyDistance', { what, kind, distance: km(lng, t.params.distanceKm) }),
        link: t.params.plantId
          ? appLink('plant', { plantId: t.params.plantId })
          : appLink('trace', { id: t.params.transportEventId }),
      };
    }
    case 'farm-alert':
      return {
        title: s('farmAlert.title', { farmName: t.params.farmName }),
        body: s('farmAlert.body', {
          count: t.params.deviationCount,
          batchId: t.params.batchId,
          metrics: t.params.metrics.join(', '),
        }),
        link: appLink('farmBatch', { batchId: t.params.batchId }),
      };
    case 'harvest-ready':
      return {
        title: s('harvestReady.title', { crop: t.params.crop }),
        body: s('harvestReady.body', { batchId: t.params.batchId, farmName: t.params.farmName }),
        link: appLink('farmBatch', { batchId: t.params.batchId }),
      };
    case 'webhook-disabled': {
      const { url, reason, failingSince, webhookId } = t.params;
      const why =
        reason === 'gone'
          ? s('webhookDisabled.gone')
          : failingSince
            ? s('webhookDisabled.failingSince', { since: failingSince })
            : s('webhookDisabled.failing');
      return {
        title: s('webhookDisabled.title'),
        body: s('webhookDisabled.body', { webhookId, url, why }),
        link: appLink('networkWebhooks'),
      };
    }
    case 'organization-invitation': {
      const { organizationName, invitedByName } = t.params;
      const role = s(`organizationInvitation.${roleKey(t.params.role)}`, { defaultValue: t.params.role });
      return {
        title: s('organizationInvitation.title', { invitedByName, organizationName }),
        body: s('organizationInvitation.body', {
          invitedByName,
          organizationName,
          role,
          action: requireAction(action),
        }),
        link: null,
      };
    }
    case 'organization-change':
      return organizationChange(s, t.params);
    case 'transfer': {
      const { change, subjectName: name, fromName: from, toName: to } = t.params;
      return {
        title: s(`transfer.${change}Title`, { name }),
        body: s(`transfer.${change}`, { name, from, to }),
        // An offer is answered on the transfers page; an accepted plant or seed lot is seen on its own page.
        link:
          change !== 'accepted'
            ? appLink('transfers')
            : t.params.subjectType === 'seed-lot'
              ? appLink('seedLot', { seedLotId: t.params.subjectId })
              : appLink('plant', { plantId: t.params.subjectId }),
      };
    }
    case 'seed-loan': {
      const { lotName: name, lenderName: from, amount, unit, dueSeason } = t.params;
      const quantity = `${amount} ${s(`seedLoan.${unit}`, { defaultValue: unit })}`;
      const [year, season] = dueSeason.split('-');
      const due = `${s(`seedLoan.${season}`, { defaultValue: season })} ${year}`;
      return {
        title: s('seedLoan.lentTitle', { name }),
        body: s('seedLoan.lent', { name, from, quantity, due }),
        link: appLink('loans'),
      };
    }
    case 'password-changed':
      return { title: s('passwordChanged.title'), body: s('passwordChanged.body'), link: null };
  }
}

/** The template keys of each organization change: the title, and the body about someone else or about "you". */
const CHANGE_KEYS: Record<OrganizationChange, { title: string; body: string; you?: string }> = {
  'invitation-sent': { title: 'invitationSentTitle', body: 'invitationSent' },
  'member-added': { title: 'memberAddedTitle', body: 'memberAdded', you: 'youJoined' },
  'role-changed': { title: 'roleChangedTitle', body: 'roleChanged', you: 'youRoleChanged' },
  'member-removed': { title: 'memberRemovedTitle', body: 'memberRemoved', you: 'youRemoved' },
  'member-left': { title: 'memberLeftTitle', body: 'memberLeft', you: 'youLeft' },
  'invitation-declined': { title: 'invitationDeclinedTitle', body: 'invitationDeclined' },
  'invitation-revoked': { title: 'invitationRevokedTitle', body: 'invitationRevoked' },
  dissolved: { title: 'dissolvedTitle', body: 'dissolved' },
};

/** The catalog key of a role's word (`roleOwner`…). */
const roleKey = (role: string) => `role${role.charAt(0).toUpperCase()}${role.slice(1)}`;

function organizationChange(
  s: ReturnType<typeof textsIn>,
  p: Extract<Template, { name: 'organization-change' }>['params'],
): Message {
  const org = p.organizationName;
  const keys = CHANGE_KEYS[p.change];
  const link =
    p.change === 'dissolved' || (p.you && (p.change === 'member-removed' || p.change === 'member-left'))
      ? appLink('myOrganizations')
      : appLink('organizationMembers', { organizationId: p.organizationId });
  const aboutMember = keys.you !== undefined;
  const name = p.memberName ?? s(`organizationChange.${aboutMember ? 'someMember' : 'someManager'}`);
  // "as a manager" reads with the invitation's word for the role (with its article where the language has one),
  // "(was member)" with the bare word.
  const role = p.role ? s(`organizationInvitation.${roleKey(p.role)}`, { defaultValue: p.role }) : null;
  const previous = p.previousRole
    ? s(`organizationChange.${roleKey(p.previousRole)}`, { defaultValue: p.previousRole })
    : null;
  let body = p.you && keys.you ? keys.you : keys.body;
  if (p.change === 'role-changed' && previous) body = `${body}Was`;
  else if ((p.change === 'member-added' || p.change === 'invitation-sent') && role) body = `${body}As`;
  return {
    title: s(`organizationChange.${keys.title}`, { org }),
    body: s(`organizationChange.${body}`, { org, name, role: role ?? '', previous }),
    link,
  };
}

function requireAction(action: string | undefined): string {
  if (!action) throw new Error('this message needs the address of its one-time link');
  return action;
}
