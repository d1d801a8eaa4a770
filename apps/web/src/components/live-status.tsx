import { useLiveState } from '../lib/live';
import { COMMON } from '../lib/strings';

const S = COMMON.live;

/** A small badge saying whether the page updates live; silent while nobody is signed in. */
export function LiveStatus() {
  const state = useLiveState();
  if (state === 'off' || state === 'closed' || state === 'signed-out') return null;
  return (
    <span className={`live-status live-status-${state}`} title={S.title(state)}>
      <span className="live-dot" aria-hidden="true" />
      {S[state]}
    </span>
  );
}
