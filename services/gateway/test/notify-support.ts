import type { Bus } from '@rootline/bus';
import { type Actor, contextToHeaders, type EventDef, newId, type PayloadOf } from '@rootline/contracts';

/**
 * Publishes an event as its owning service would, for notify tests that leave that service out; `actor` is the
 * acting user its context would carry. Answers the event id.
 */
export async function publishEvent<E extends EventDef>(
  bus: Bus,
  def: E,
  payload: PayloadOf<E>,
  id = newId('evt', Date.now()),
  actor?: Actor,
): Promise<string> {
  await bus.publish({
    id,
    subject: def.subject,
    occurredAt: new Date().toISOString(),
    payload,
    headers: contextToHeaders({ requestId: newId('req', Date.now()), ...(actor ? { actor } : {}) }),
  });
  return id;
}
