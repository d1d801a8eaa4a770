import { AGENT_STATES, LINEAGE_AGENT_ACTIONS } from '@rootline/contracts/agents';
import { describe, expect, it } from 'vitest';
import { allowedActions, isScanDue, transition } from './lineage-agent.js';

describe('lineage agent state machine', () => {
  it('allows exactly the documented moves', () => {
    const table = Object.fromEntries(
      AGENT_STATES.map((s) => [
        s,
        Object.fromEntries(
          LINEAGE_AGENT_ACTIONS.map((a) => {
            const t = transition(s, a);
            return [a, t.ok ? t.state : null];
          }),
        ),
      ]),
    );
    expect(table).toEqual({
      stopped: { start: 'running', pause: null, resume: null, stop: null },
      running: { start: null, pause: 'paused', resume: null, stop: 'stopped' },
      paused: { start: null, pause: null, resume: 'running', stop: 'stopped' },
    });
  });

  it('explains a refused move with the allowed actions', () => {
    expect(transition('stopped', 'pause')).toEqual({
      ok: false,
      message: 'Cannot pause the lineage agent while it is stopped; allowed: start',
    });
    expect(allowedActions('paused')).toEqual(['resume', 'stop']);
  });

  it('scans only while running and once the next scan is due', () => {
    const now = new Date('2026-01-01T12:00:00Z');
    const past = new Date('2026-01-01T11:00:00Z');
    const future = new Date('2026-01-01T13:00:00Z');
    expect(isScanDue('running', past, now)).toBe(true);
    expect(isScanDue('running', now, now)).toBe(true);
    expect(isScanDue('running', future, now)).toBe(false);
    expect(isScanDue('paused', past, now)).toBe(false);
    expect(isScanDue('stopped', past, now)).toBe(false);
  });
});
