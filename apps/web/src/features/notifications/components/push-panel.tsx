import { ErrorAlert, Loading } from '../../../components/status';
import { usePushState, useSubscribePush, useUnsubscribePush } from '../api/push';
import { NOTIFICATIONS_TEXT } from '../strings';

const S = NOTIFICATIONS_TEXT.push;

/** Turns Web Push on or off for this browser. */
export function PushPanel() {
  const state = usePushState();
  const subscribe = useSubscribePush();
  const unsubscribe = useUnsubscribePush();
  const busy = subscribe.isPending || unsubscribe.isPending;
  return (
    <section className="card" aria-labelledby="push-heading">
      <h2 id="push-heading">{S.title}</h2>
      <p className="hint">{S.lead}</p>
      {state.isPending ? (
        <Loading />
      ) : !state.data?.supported ? (
        <p>{S.unsupported}</p>
      ) : (
        <>
          <p role="status">{state.data.endpoint ? S.on : S.off}</p>
          {state.data.permission === 'denied' && <p className="alert alert-error">{S.blocked}</p>}
          <ErrorAlert error={subscribe.error ?? unsubscribe.error} />
          {state.data.endpoint ? (
            <button type="button" className="secondary" disabled={busy} onClick={() => unsubscribe.mutate()}>
              {busy ? S.busy : S.unsubscribe}
            </button>
          ) : (
            <button type="button" disabled={busy} onClick={() => subscribe.mutate()}>
              {busy ? S.busy : S.subscribe}
            </button>
          )}
        </>
      )}
    </section>
  );
}
