import { AppError, type HandoffAcceptance, transportHandoffAccept } from '@rootline/contracts';
import { actingUser } from '@rootline/domain';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import { acceptanceOf, type CustodyRow, isCorrected, recordAcceptance } from '../db/custody.repo.js';
import { type EventRow, findEvent } from '../db/events.repo.js';
import { handoffRefusal } from '../domain/custody.js';

function answer(event: EventRow, rows: readonly CustodyRow[]): HandoffAcceptance {
  return {
    eventId: event.id,
    kind: event.kind as HandoffAcceptance['kind'],
    plantId: event.plantId,
    seedLotId: event.seedLotId,
    recipient: { id: event.recipientId ?? '', name: event.recipientName ?? '' },
    acceptedAt: new Date(rows[0]?.since ?? 0).toISOString(),
  };
}

/**
 * transport.handoff.accept: the recipient named in a distribution or seed-sharing event accepts it (EPCIS
 * receiving, the event being the shipping) and becomes a custodian of the plant and seed lot it names. Only that
 * recipient may (FORBIDDEN); an event that is no handoff is NOT_FOUND; a corrected one is CONFLICT (its correction
 * is the handoff in force). Accepting again is idempotent: the same answer, with the first acceptance's time.
 */
export const acceptHandoff = (ctx: ServiceContext) =>
  handle(transportHandoffAccept, async ({ eventId }, caller) => {
    const actor = actingUser(caller);
    const event = await findEvent(ctx.db, eventId);
    if (!event) throw notFound('Transport event', eventId);
    const refusal = handoffRefusal(actor.id, event);
    if (refusal) throw refusal;
    const done = await acceptanceOf(ctx.db, eventId, actor.id);
    if (done.length > 0) return answer(event, done);
    if (await isCorrected(ctx.db, eventId)) {
      throw new AppError('CONFLICT', `Handoff ${eventId} was corrected; accept the event that corrects it`, {
        field: 'eventId',
        reason: 'corrected',
      });
    }
    const since = ctx.clock.now().toISOString();
    const subjects = [
      ...(event.plantId ? [{ subject: event.plantId, subjectKind: 'plant' as const }] : []),
      ...(event.seedLotId ? [{ subject: event.seedLotId, subjectKind: 'seed-lot' as const }] : []),
    ];
    await recordAcceptance(
      ctx.db,
      subjects.map((s) => ({ ...s, userId: actor.id, eventId, since })),
    );
    // Read back: a concurrent acceptance may have been first, and its time stands.
    return answer(event, await acceptanceOf(ctx.db, eventId, actor.id));
  });
