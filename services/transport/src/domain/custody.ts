import { AppError } from '@rootline/contracts/errors';
import type { Actor } from '@rootline/contracts/roles';
import { HANDOFF_KINDS } from '@rootline/contracts/transport';

/**
 * Custody of plants and seed lots (docs/transport.md, Custody; docs/adr/101): an event on a plant or a seed lot is
 * the act of one of its custodians. A plant's owner is always one; a seed lot's first handler is one; the
 * recipient of a handoff (a distribution or seed-sharing event naming them) becomes one when they accept it.
 * Custody is added, never moved: the sender of a handoff stays a custodian. An ADMIN may record for anyone.
 */

const isAdmin = (actor: Actor) => actor.role === 'ADMIN';

/** A correction is the act of the corrected event's handler, or of an ADMIN: FORBIDDEN for anyone else. */
export function assertMayCorrect(actor: Actor, corrected: { handlerId: string }): void {
  if (isAdmin(actor) || actor.id === corrected.handlerId) return;
  throw new AppError('FORBIDDEN', 'Only the handler of an event, or an administrator, may correct it', {
    field: 'corrects',
    reason: 'not-handler',
  });
}

/** What one subject (a plant or a seed lot) needs of the handler recording an event on it. */
export interface CustodyCheck {
  field: 'plantId' | 'seedLotId';
  id: string;
  /** The plant's owner; none for a seed lot. */
  ownerId?: string;
  /** Users made custodians of the subject by a seed lot's first event or an accepted handoff. */
  custodians: readonly string[];
}

/** Whether the user holds the subject: its owner, or a custodian by first event or accepted handoff. */
export function isCustodian(userId: string, check: Pick<CustodyCheck, 'ownerId' | 'custodians'>): boolean {
  return check.ownerId === userId || check.custodians.includes(userId);
}

/** An event on the subject is recorded by a custodian as its handler, or by an ADMIN: FORBIDDEN otherwise. */
export function assertCustodian(actor: Actor, handlerId: string, check: CustodyCheck): void {
  if (isAdmin(actor) || isCustodian(handlerId, check)) return;
  throw new AppError(
    'FORBIDDEN',
    `Only a custodian of ${check.id} (its owner, or someone it was handed to who accepted it) may record events on it`,
    { field: check.field, reason: 'not-custodian' },
  );
}

/** A stored event as a handoff's acceptance reads it. */
export interface HandoffEvent {
  id: string;
  kind: string;
  recipientId: string | null;
}

/**
 * Why the user may not accept this event as a handoff, or undefined when they may: it must be a distribution or
 * seed-sharing event naming a recipient (NOT_FOUND otherwise: there is no such handoff), and only that recipient
 * may accept it (FORBIDDEN, an ADMIN included: acceptance is the recipient's own statement).
 */
export function handoffRefusal(userId: string, event: HandoffEvent): AppError | undefined {
  if (!(HANDOFF_KINDS as readonly string[]).includes(event.kind) || !event.recipientId) {
    return new AppError('NOT_FOUND', `Handoff ${event.id} not found: the event names no recipient`, {
      field: 'eventId',
    });
  }
  if (event.recipientId !== userId) {
    return new AppError('FORBIDDEN', 'Only the recipient named in a handoff may accept it', {
      field: 'eventId',
      reason: 'not-recipient',
    });
  }
  return undefined;
}

/** Whether a reader may see an event's notes: its handler, its recipient, the plant's owner, or an ADMIN. */
export function mayReadNotes(
  reader: Actor | undefined,
  event: { handlerId: string; recipientId: string | null },
  plantOwnerId: string | undefined,
): boolean {
  if (!reader) return false;
  return (
    isAdmin(reader) || reader.id === event.handlerId || reader.id === event.recipientId || reader.id === plantOwnerId
  );
}
