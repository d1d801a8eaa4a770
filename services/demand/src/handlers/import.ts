import { AppError, demandHistoryImported, demandImport } from '@rootline/contracts';
import { actingUser } from '@rootline/domain';
import { handle, type ServiceContext } from '@rootline/host';
import { settleHouseholds } from '../db/preferences.repo.js';
import { importHistory } from '../db/signals.repo.js';
import { isoDate, mondayOf, parseDate } from '../domain/calendar.js';
import { publicationWeek } from '../domain/privacy.js';
import { regionKey } from './regions.js';

/**
 * demand.import (ADMIN): households moved over from another system with the date they settled where they are, and
 * the weekly demand that system observed, so signals and forecasts do not start from nothing (ADR 207). Dates must
 * lie in the past: a settled date at most now, a week before this publication week.
 */
export const importDemand = (ctx: ServiceContext) =>
  handle(demandImport, async (input, caller) => {
    const actor = actingUser(caller);
    if (actor.role !== 'ADMIN')
      throw new AppError('FORBIDDEN', 'Only an administrator may import demand data', { reason: 'admin-only' });
    const now = ctx.clock.now();
    const thisWeek = publicationWeek(now);
    const households = (input.households ?? []).map((h, i) => {
      const since = new Date(h.settledSince);
      const field = `households.${i}.settledSince`;
      if (Number.isNaN(since.getTime()))
        throw new AppError('VALIDATION_ERROR', `${field}: not a valid time`, { field });
      if (since.getTime() > now.getTime()) throw new AppError('VALIDATION_ERROR', `${field}: in the future`, { field });
      // Its items as they are now count from the week after it settled, like a save on that day.
      return { consumerId: h.consumerId, countedFrom: since.toISOString(), itemsWeek: publicationWeek(since) };
    });
    const history = (input.history ?? []).map((w, i) => {
      const day = parseDate(w.weekStart);
      const field = `history.${i}.weekStart`;
      if (!day || isoDate(mondayOf(day)) !== w.weekStart) {
        throw new AppError('VALIDATION_ERROR', `${field}: not a Monday`, { field });
      }
      if (w.weekStart >= thisWeek) throw new AppError('VALIDATION_ERROR', `${field}: not a past week`, { field });
      const [country, city] = w.region.split('/') as [string, string | undefined];
      return {
        crop: w.crop,
        regionKey: regionKey(country, city),
        weekStart: w.weekStart,
        demandKg: w.demandKg,
        signalId: `import_${thisWeek}`,
      };
    });
    return ctx.db.transaction(async (tx) => {
      const settled = await settleHouseholds(tx, households);
      const weeks = await importHistory(tx, history);
      const found = new Set(settled);
      if (settled.length > 0 || weeks > 0) {
        await ctx.outbox.enqueue(tx, demandHistoryImported, { adminId: actor.id, households: settled, weeks }, caller);
      }
      return {
        households: settled.length,
        missing: households.map((h) => h.consumerId).filter((id) => !found.has(id)),
        weeks,
      };
    });
  });
