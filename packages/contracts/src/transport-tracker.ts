import { type Static, Type } from '@sinclair/typebox';
import { AGENT_STATES } from './agents.js';
import { Timestamp } from './common.js';
import { defineSubject } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { StringEnum } from './plants.js';

/** Control actions of the transport tracker: the shared agent actions, `run` included. */
export const TRANSPORT_TRACKER_ACTIONS = ['start', 'stop', 'run', 'pause', 'resume'] as const;
export type TransportTrackerAction = (typeof TRANSPORT_TRACKER_ACTIONS)[number];

export const TrackerStatus = Type.Object({
  agent: Type.Literal('transport-tracker'),
  state: StringEnum(AGENT_STATES),
  since: Timestamp,
  allowedActions: Type.Array(StringEnum(TRANSPORT_TRACKER_ACTIONS), { description: 'Actions accepted in this state' }),
  intervalSeconds: Type.Number({ description: 'Time between two cycles while running' }),
  runs: Type.Integer({ minimum: 0, description: 'Cycles completed since the agent was created' }),
  lastRunAt: Type.Union([Timestamp, Type.Null()], { description: 'End of the last completed cycle' }),
  lastRunDurationMs: Type.Union([Type.Integer(), Type.Null()]),
  nextRunAt: Type.Union([Timestamp, Type.Null()], { description: 'Next scheduled cycle; null unless running' }),
  counts: Type.Object({
    eventsScanned: Type.Integer({ minimum: 0, description: 'Events read by the last cycle' }),
    patternsFound: Type.Integer({ minimum: 0, description: 'Inefficiencies found by the last cycle' }),
    events: Type.Integer({ minimum: 0, description: 'Journey events recorded now' }),
  }),
});
export type TrackerStatus = Static<typeof TrackerStatus>;

export const TrackerControl = Type.Object(
  {
    action: StringEnum(TRANSPORT_TRACKER_ACTIONS, {
      description:
        'start (stopped → running, cycle now), stop (→ stopped), run (one cycle now, state unchanged), pause ' +
        '(running → paused), resume (paused → running)',
    }),
  },
  { additionalProperties: false },
);

export const EFFICIENCY_RATINGS = ['A', 'B', 'C', 'D', 'E'] as const;

export const UserTransportAnalytics = Type.Object({
  userId: Type.String(),
  events: Type.Integer({ minimum: 0 }),
  distanceKm: Type.Number(),
  kgCo2e: Type.Number(),
  deliveredKg: Type.Number({ description: 'Mass of the user’s distribution events' }),
  baselineKgCo2e: Type.Number({ description: 'The same mass delivered conventionally' }),
  efficiencyScore: Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()], {
    description: '100 × (1 − delivery kg CO2e ÷ baseline kg CO2e), clamped to 0–100; null without deliveries',
  }),
  rating: Type.Union([StringEnum(EFFICIENCY_RATINGS), Type.Null()], {
    description: 'A ≥ 80, B ≥ 60, C ≥ 40, D ≥ 20, E below',
  }),
});
export type UserTransportAnalytics = Static<typeof UserTransportAnalytics>;

export const TrackerAnalytics = Type.Object({
  network: Type.Object({
    events: Type.Integer({ minimum: 0 }),
    users: Type.Integer({ minimum: 0 }),
    plants: Type.Integer({ minimum: 0 }),
    seedLots: Type.Integer({ minimum: 0 }),
    distanceKm: Type.Number(),
    kgCo2e: Type.Number(),
    byMode: Type.Record(Type.String(), Type.Object({ events: Type.Integer(), kgCo2e: Type.Number() })),
  }),
  users: Type.Array(UserTransportAnalytics, {
    description:
      'For an ADMIN, the 100 users with the most events, most first; for anyone else only their own entry (none ' +
      'without events): other users count only in `network`',
  }),
});
export type TrackerAnalytics = Static<typeof TrackerAnalytics>;

export const PATTERN_KINDS = ['high-carbon', 'cold-chain-break', 'long-detour', 'empty-run'] as const;
export type PatternKind = (typeof PATTERN_KINDS)[number];

export const TransportPattern = Type.Object({
  kind: StringEnum(PATTERN_KINDS, {
    description:
      'high-carbon (over 5 × a diesel HGV’s kg CO2e per tonne-km for an event of ≥ 0.1 kg CO2e, or ≥ 1 kg ' +
      'CO2e with no mass), ' +
      'cold-chain-break (a temperature reading above 8 °C), long-detour (distance over 1.5 × the straight line + ' +
      '5 km), empty-run (a car or van trip with no load)',
  }),
  eventId: Type.String(),
  userId: Type.String(),
  plantId: Type.Union([Type.String(), Type.Null()]),
  kgCo2e: Type.Number(),
  reason: Type.String(),
  detectedAt: Timestamp,
});
export type TransportPattern = Static<typeof TransportPattern>;

export const PatternQuery = Type.Object({
  kind: Type.Optional(StringEnum(PATTERN_KINDS, { description: 'Only patterns of this kind' })),
  ...PageQuery.properties,
});

export const TrackerSavings = Type.Object({
  deliveredKg: Type.Number(),
  actualKgCo2e: Type.Number({ description: 'Emissions of the distribution events' }),
  baselineKgCo2e: Type.Number({ description: 'The same mass over conventional logistics' }),
  savedKgCo2e: Type.Number(),
  method: Type.String(),
  equivalents: Type.Object({
    carKm: Type.Number({ description: 'Average-car km emitting the saved amount' }),
    treeYears: Type.Number({ description: 'Years of one urban tree’s uptake' }),
  }),
  factors: Type.Array(
    Type.Object({ name: Type.String(), value: Type.Number(), unit: Type.String(), source: Type.String() }),
  ),
});
export type TrackerSavings = Static<typeof TrackerSavings>;

export const trackerGet = defineSubject({
  subject: 'transport.tracker.get',
  request: Type.Object({}),
  reply: TrackerStatus,
  summary: 'State of the transport tracker',
});

export const trackerControl = defineSubject({
  subject: 'transport.tracker.control',
  request: TrackerControl,
  reply: TrackerStatus,
  summary: 'Start, stop, run, pause or resume the transport tracker',
});

export const trackerAnalytics = defineSubject({
  subject: 'transport.tracker.analytics',
  request: Type.Object({}),
  reply: TrackerAnalytics,
  summary: 'Network transport statistics and per-user efficiency',
});

export const trackerPatternList = defineSubject({
  subject: 'transport.tracker-pattern.list',
  request: PatternQuery,
  reply: Type.Object({
    items: Type.Array(TransportPattern, {
      description: 'For an ADMIN every finding; for anyone else only those of their own events',
    }),
    pagination: Pagination,
  }),
  summary: 'Inefficiencies found by the last cycle',
});

export const trackerSavings = defineSubject({
  subject: 'transport.tracker.savings',
  request: Type.Object({}),
  reply: TrackerSavings,
  summary: 'Carbon saved against conventional logistics, with equivalents',
});
