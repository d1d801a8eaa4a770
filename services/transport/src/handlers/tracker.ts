import {
  type AgentState,
  type CallContext,
  paginate,
  TRANSPORT_TRACKER_ACTIONS,
  type TrackerStatus,
  trackerAnalytics,
  trackerControl,
  trackerGet,
  trackerPatternList,
  trackerSavings,
} from '@rootline/contracts';
import type { AgentRow, Db } from '@rootline/db';
import { allowedAgentActions } from '@rootline/domain';
import { handle, type ServiceContext } from '@rootline/host';
import { deliveryTotals, eventCount, listPatterns, networkTotals, userTotals } from '../db/tracker.repo.js';
import {
  BASELINE_METHOD,
  CAR_KG_CO2E_PER_KM,
  CONVENTIONAL_DELIVERY_KM,
  conventionalKg,
  EMISSION_FACTORS,
  roundKg,
  TREE_KG_CO2_PER_YEAR,
} from '../domain/carbon.js';
import { efficiencyRating, efficiencyScore } from '../domain/patterns.js';
import type { Tracker } from '../jobs/tracker.js';

const iso = (t: string | null) => (t ? new Date(t).toISOString() : null);

async function status(db: Db, row: AgentRow, intervalMs: number): Promise<TrackerStatus> {
  const state = row.state as AgentState;
  return {
    agent: 'transport-tracker',
    state,
    since: new Date(row.since).toISOString(),
    allowedActions: allowedAgentActions(state, TRANSPORT_TRACKER_ACTIONS),
    intervalSeconds: intervalMs / 1000,
    runs: row.runs,
    lastRunAt: iso(row.lastRunAt),
    lastRunDurationMs: row.lastRunMs,
    nextRunAt: state === 'running' ? iso(row.nextRunAt) : null,
    counts: {
      eventsScanned: row.counts.eventsScanned ?? 0,
      patternsFound: row.counts.patternsFound ?? 0,
      events: await eventCount(db),
    },
  };
}

/** transport.tracker.get: the tracker's state, schedule and counts. */
export const getTracker = (ctx: ServiceContext, tracker: Tracker, intervalMs: number) =>
  handle(trackerGet, async () => status(ctx.db, await tracker.read(), intervalMs));

/** transport.tracker.control: one move of the agents' shared state machine; a refused move is CONFLICT (409). */
export const controlTracker = (ctx: ServiceContext, tracker: Tracker, intervalMs: number) =>
  handle(trackerControl, async ({ action }) => status(ctx.db, await tracker.control(action), intervalMs));

/**
 * Whose per-user figures a reader sees: an ADMIN everyone's (undefined), anyone else only their own, as with
 * `transport.footprint.get`; other users count only in the network aggregates.
 */
const ownFiguresOnly = (caller: CallContext): string | undefined =>
  caller.actor?.role === 'ADMIN' ? undefined : (caller.actor?.id ?? '');

/**
 * transport.tracker.analytics: network statistics and per-user efficiency (computed from the events in force). The
 * per-user list holds the 100 users with most events for an ADMIN, and only the reader's own entry for anyone else.
 */
export const getTrackerAnalytics = (ctx: ServiceContext) =>
  handle(trackerAnalytics, async (_, caller) => {
    const userId = ownFiguresOnly(caller);
    const [{ totals, modes }, users] = await Promise.all([
      networkTotals(ctx.db),
      userTotals(ctx.db, userId === undefined ? {} : { userId }),
    ]);
    return {
      network: {
        ...totals,
        distanceKm: roundKg(totals.distanceKm),
        kgCo2e: roundKg(totals.kgCo2e),
        byMode: Object.fromEntries(modes.map((m) => [m.mode, { events: m.events, kgCo2e: roundKg(m.kgCo2e) }])),
      },
      users: users.map((u) => {
        const baselineKgCo2e = conventionalKg(u.deliveredKg);
        const score = efficiencyScore(u.deliveryKgCo2e, baselineKgCo2e);
        return {
          userId: u.userId,
          events: u.events,
          distanceKm: roundKg(u.distanceKm),
          kgCo2e: roundKg(u.kgCo2e),
          deliveredKg: roundKg(u.deliveredKg),
          baselineKgCo2e,
          efficiencyScore: score,
          rating: efficiencyRating(score),
        };
      }),
    };
  });

/**
 * transport.tracker-pattern.list: one page of the last cycle's findings, optionally of one kind; an ADMIN reads
 * everyone's, anyone else only those of their own events.
 */
export const listTrackerPatterns = (ctx: ServiceContext) =>
  handle(trackerPatternList, async ({ kind, page, limit }, caller) => {
    const filter = { kind, userId: ownFiguresOnly(caller) };
    const { items, total } = await listPatterns(ctx.db, filter, (page - 1) * limit, limit);
    return { items, pagination: paginate(page, limit, total) };
  });

/** transport.tracker.savings: carbon saved by deliveries against conventional logistics, with equivalents. */
export const getTrackerSavings = (ctx: ServiceContext) =>
  handle(trackerSavings, async () => {
    const d = await deliveryTotals(ctx.db);
    const baselineKgCo2e = conventionalKg(d.deliveredKg);
    const savedKgCo2e = roundKg(baselineKgCo2e - d.kgCo2e);
    const hgv = EMISSION_FACTORS['hgv-diesel'];
    return {
      deliveredKg: roundKg(d.deliveredKg),
      actualKgCo2e: roundKg(d.kgCo2e),
      baselineKgCo2e,
      savedKgCo2e,
      method: BASELINE_METHOD,
      equivalents: {
        carKm: Math.round((savedKgCo2e / CAR_KG_CO2E_PER_KM) * 10) / 10,
        treeYears: Math.round((savedKgCo2e / TREE_KG_CO2_PER_YEAR) * 100) / 100,
      },
      factors: [
        {
          name: 'conventional delivery distance',
          value: CONVENTIONAL_DELIVERY_KM,
          unit: 'km',
          source: 'Weber & Matthews, Environ. Sci. Technol. 42(10), 2008',
        },
        { name: 'diesel HGV', value: hgv.perTonneKm, unit: 'kg CO2e per tonne-km', source: hgv.source },
        {
          name: 'average car',
          value: CAR_KG_CO2E_PER_KM,
          unit: 'kg CO2e per km',
          source: EMISSION_FACTORS.car.source,
        },
        {
          name: 'urban tree uptake',
          value: TREE_KG_CO2_PER_YEAR,
          unit: 'kg CO2 per tree-year',
          source: 'US EPA Greenhouse Gas Equivalencies Calculator: 0.060 t CO2 per urban tree seedling over 10 years',
        },
      ],
    };
  });
