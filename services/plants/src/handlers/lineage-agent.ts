import {
  type AgentState,
  LINEAGE_LIMITS,
  type LineageAgentStatus,
  lineageAgentAnalyse,
  lineageAgentControl,
  lineageAgentGet,
  lineageAnomalyList,
  pageWindow,
  paginate,
} from '@rootline/contracts';
import type { AgentRow, Db } from '@rootline/db';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import { findAncestors, findDescendants, findLineagePlant } from '../db/lineage.repo.js';
import { listAnomalies } from '../db/lineage-agent.repo.js';
import { lineageCounts } from '../db/stats.repo.js';
import { analyseLineage, byLevel, emptyPropagationMix } from '../domain/lineage.js';
import { allowedActions } from '../domain/lineage-agent.js';
import type { LineageAgent } from '../jobs/lineage-agent.js';

/** Descendants an analysis reads at most; `truncated` says when there were more. */
export const ANALYSIS_MAX_DESCENDANTS = 10_000;
/** Levels an analysis walks down. */
export const ANALYSIS_MAX_DEPTH = 1000;

async function status(db: Db, agent: AgentRow, intervalMs: number): Promise<LineageAgentStatus> {
  const counts = await lineageCounts(db);
  const mix = emptyPropagationMix();
  for (const r of counts.byPropagation)
    if (r.propagationType && r.propagationType in mix) mix[r.propagationType as keyof typeof mix] = r.n;
  const state = agent.state as AgentState;
  return {
    agent: 'lineage',
    state,
    since: new Date(agent.since).toISOString(),
    allowedActions: allowedActions(state),
    intervalSeconds: intervalMs / 1000,
    runs: agent.runs,
    lastRunAt: agent.lastRunAt ? new Date(agent.lastRunAt).toISOString() : null,
    lastRunDurationMs: agent.lastRunMs,
    anomaliesFound: agent.counts.anomaliesFound ?? 0,
    network: {
      totalPlants: counts.totalPlants,
      rootPlants: counts.rootPlants,
      propagatedPlants: counts.totalPlants - counts.rootPlants,
      maxGeneration: counts.maxGeneration,
      propagationMix: mix,
    },
  };
}

/** plants.lineage-agent.get: the agent's state and the lineage-wide statistics. */
export const getLineageAgent = (ctx: ServiceContext, agent: LineageAgent, intervalMs: number) =>
  handle(lineageAgentGet, async () => status(ctx.db, await agent.read(), intervalMs));

/** plants.lineage-agent.control: one move of the state machine; a move it does not allow is CONFLICT (409). */
export const controlLineageAgent = (ctx: ServiceContext, agent: LineageAgent, intervalMs: number) =>
  handle(lineageAgentControl, async ({ action }) => status(ctx.db, await agent.control(action), intervalMs));

/** plants.lineage-agent.analyse: counts, depth, propagation mix and spread of one plant's lineage. */
export const analyseLineageHandler = (ctx: ServiceContext) =>
  handle(lineageAgentAnalyse, async ({ plantId }) => {
    const plant = await findLineagePlant(ctx.db, plantId);
    if (!plant) throw notFound('Plant', plantId);
    const [ancestors, descendants] = await Promise.all([
      findAncestors(ctx.db, plant.id, LINEAGE_LIMITS.maxPedigreeDepth),
      findDescendants(ctx.db, plant.id, ANALYSIS_MAX_DEPTH, ANALYSIS_MAX_DESCENDANTS + 1),
    ]);
    const truncated = descendants.length > ANALYSIS_MAX_DESCENDANTS;
    const analysed = descendants.sort(byLevel).slice(0, ANALYSIS_MAX_DESCENDANTS);
    return analyseLineage(plant, ancestors, analysed, truncated);
  });

/** plants.lineage-anomaly.list: one page of the last scan's findings. */
export const listLineageAnomalies = (ctx: ServiceContext) =>
  handle(lineageAnomalyList, async (input) => {
    const { page, limit, offset } = pageWindow(input);
    const { items, total } = await listAnomalies(ctx.db, input.kind, offset, limit);
    return { items, pagination: paginate(page, limit, total) };
  });
