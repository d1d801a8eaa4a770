import { AppError, farmAnalyticsGet } from '@rootline/contracts';
import { handle, type ServiceContext } from '@rootline/host';
import { batchFacts, readingCounts, recipeNames, zoneFacts } from '../db/analytics.repo.js';
import { farmAnalytics } from '../domain/analytics.js';
import { assertOperator, requireFarm } from './farm.js';

const YEAR_MS = 365 * 86_400_000;

function time(value: string | undefined, field: string, fallback: Date): Date {
  if (value === undefined) return fallback;
  const t = new Date(value);
  if (Number.isNaN(t.getTime()))
    throw new AppError('VALIDATION_ERROR', `${field}: not a valid time`, { field, reason: 'invalid-time' });
  return t;
}

/** farm.analytics.get: the farm's figures over a period (default the last 365 days); its owner's and ADMINs' only. */
export const getAnalytics = (ctx: ServiceContext) =>
  handle(farmAnalyticsGet, async (input, caller) => {
    const farm = await requireFarm(ctx, input.farmId);
    assertOperator(caller, farm.ownerId);
    const to = time(input.to, 'to', ctx.clock.now());
    const from = time(input.from, 'from', new Date(to.getTime() - YEAR_MS));
    if (from.getTime() >= to.getTime()) {
      throw new AppError('VALIDATION_ERROR', 'from: must be before to', { field: 'from', reason: 'from-after-to' });
    }
    // On a read replica when one serves (docs/read-replicas.md); the farm's owner check above reads the primary.
    const { zones, batches, readings, names } = await ctx.reads.run(caller, async (db) => {
      const [zones, batches, readings] = await Promise.all([
        zoneFacts(db, input.farmId),
        batchFacts(db, input.farmId, from, to),
        readingCounts(db, input.farmId, from, to),
      ]);
      const names = await recipeNames(db, [...new Set(batches.map((b) => b.recipeId))]);
      return { zones, batches, readings, names };
    });
    const result = farmAnalytics({ from, to, zones, batches, readings }, names);
    return { farmId: input.farmId, from: from.toISOString(), to: to.toISOString(), ...result };
  });
