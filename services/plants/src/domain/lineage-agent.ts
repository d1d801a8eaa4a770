import type { AgentState, LineageAgentAction } from '@rootline/contracts';

/**
 * The lineage agent's state machine. It starts `stopped`.
 *
 * | state   | start   | pause  | resume  | stop    |
 * | ------- | ------- | ------ | ------- | ------- |
 * | stopped | running | –      | –       | –       |
 * | running | –       | paused | –       | stopped |
 * | paused  | –       | –      | running | stopped |
 *
 * While running it scans the registry every interval (start scans at once and counts runs from zero); paused keeps
 * its schedule and counters but skips scans (resume scans at once if one fell due meanwhile); stopped scans nothing.
 * The last scan's findings stay readable in every state.
 */
const TRANSITIONS: Record<AgentState, Partial<Record<LineageAgentAction, AgentState>>> = {
  stopped: { start: 'running' },
  running: { pause: 'paused', stop: 'stopped' },
  paused: { resume: 'running', stop: 'stopped' },
};

/** Actions accepted in a state. */
export function allowedActions(state: AgentState): LineageAgentAction[] {
  return Object.keys(TRANSITIONS[state]) as LineageAgentAction[];
}

/** The state an action leads to, or why it is refused. */
export function transition(
  state: AgentState,
  action: LineageAgentAction,
): { ok: true; state: AgentState } | { ok: false; message: string } {
  const next = TRANSITIONS[state][action];
  if (next) return { ok: true, state: next };
  const allowed = allowedActions(state);
  return {
    ok: false,
    message: `Cannot ${action} the lineage agent while it is ${state}; allowed: ${allowed.join(', ')}`,
  };
}

/** True when the agent should scan now: it is running and its next scan is due. */
export function isScanDue(state: AgentState, nextRunAt: Date, now: Date): boolean {
  return state === 'running' && nextRunAt.getTime() <= now.getTime();
}
