import { useLiveState } from '../lib/live';

const S = {
  live: 'Live',
  connecting: 'Connecting…',
  fallback: 'Live (stream)',
  offline: 'Reconnecting…',
  title: {
    live: 'Changes appear as they happen',
    connecting: 'Opening the live connection',
    fallback: 'Public events arrive by the event stream; refresh for notifications',
    offline: 'The live connection dropped: trying again',
  },
} as const;

/** A small badge saying whether the page updates live; silent while nobody is signed in. */
export function LiveStatus() {
  const state = useLiveState();
  if (state === 'off' || state === 'closed' || state === 'signed-out') return null;
  return (
    <span className={`live-status live-status-${state}`} title={S.title[state]}>
      <span className="live-dot" aria-hidden="true" />
      {S[state]}
    </span>
  );
}
