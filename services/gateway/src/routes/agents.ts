import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  LineageAnomaly,
  lineageAgentAnalyse,
  lineageAgentControl,
  lineageAgentGet,
  lineageAnomalyList,
  PAGE_DEFAULTS,
} from '@rootline/contracts';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';

const TAGS = ['Agents'];

const STATE_MACHINE =
  'The agent starts `stopped`. Moves:\n\n' +
  '| state | start | pause | resume | stop |\n| --- | --- | --- | --- | --- |\n' +
  '| stopped | → running | – | – | – |\n| running | – | → paused | – | → stopped |\n' +
  '| paused | – | – | → running | → stopped |\n\n' +
  'While running it scans every parent–child link once per interval; `start` scans at once and counts runs from ' +
  'zero; `pause` keeps the schedule and counters but skips scans; `resume` scans at once if one fell due ' +
  'meanwhile; `stop` ends scanning. The last scan’s findings stay readable in every state. A move the table does ' +
  'not allow is refused with 409 CONFLICT, whose `details` give the current `state` and the ' +
  '`allowedActions`; an unknown action is 400 VALIDATION_ERROR naming `body/action`.';

/** Background agents under /api/agents; the lineage agent is hosted by the plants service. */
export const agentRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'GET',
    url: '/lineage',
    summary: 'Lineage agent status',
    description:
      'State, allowed actions, scan schedule and last run of the lineage agent, with lineage-wide statistics: ' +
      `total, root and propagated plants, deepest generation, and plants per propagation type.\n\n${STATE_MACHINE}`,
    tags: TAGS,
    policy: { permission: 'agents:read', object: { rule: 'none', why: 'the agent’s own state' } },
    subject: lineageAgentGet,
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/lineage',
    summary: 'Control the lineage agent',
    description: `Applies one action and answers the new status.\n\n${STATE_MACHINE}`,
    tags: TAGS,
    policy: { permission: 'agents:control', object: { rule: 'none', why: 'the agent’s own state' } },
    subject: lineageAgentControl,
    example: { action: 'start' },
    errors: ['CONFLICT'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/lineage/anomalies',
    summary: 'Lineage anomalies',
    description:
      'Findings of the last completed scan, in the order found, optionally of one `kind`: child-before-parent (a ' +
      'plant registered before its parent), generation-jump (generation is not the parent’s + 1, or a plant ' +
      'without parent is not generation 0), distant-offspring (more than 1000 km from its parent, measured between ' +
      'disclosed locations), orphaned-parent (the parent id names no plant). Each names the plants involved (the ' +
      'plant, then its parent when it exists) and why. Empty until the agent has scanned once. ' +
      `\`page\` from 1; \`limit\` default ${PAGE_DEFAULTS.limit}, at most ${PAGE_DEFAULTS.maxLimit}.`,
    tags: TAGS,
    policy: { permission: 'agents:read', object: { rule: 'none', why: 'anomalies of public lineage' } },
    subject: lineageAnomalyList,
    page: { item: LineageAnomaly },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/lineage/:plantId',
    summary: 'Lineage analysis of a plant',
    description:
      'Ancestor and descendant counts, the root, the deepest generation below the plant, how its descendants were ' +
      'propagated, and their geographic spread over disclosed (possibly obfuscated) locations: located plants, ' +
      'countries, farthest distance from the plant and bounding box. At most 10,000 descendants are analysed ' +
      '(`truncated` says when there were more). Available whatever the agent’s state.',
    tags: TAGS,
    policy: { permission: 'agents:read', object: { rule: 'public', field: 'plantId', record: 'plant' } },
    subject: lineageAgentAnalyse,
    errors: ['NOT_FOUND'],
  });
};
