import { AGENT_ACTIONS, AGENT_STATES } from '@rootline/contracts/agents';
import { describe, expect, it } from 'vitest';
import { agentTransition, allowedAgentActions, isAgentCycleDue } from './agent-control.js';

describe('agent state machine', () => {
  it('allows exactly the documented moves', () => {
    const table = Object.fromEntries(
      AGENT_STATES.map((s) => [
        s,
        Object.fromEntries(
          AGENT_ACTIONS.map((a) => {
            const t = agentTransition('agent', s, a, AGENT_ACTIONS);
            return [a, t.ok ? t.state : null];
          }),
        ),
      ]),
    );
    expect(table).toEqual({
      stopped: { start: 'running', pause: null, resume: null, stop: null, run: 'stopped' },
      running: { start: null, pause: 'paused', resume: null, stop: 'stopped', run: 'running' },
      paused: { start: null, pause: null, resume: 'running', stop: 'stopped', run: 'paused' },
    });
  });

  it('asks for a cycle now on start and run only', () => {
    expect(agentTransition('agent', 'paused', 'run', AGENT_ACTIONS)).toEqual({
      ok: true,
      state: 'paused',
      cycleNow: true,
    });
    expect(agentTransition('agent', 'paused', 'resume', AGENT_ACTIONS)).toMatchObject({ cycleNow: false });
  });

  it('refuses an action the agent does not accept, naming what it allows', () => {
    const accepted = ['start', 'stop', 'pause', 'resume'] as const;
    expect(agentTransition('lineage agent', 'stopped', 'run', accepted)).toEqual({
      ok: false,
      message: 'Cannot run the lineage agent while it is stopped; allowed: start',
    });
    expect(allowedAgentActions('running', AGENT_ACTIONS)).toEqual(['pause', 'stop', 'run']);
  });

  it('is due only while running', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(isAgentCycleDue('running', now, now)).toBe(true);
    expect(isAgentCycleDue('paused', now, now)).toBe(false);
  });
});
