import { AppError, paginate, plantGet, transportFootprintGet, transportJourneyGet } from '@rootline/contracts';
import { assertOwnerOrAdmin } from '@rootline/domain';
import { call, handle, type ServiceContext } from '@rootline/host';
import { findEvent, toStoredEvent, userRows } from '../db/events.repo.js';
import { journeyPage, journeySummaryOf, type PageStart } from '../db/journey.repo.js';
import { mayReadNotes } from '../domain/custody.js';
import { footprintOf, linkCorrections, summaryTotals } from '../domain/journey.js';

/** Where the page starts: after the cursor event (which must be one of this journey's), else by page number. */
async function pageStart(ctx: ServiceContext, plantId: string, page: number, limit: number, after?: string) {
  if (!after) return { offset: (page - 1) * limit } satisfies PageStart;
  const row = await findEvent(ctx.db, after);
  const ofJourney =
    row &&
    (row.plantId === plantId ||
      (row.plantId === null &&
        row.seedLotId !== null &&
        (await journeySummaryOf(ctx.db, plantId)).seedLots.includes(row.seedLotId)));
  if (!row || !ofJourney) {
    throw new AppError('VALIDATION_ERROR', `after: ${after} is not an event of this journey`, {
      field: 'after',
      reason: 'not-in-journey',
    });
  }
  return { after: row } satisfies PageStart;
}

/**
 * transport.journey.get: one page of the plant's events in time order with block hashes, and totals over all of
 * them. The totals come from the running totals kept when events are stored; only the page's rows are read (after
 * a cursor, a range scan of the index however deep the page). Notes show only to the event's parties (see
 * mayReadNotes), null for anyone else.
 */
export const getJourney = (ctx: ServiceContext) =>
  handle(transportJourneyGet, async ({ plantId, page, limit, after }, caller) => {
    const start = await pageStart(ctx, plantId, page, limit, after);
    const [summary, rows] = await Promise.all([
      journeySummaryOf(ctx.db, plantId),
      journeyPage(ctx.db, plantId, start, limit),
    ]);
    // Only a plant without events needs the plants service: to tell an unknown plant (404) from a quiet one.
    if (summary.recorded === 0) await call(ctx.bus, plantGet, { plantId }, caller);
    // Notes are the parties' own: the plant's owner is asked of the plants service only when a note on the page
    // is not the reader's by being its handler or recipient (or an ADMIN).
    const reader = caller.actor;
    let ownerId: string | undefined;
    if (reader && rows.some((r) => r.notes !== null && !mayReadNotes(reader, r, undefined))) {
      ownerId = (await call(ctx.bus, plantGet, { plantId }, caller)).owner.id;
    }
    const events = rows.map(({ correctedBy, ...row }) => {
      const { eventAt: _, ...event } = toStoredEvent(row);
      return { ...event, notes: mayReadNotes(reader, row, ownerId) ? event.notes : null, correctedBy };
    });
    return {
      items: events,
      pagination: paginate(page, limit, summary.recorded),
      meta: {
        plantId,
        seedLots: summary.seedLots,
        // A full page may be the last one: the next read then answers no events and a null cursor.
        nextAfter: events.length === limit ? (events.at(-1)?.id ?? null) : null,
        totals: summaryTotals(summary),
      },
    };
  });

/** transport.footprint.get: a user's emissions; only the user or an ADMIN may read it. */
export const getFootprint = (ctx: ServiceContext) =>
  handle(transportFootprintGet, async ({ userId }, caller) => {
    assertOwnerOrAdmin(caller, userId);
    // The user's own figures: measured, not rounded to the privacy level as others see them.
    const events = linkCorrections(
      (await userRows(ctx.db, userId)).map((r) => ({
        ...toStoredEvent(r),
        distanceKm: r.exactDistanceKm,
        kgCo2e: r.exactKgCo2e,
      })),
    );
    return footprintOf(userId, events);
  });
