import type { AgentAction, AgentState } from '@rootline/contracts/agents';

/**
 * The one state machine of Rootline's background agents (lineage agent, transport tracker). An agent starts
 * `stopped`; each agent accepts a subset of the actions (the lineage agent has no `run`).
 *
 * | state   | start   | pause  | resume  | stop    | run                  |
 * | ------- | ------- | ------ | ------- | ------- | -------------------- |
 * | stopped | running | –      | –       | –       | stopped, cycle now   |
 * | running | –       | paused | –       | stopped | running, cycle now   |
 * | paused  | –       | –      | running | stopped | paused, cycle now    |
 *
 * While running the agent works once per interval (start works at once); paused keeps its schedule and counters
 * but skips cycles; stopped works not at all. `run` does one cycle at once whatever the state, and leaves the state.
 */
const TRANSITIONS: Record<AgentState, Partial<Record<AgentAction, AgentState>>> = {
  stopped: { start: 'running', run: 'stopped' },
  running: { pause: 'paused', stop: 'stopped', run: 'running' },
  paused: { resume: 'running', stop: 'stopped', run: 'paused' },
};

/** The actions an agent accepting `accepted` allows in a state, in the table's order. */
export function allowedAgentActions<A extends AgentAction>(state: AgentState, accepted: readonly A[]): A[] {
  return (Object.keys(TRANSITIONS[state]) as A[]).filter((a) => accepted.includes(a));
}

/** A move of the state machine: the state it leads to (and whether it asks for a cycle now), or why it is refused. */
export type AgentMove = { ok: true; state: AgentState; cycleNow: boolean } | { ok: false; message: string };

/**
 * The state `action` leads `agent` (its name in messages, e.g. "lineage agent") to, for an agent accepting
 * `accepted`, or why it is refused, naming the allowed actions.
 */
export function agentTransition<A extends AgentAction>(
  agent: string,
  state: AgentState,
  action: A,
  accepted: readonly A[],
): AgentMove {
  const next = accepted.includes(action) ? TRANSITIONS[state][action] : undefined;
  if (next) return { ok: true, state: next, cycleNow: action === 'run' || action === 'start' };
  const allowed = allowedAgentActions(state, accepted);
  return { ok: false, message: `Cannot ${action} the ${agent} while it is ${state}; allowed: ${allowed.join(', ')}` };
}

/** True when a scheduled cycle should run now: the agent is running and its next cycle is due. */
export function isAgentCycleDue(state: AgentState, nextRunAt: Date, now: Date): boolean {
  return state === 'running' && nextRunAt.getTime() <= now.getTime();
}
