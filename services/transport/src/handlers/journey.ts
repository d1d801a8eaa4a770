import { paginate, plantGet, transportFootprintGet, transportJourneyGet } from '@rootline/contracts';
import { assertOwnerOrAdmin, call, handle, type ServiceContext } from '@rootline/host';
import { journeyRows, toStoredEvent, userRows } from '../db/events.repo.js';
import { footprintOf, journeyTotals, linkCorrections } from '../domain/journey.js';

/** transport.journey.get: the plant's events in time order with block hashes and totals. */
export const getJourney = (ctx: ServiceContext) =>
  handle(transportJourneyGet, async ({ plantId, page, limit }, caller) => {
    const rows = await journeyRows(ctx.db, plantId);
    // Only a plant without events needs the plants service: to tell an unknown plant (404) from a quiet one.
    if (rows.length === 0) await call(ctx.bus, plantGet, { plantId }, caller);
    const events = linkCorrections(rows.map(toStoredEvent));
    const seedLots = [...new Set(events.flatMap((e) => (e.plantId === plantId && e.seedLotId ? [e.seedLotId] : [])))];
    // Totals cover every event; the answer carries one page of them, so a long journey stays a small answer.
    const start = (page - 1) * limit;
    return {
      plantId,
      seedLots,
      events: events.slice(start, start + limit),
      pagination: paginate(page, limit, events.length),
      totals: journeyTotals(events),
    };
  });

/** transport.footprint.get: a user's emissions; only the user or an ADMIN may read it. */
export const getFootprint = (ctx: ServiceContext) =>
  handle(transportFootprintGet, async ({ userId }, caller) => {
    assertOwnerOrAdmin(caller, userId);
    const events = linkCorrections((await userRows(ctx.db, userId)).map(toStoredEvent));
    return footprintOf(userId, events);
  });
