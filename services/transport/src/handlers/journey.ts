import { paginate, plantGet, transportFootprintGet, transportJourneyGet } from '@rootline/contracts';
import { assertOwnerOrAdmin, call, handle, type ServiceContext } from '@rootline/host';
import { toStoredEvent, userRows } from '../db/events.repo.js';
import { journeyPage, journeySummaryOf } from '../db/journey.repo.js';
import { footprintOf, linkCorrections, summaryTotals } from '../domain/journey.js';

/**
 * transport.journey.get: one page of the plant's events in time order with block hashes, and totals over all of
 * them. The totals come from the running totals kept when events are stored; only the page's rows are read.
 */
export const getJourney = (ctx: ServiceContext) =>
  handle(transportJourneyGet, async ({ plantId, page, limit }, caller) => {
    const [summary, rows] = await Promise.all([
      journeySummaryOf(ctx.db, plantId),
      journeyPage(ctx.db, plantId, (page - 1) * limit, limit),
    ]);
    // Only a plant without events needs the plants service: to tell an unknown plant (404) from a quiet one.
    if (summary.recorded === 0) await call(ctx.bus, plantGet, { plantId }, caller);
    return {
      plantId,
      seedLots: summary.seedLots,
      events: rows.map(({ correctedBy, ...row }) => {
        const { eventAt: _, ...event } = toStoredEvent(row);
        return { ...event, correctedBy };
      }),
      pagination: paginate(page, limit, summary.recorded),
      totals: summaryTotals(summary),
    };
  });

/** transport.footprint.get: a user's emissions; only the user or an ADMIN may read it. */
export const getFootprint = (ctx: ServiceContext) =>
  handle(transportFootprintGet, async ({ userId }, caller) => {
    assertOwnerOrAdmin(caller, userId);
    const events = linkCorrections((await userRows(ctx.db, userId)).map(toStoredEvent));
    return footprintOf(userId, events);
  });
