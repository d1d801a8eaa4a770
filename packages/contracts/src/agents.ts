import { type Static, Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';
import { defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { PlantId, PROPAGATION_TYPES, StringEnum } from './plants.js';

/** Run states of a background agent. */
export const AGENT_STATES = ['stopped', 'running', 'paused'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

/** Every control action of a background agent; each agent accepts a subset (see `agentTransition` in the host). */
export const AGENT_ACTIONS = ['start', 'stop', 'pause', 'resume', 'run'] as const;
export type AgentAction = (typeof AGENT_ACTIONS)[number];

/** Control actions of the lineage agent. */
export const LINEAGE_AGENT_ACTIONS = ['start', 'stop', 'pause', 'resume'] as const;
export type LineageAgentAction = (typeof LINEAGE_AGENT_ACTIONS)[number];

/** Counts per propagation type; every type is present, zero when unused. */
export const PropagationMix = Type.Object(
  Object.fromEntries(PROPAGATION_TYPES.map((t) => [t, Type.Integer({ minimum: 0 })])) as Record<
    (typeof PROPAGATION_TYPES)[number],
    ReturnType<typeof Type.Integer>
  >,
);

export const LineageNetworkStats = Type.Object({
  totalPlants: Type.Integer({ minimum: 0 }),
  rootPlants: Type.Integer({ minimum: 0, description: 'Plants without a parent (registered, not propagated)' }),
  propagatedPlants: Type.Integer({ minimum: 0 }),
  maxGeneration: Type.Integer({ minimum: 0 }),
  propagationMix: PropagationMix,
});
export type LineageNetworkStats = Static<typeof LineageNetworkStats>;

export const LineageAgentStatus = Type.Object({
  agent: Type.Literal('lineage'),
  state: StringEnum(AGENT_STATES),
  since: Timestamp,
  allowedActions: Type.Array(StringEnum(LINEAGE_AGENT_ACTIONS), { description: 'Actions accepted in this state' }),
  intervalSeconds: Type.Number({ description: 'Time between two scans while running' }),
  runs: Type.Integer({ minimum: 0, description: 'Scans completed since the agent was last started' }),
  lastRunAt: Type.Union([Timestamp, Type.Null()], { description: 'End of the last completed scan' }),
  lastRunDurationMs: Type.Union([Type.Integer(), Type.Null()]),
  anomaliesFound: Type.Integer({ minimum: 0, description: 'Anomalies found by the last completed scan' }),
  network: LineageNetworkStats,
});
export type LineageAgentStatus = Static<typeof LineageAgentStatus>;

export const LineageAgentControl = Type.Object(
  {
    action: StringEnum(LINEAGE_AGENT_ACTIONS, {
      description: 'start (stopped → running), pause (running → paused), resume (paused → running), stop (→ stopped)',
    }),
  },
  { additionalProperties: false },
);

export const LineageAnalysis = Type.Object({
  plantId: PlantId,
  generation: Type.Integer({ minimum: 0 }),
  rootId: Type.Union([PlantId, Type.Null()], { description: 'Root of the lineage; null if it lies beyond the walk' }),
  ancestorCount: Type.Integer({ minimum: 0 }),
  descendantCount: Type.Integer({ minimum: 0 }),
  deepestGeneration: Type.Integer({
    minimum: 0,
    description: 'Highest generation among the plant and its descendants',
  }),
  propagationMix: PropagationMix,
  geographicSpread: Type.Object({
    locatedPlants: Type.Integer({ minimum: 0, description: 'The plant and descendants with a disclosed location' }),
    countries: Type.Array(Type.String()),
    maxDistanceKm: Type.Union([Type.Number(), Type.Null()], {
      description: 'Farthest located descendant from the plant; null when the plant is hidden or alone',
    }),
    boundingBox: Type.Union([
      Type.Object({
        minLatitude: Type.Number(),
        maxLatitude: Type.Number(),
        minLongitude: Type.Number(),
        maxLongitude: Type.Number(),
      }),
      Type.Null(),
    ]),
  }),
  truncated: Type.Boolean({ description: 'The descendants analysed were capped' }),
});
export type LineageAnalysis = Static<typeof LineageAnalysis>;

/** Kinds of lineage anomaly the agent looks for. */
export const ANOMALY_KINDS = [
  'child-before-parent',
  'generation-jump',
  'distant-offspring',
  'orphaned-parent',
] as const;
export type AnomalyKind = (typeof ANOMALY_KINDS)[number];

export const LineageAnomaly = Named(
  'LineageAnomaly',
  Type.Object({
    kind: StringEnum(ANOMALY_KINDS, {
      description:
        'child-before-parent (registered before its parent), generation-jump (generation is not the parent’s + 1, ' +
        'or a plant without parent is not generation 0), distant-offspring (farther from its parent than the ' +
        'documented threshold), orphaned-parent (its parent id names no plant)',
    }),
    plantIds: Type.Array(PlantId, { description: 'The plant first, then its parent when it exists' }),
    reason: Type.String(),
    detectedAt: Timestamp,
  }),
);
export type LineageAnomaly = Static<typeof LineageAnomaly>;

export const AnomalyQuery = Type.Object({
  kind: Type.Optional(StringEnum(ANOMALY_KINDS, { description: 'Only anomalies of this kind' })),
  ...PageQuery.properties,
});

export const lineageAgentGet = defineSubject({
  subject: 'plants.lineage-agent.get',
  request: Type.Object({}),
  reply: LineageAgentStatus,
  summary: 'State of the lineage agent and network statistics',
});

export const lineageAgentControl = defineSubject({
  subject: 'plants.lineage-agent.control',
  request: LineageAgentControl,
  reply: LineageAgentStatus,
  summary: 'Start, stop, pause or resume the lineage agent',
});

export const lineageAgentAnalyse = defineSubject({
  subject: 'plants.lineage-agent.analyse',
  request: Type.Object({ plantId: PlantId }),
  reply: LineageAnalysis,
  summary: 'Lineage analysis of one plant',
});

export const lineageAnomalyList = defineSubject({
  subject: 'plants.lineage-anomaly.list',
  request: AnomalyQuery,
  reply: Type.Object({ items: Type.Array(LineageAnomaly), pagination: Pagination }),
  summary: 'Lineage anomalies found by the last scan',
});
