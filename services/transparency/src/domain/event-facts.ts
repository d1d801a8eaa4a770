/**
 * The record an event is about: the first string property of its payload whose name ends in `Id` (payloads name
 * their main record first: `plantId`, `listingId`, `offerId`…), or null.
 */
export function entityOf(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
  for (const [key, value] of Object.entries(payload)) {
    if (key.endsWith('Id') && typeof value === 'string' && value.length > 0) return value.slice(0, 200);
  }
  return null;
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

/** The webhooks (of those given) an event of `kind` concerning `users` goes to: subscribed to the kind, owned by one of them. */
export function webhooksOfEvent<H extends { ownerId: string; events: readonly string[] }>(
  hooks: readonly H[],
  kind: string,
  users: readonly string[],
): H[] {
  return hooks.filter((h) => users.includes(h.ownerId) && h.events.includes(kind));
}
