import { ErrorAlert } from '../../../components/status';
import { formatDateTime } from '../../../lib/format';
import { ADMIN } from '../strings';

const S = ADMIN.agents;

/** What both agents report about themselves. */
export interface AgentStatusView {
  state: string;
  since: string;
  allowedActions: readonly string[];
  intervalSeconds: number;
  runs: number;
  lastRunAt: string | null;
  lastRunDurationMs: number | null;
  nextRunAt?: string | null;
}

/**
 * An agent's state and schedule, with a button for each action its state allows. The state is a live region:
 * a person using a screen reader hears it change after pressing a button.
 */
export function AgentStatus({
  name,
  status,
  onAction,
  busy,
  error,
}: {
  name: string;
  status: AgentStatusView;
  onAction: (action: string) => void;
  busy: boolean;
  error: unknown;
}) {
  const state = S.states[status.state] ?? status.state;
  return (
    <>
      <p aria-live="polite">
        {S.state}: <strong className={status.state === 'running' ? 'badge' : 'badge idle'}>{state}</strong>{' '}
        <span className="muted">
          {S.since} {formatDateTime(status.since)}
        </span>
      </p>
      <dl className="facts">
        <dt>{S.interval}</dt>
        <dd>{S.seconds(status.intervalSeconds)}</dd>
        <dt>{S.runs}</dt>
        <dd>{status.runs}</dd>
        <dt>{S.lastRun}</dt>
        <dd>
          {status.lastRunAt ? formatDateTime(status.lastRunAt) : S.never}
          {status.lastRunDurationMs !== null && (
            <span className="muted"> ({S.duration(status.lastRunDurationMs)})</span>
          )}
        </dd>
        {status.nextRunAt !== undefined && (
          <>
            <dt>{S.nextRun}</dt>
            <dd>{status.nextRunAt ? formatDateTime(status.nextRunAt) : '—'}</dd>
          </>
        )}
      </dl>
      <div className="actions agent-actions">
        {status.allowedActions.map((action) => (
          <button
            key={action}
            type="button"
            className={action === 'stop' ? 'danger' : action === 'start' ? undefined : 'secondary'}
            aria-label={S.actionFor(S.actions[action] ?? action, name)}
            disabled={busy}
            onClick={() => onAction(action)}
          >
            {S.actions[action] ?? action}
          </button>
        ))}
      </div>
      <p className="hint">{S.onlyPossible(state)}</p>
      <ErrorAlert error={error} />
    </>
  );
}
