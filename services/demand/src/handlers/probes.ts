import { type Actor, AppError, demandProbeRecorded } from '@rootline/contracts';
import type { ServiceContext } from '@rootline/host';
import { insertMatchRun } from '../db/probes.repo.js';

export const DAY_MS = 86_400_000;

/** How many probes of each kind a grower may make per crop in 24 hours (config MATCH_RUNS_PER_DAY, SUPPLIES_PER_DAY). */
export interface ProbeLimits {
  matchRunsPerDay: number;
  suppliesPerDay: number;
}

/** The refusal of a probe over the day's limit: 429 RATE_LIMITED naming the limit. */
function probeLimited(what: 'match' | 'supply', limit: number): AppError {
  const noun = what === 'match' ? 'runs of matching' : 'supply commitments';
  return new AppError('RATE_LIMITED', `At most ${limit} ${noun} per crop in 24 hours; try again tomorrow`, [
    { field: 'body/crop', reason: 'probe-limit', limit, message: `${noun} limit` },
  ]);
}

/**
 * Records a refused probe in the audit log (its own transaction: the request itself fails) and throws the refusal.
 */
export async function refuseProbe(
  ctx: ServiceContext,
  caller: Parameters<ServiceContext['outbox']['enqueue']>[3],
  probe: {
    growerId: string;
    what: 'match' | 'supply';
    crop: string | null;
    requestedKm: number | null;
    appliedKm: number | null;
    today: number;
    limit: number;
  },
): Promise<never> {
  await ctx.db.transaction(async (tx) => {
    if (probe.what === 'match') {
      await insertMatchRun(tx, {
        id: ctx.newId('mrn'),
        growerId: probe.growerId,
        crop: probe.crop,
        requestedKm: probe.requestedKm ?? 0,
        appliedKm: probe.appliedKm ?? 0,
        refused: true,
        createdAt: ctx.clock.now().toISOString(),
      });
    }
    await ctx.outbox.enqueue(tx, demandProbeRecorded, { ...probe, refused: true }, caller);
  });
  throw probeLimited(probe.what, probe.limit);
}

/** Whether the caller's probes are counted: everyone's but an ADMIN's. */
export const limited = (actor: Actor) => actor.role !== 'ADMIN';
