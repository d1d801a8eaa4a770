import { appLink } from '@rootline/contracts/app-links';
import { distanceBandKm } from '@rootline/contracts/demand';
import type { NotificationType } from '@rootline/contracts/notify';

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
      params: { invitationId: string; organizationName: string; role: string; invitedByName: string };
    }
  | {
      name: 'organization-change';
      params: {
        organizationId: string;
        organizationName: string;
        change: OrganizationChange;
        /** The member the change is about, by name (or their part when unknown). */
        memberName: string;
        /** Whether the reader is that member. */
        you: boolean;
        role: string | null;
        previousRole: string | null;
      };
    }
  | {
      name: 'webhook-disabled';
      params: { webhookId: string; url: string; reason: 'gone' | 'failing'; failingSince: string | null };
    };

export type TemplateName = Template['name'];

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
};

/** A rendered message: the in-app title and body, the page it is about, and the email's paragraphs. */
export interface Message {
  title: string;
  body: string;
  /** Path (from the public address) of the page it is about. */
  link: string | null;
}

const money = (minor: number, currency: string) => `${(minor / 100).toFixed(2)} ${currency}`;
const km = (d: number) => `${d < 10 ? d.toFixed(1) : Math.round(d)} km`;

/**
 * Renders a template. `action` is the address of a one-time link (verification, reset) minted at send time; it
 * is needed for those two and ignored otherwise.
 */
export function render(t: Template, action?: string): Message {
  switch (t.name) {
    case 'welcome':
      return {
        title: 'Welcome to Rootline',
        body: 'Your account is ready. Register your first plant to start its lineage on the ledger.',
        link: appLink('registerPlant'),
      };
    case 'plant-registered':
      return {
        title: `${t.params.commonName} is registered`,
        body: `${t.params.commonName} is recorded on the ledger as ${t.params.plantId}.`,
        link: appLink('plant', { plantId: t.params.plantId }),
      };
    case 'demand-match': {
      const { crop, quantityKg, distanceKm, side } = t.params;
      // The grower learns a household's distance only to the published precision (docs/privacy.md).
      return side === 'grower'
        ? {
            title: `A household near you wants ${crop}`,
            body: `Your supply matches ${quantityKg} kg of ${crop}, within ${distanceBandKm(distanceKm)} km.`,
            link: appLink('demand'),
          }
        : {
            title: `${crop} grown near you`,
            body: `A grower can supply ${quantityKg} kg of ${crop}, ${km(distanceKm)} away.`,
            link: appLink('demand'),
          };
    }
    case 'offer-made':
      return {
        title: 'New offer on your listing',
        body: `An offer for ${t.params.quantity} at ${money(t.params.price, t.params.currency)} each.`,
        link: appLink('listing', { listingId: t.params.listingId }),
      };
    case 'offer-accepted':
      return {
        title: 'Offer accepted',
        body: `The offer for ${t.params.quantity} at ${money(t.params.price, t.params.currency)} each was accepted.`,
        link: appLink('listing', { listingId: t.params.listingId }),
      };
    case 'verify-email':
      return {
        title: 'Confirm your email address',
        body: `Open this link to confirm your address: ${requireAction(action)}\nIf you did not ask for it, ignore this email.`,
        link: null,
      };
    case 'reset-password':
      return {
        title: 'Reset your password',
        body: `Open this link to choose a new password: ${requireAction(action)}\nIf you did not ask for it, ignore this email; your password stays as it is.`,
        link: null,
      };
    case 'weekly-digest':
      return {
        title: 'Your week on Rootline',
        body: `In the week of ${t.params.weekStart}:\n${t.params.lines.map((l) => `- ${l}`).join('\n')}`,
        link: appLink('inbox'),
      };
    case 'transport-arriving': {
      const what = t.params.plantId ? `Plant ${t.params.plantId}` : `Seed lot ${t.params.seedLotId}`;
      return {
        title: `${what} is coming to you`,
        body: `${what} was handed on to you (${t.params.kind.replace(/_/g, ' ')}${t.params.distanceKm === null ? '' : `, ${km(t.params.distanceKm)}`}).`,
        link: t.params.plantId
          ? appLink('plant', { plantId: t.params.plantId })
          : appLink('trace', { id: t.params.transportEventId }),
      };
    }
    case 'farm-alert':
      return {
        title: `${t.params.farmName}: readings out of range`,
        body:
          `${t.params.deviationCount} reading${t.params.deviationCount === 1 ? '' : 's'} of batch ${t.params.batchId} ` +
          `fell outside the targets (${t.params.metrics.join(', ')}).`,
        link: appLink('farmBatch', { batchId: t.params.batchId }),
      };
    case 'harvest-ready':
      return {
        title: `${t.params.crop} is ready to harvest`,
        body: `Batch ${t.params.batchId} at ${t.params.farmName} reached its expected harvest date.`,
        link: appLink('farmBatch', { batchId: t.params.batchId }),
      };
    case 'webhook-disabled': {
      const { url, reason, failingSince, webhookId } = t.params;
      const why =
        reason === 'gone'
          ? 'its receiver answered 410 Gone'
          : `every delivery to it has failed${failingSince ? ` since ${failingSince}` : ''}`;
      return {
        title: 'A webhook of yours was disabled',
        body:
          `Your webhook ${webhookId} (${url}) was disabled because ${why}. Deliveries to it have stopped; ` +
          'fix the receiver, then set the webhook active again (PATCH /api/transparency/webhooks/' +
          `${webhookId} with {"status":"active"}) and redeliver what it missed.`,
        link: appLink('networkWebhooks'),
      };
    }
    case 'organization-invitation': {
      const { organizationName, role, invitedByName } = t.params;
      return {
        title: `${invitedByName} invited you to ${organizationName}`,
        body:
          `${invitedByName} invited you to join ${organizationName} on Rootline as ${article(role)} ${role}. ` +
          `Open this link to accept or decline (sign in or create an account first): ${requireAction(action)}\n` +
          'The link works once. If you do not know them, ignore this email.',
        link: null,
      };
    }
    case 'organization-change':
      return organizationChange(t.params);
    case 'password-changed':
      return {
        title: 'Your password was changed',
        body: 'The password of your Rootline account was just changed. If it was not you, reset it at once.',
        link: null,
      };
  }
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

function organizationChange(p: Extract<Template, { name: 'organization-change' }>['params']): Message {
  const org = p.organizationName;
  const who = p.you ? 'You' : p.memberName;
  const link =
    p.change === 'dissolved' || (p.you && (p.change === 'member-removed' || p.change === 'member-left'))
      ? appLink('myOrganizations')
      : appLink('organizationMembers', { organizationId: p.organizationId });
  const as = p.role ? ` as ${article(p.role)} ${p.role}` : '';
  switch (p.change) {
    case 'invitation-sent':
      return { title: `${org}: invitation sent`, body: `${p.memberName} invited someone to ${org}${as}.`, link };
    case 'member-added':
      return { title: `${org}: new member`, body: `${who} joined ${org}${as}.`, link };
    case 'role-changed':
      return {
        title: `${org}: role changed`,
        body: `${who} ${p.you ? 'are' : 'is'} now ${article(p.role ?? '')} ${p.role} of ${org}${p.previousRole ? ` (was ${p.previousRole})` : ''}.`,
        link,
      };
    case 'member-removed':
      return {
        title: `${org}: member removed`,
        body: p.you ? `You were removed from ${org}.` : `${who} was removed from ${org}.`,
        link,
      };
    case 'member-left':
      return { title: `${org}: member left`, body: `${who} left ${org}.`, link };
    case 'invitation-declined':
      return { title: `${org}: invitation declined`, body: `${who} declined the invitation to ${org}.`, link };
    case 'invitation-revoked':
      return { title: `${org}: invitation revoked`, body: `${p.memberName} revoked an invitation to ${org}.`, link };
    case 'dissolved':
      return { title: `${org} was dissolved`, body: `${p.memberName} dissolved ${org}.`, link };
  }
}

function requireAction(action: string | undefined): string {
  if (!action) throw new Error('this message needs the address of its one-time link');
  return action;
}
