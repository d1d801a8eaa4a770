import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  PAGE_DEFAULTS,
  TransportPattern,
  trackerAnalytics,
  trackerControl,
  trackerGet,
  trackerPatternList,
  trackerSavings,
} from '@rootline/contracts';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';

const TAGS = ['Agents'];

const STATE_MACHINE =
  'The agents share one state machine; the tracker starts `stopped`. Moves:\n\n' +
  '| state | start | pause | resume | stop | run |\n| --- | --- | --- | --- | --- | --- |\n' +
  '| stopped | → running | – | – | – | one cycle, stays stopped |\n' +
  '| running | – | → paused | – | → stopped | one cycle, stays running |\n' +
  '| paused | – | – | → running | → stopped | one cycle, stays paused |\n\n' +
  'While running it scans every journey event once per interval; `start` scans at once; `pause` keeps the ' +
  'schedule and counters but skips cycles; `resume` scans at once if a cycle fell due meanwhile; `run` does one ' +
  'cycle now and answers when it is done. A move the table does not allow is 409 CONFLICT, whose `details` give ' +
  'the current `state` and the `allowedActions`; an unknown action is 400 VALIDATION_ERROR naming `body/action`.';

/** The transport tracker under /api/agents/transport-tracker; it is hosted by the transport service. */
export const transportTrackerRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'GET',
    url: '/transport-tracker',
    summary: 'Transport tracker status',
    description: `State, allowed actions, schedule, last run and counts of the transport tracker.\n\n${STATE_MACHINE}`,
    tags: TAGS,
    policy: { permission: 'agents:read', object: { rule: 'none', why: 'the agent’s own state' } },
    subject: trackerGet,
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/transport-tracker',
    summary: 'Control the transport tracker',
    description: `Applies one action and answers the new status.\n\n${STATE_MACHINE}`,
    tags: TAGS,
    policy: { permission: 'agents:control', object: { rule: 'none', why: 'the agent’s own state' } },
    subject: trackerControl,
    errors: ['CONFLICT'],
    example: { action: 'run' },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/transport-tracker/analytics',
    summary: 'Transport analytics',
    description:
      'Network statistics of the journey events in force (corrected events replaced by their corrections): events, ' +
      'users, plants, seed lots, distance, kg CO2e and per mode; and per user (for an ADMIN the 100 users with most ' +
      'events; for anyone else only their own entry, other users counting only in the network figures) their ' +
      'totals, delivered mass, its conventional baseline, and an efficiency score = 100 × (1 − kg CO2e of their ' +
      'distribution events ÷ baseline), clamped to 0–100, rated A (≥ 80), B (≥ 60), C (≥ 40), D (≥ 20) or E. ' +
      'Computed at request time, whatever the tracker’s state.',
    tags: TAGS,
    policy: {
      permission: 'agents:read',
      object: { rule: 'none', why: 'aggregates; per-user figures only the caller’s own' },
    },
    subject: trackerAnalytics,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/transport-tracker/patterns',
    summary: 'Transport inefficiencies',
    description:
      'Findings of the last completed cycle, in the order found, optionally of one `kind`; an ADMIN reads every ' +
      'finding, anyone else only those of their own events. Kinds: high-carbon (over 5 × a ' +
      'diesel HGV’s 0.10163 kg CO2e per tonne-km, for an event of at least 0.1 kg CO2e; or ≥ 1 kg CO2e with no mass ' +
      'recorded), cold-chain-break (a sensor ' +
      'reading above 8 °C), long-detour (distance over 1.5 × the straight line between the stored end points + 5 ' +
      'km), empty-run (a car or van trip with no load). Empty until the tracker has run once. ' +
      `\`page\` from 1; \`limit\` default ${PAGE_DEFAULTS.limit}, at most ${PAGE_DEFAULTS.maxLimit}.`,
    tags: TAGS,
    policy: {
      permission: 'agents:read',
      object: { rule: 'none', why: 'aggregates; per-user figures only the caller’s own' },
    },
    subject: trackerPatternList,
    page: { item: TransportPattern },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/transport-tracker/savings',
    summary: 'Carbon savings',
    description:
      'kg CO2e of all distribution events against the same mass delivered by conventional logistics (1,640 km by ' +
      'diesel HGV), the saving, and its equivalents in average-car km and urban-tree years, with each factor and ' +
      'its source.',
    tags: TAGS,
    policy: {
      permission: 'agents:read',
      object: { rule: 'none', why: 'aggregates; per-user figures only the caller’s own' },
    },
    subject: trackerSavings,
  });
};
