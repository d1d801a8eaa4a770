import { type AgentState, LINEAGE_AGENT_ACTIONS, type LineageAgentAction } from '@rootline/contracts/agents';
import { agentTransition, allowedAgentActions, isAgentCycleDue } from '@rootline/domain';

/**
 * The lineage agent on the agents' shared state machine (`agentTransition` in the host, documented there); it
 * accepts start, stop, pause and resume (no `run`). It starts `stopped`. While running it scans the registry every
 * interval (start scans at once and counts runs from zero); paused keeps its schedule and counters but skips scans
 * (resume scans at once if one fell due meanwhile); stopped scans nothing. The last scan's findings stay readable.
 */

/** Actions accepted in a state. */
export function allowedActions(state: AgentState): LineageAgentAction[] {
  return allowedAgentActions(state, LINEAGE_AGENT_ACTIONS);
}

/** The state an action leads to, or why it is refused. */
export function transition(
  state: AgentState,
  action: LineageAgentAction,
): { ok: true; state: AgentState } | { ok: false; message: string } {
  const move = agentTransition('lineage agent', state, action, LINEAGE_AGENT_ACTIONS);
  return move.ok ? { ok: true, state: move.state } : move;
}

/** True when the agent should scan now: it is running and its next scan is due. */
export const isScanDue = isAgentCycleDue;
