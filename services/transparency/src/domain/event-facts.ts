import type { WebhookArea, WebhookScope } from '@rootline/contracts/webhooks';
import { type EventPlace, inArea } from './webhook-area.js';

/**
 * The record an event is about. Subjects read `evt.<service>.<record>.<verb>`, and the payload names that record
 * `<record>Id` (`evt.plants.plant.registered` → `plantId`, `evt.demand.offer.accepted` → `offerId`). Without such a
 * property: the first string property ending in `Id` that is not a user id, else the first one, else null. Key order
 * is not relied on first: payloads that went through a JSONB column come back with their keys reordered.
 */
export function entityOf(payload: unknown, subject?: string): string | null {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
  const ids = Object.entries(payload).filter(
    (e): e is [string, string] => e[0].endsWith('Id') && typeof e[1] === 'string' && e[1].length > 0,
  );
  const record = subject?.split('.')[2];
  const named = record ? ids.find(([key]) => key === `${record}Id`) : undefined;
  const found = named ?? ids.find(([, value]) => !value.startsWith('usr_')) ?? ids[0];
  return found ? found[1].slice(0, 200) : null;
}

/**
 * The users an event concerns, to whom its webhooks may deliver it: the user who caused it, and every user id the
 * payload names (a string property ending in `Id` whose value is a user id, `usr_…`).
 */
export function usersConcerned(actorId: string | undefined, payload: unknown): string[] {
  const out = new Set<string>();
  if (actorId) out.add(actorId);
  if (typeof payload === 'object' && payload !== null && !Array.isArray(payload)) {
    for (const [key, value] of Object.entries(payload)) {
      if (key.endsWith('Id') && typeof value === 'string' && value.startsWith('usr_')) out.add(value);
    }
  }
  return [...out];
}

/** A webhook as matching needs it: whose it is, what it subscribes to, and where. */
export interface WebhookSubscription {
  ownerId: string;
  events: readonly string[];
  scope: WebhookScope;
  area: WebhookArea | null;
}

/**
 * The webhooks (of those given) an event of `kind` goes to: subscribed to the kind; of `public` scope, or of `own`
 * scope and owned by one of the `users` it concerns; and, when narrowed to an area, with the event's `place` (from
 * its public form) in it. Each webhook at most once.
 */
export function webhooksOfEvent<H extends WebhookSubscription>(
  hooks: readonly H[],
  kind: string,
  users: readonly string[],
  place: EventPlace | null = null,
): H[] {
  return hooks.filter(
    (h) =>
      h.events.includes(kind) &&
      (h.scope === 'public' || users.includes(h.ownerId)) &&
      (h.area === null || inArea(h.area, place)),
  );
}
