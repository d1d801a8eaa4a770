import { useEffect } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../auth/api/session';
import { flushOutbox, SYNC_MESSAGE, setOutboxAccount } from '../api/outbox';
import { useOutboxAccount, useOutboxItems } from '../api/use-outbox';
import { counts } from '../lib/order';
import { OUTBOX } from '../strings';
import '../outbox.css';

/** How often waiting writes are tried again while the tab is open. */
const RETRY_EVERY_MS = 10_000;

/**
 * The header's count of writes waiting on this device (a link to the outbox), and what sends them: at start, on the
 * `online` event, on a service worker's `{ type: 'outbox-sync' }` message and every few seconds while some wait. Only
 * the signed-in account's writes are counted and sent.
 */
export function OutboxStatus() {
  const { account, confirmed } = useOutboxAccount();
  const items = useOutboxItems(account);
  const { waiting, refused } = counts(items, account ?? '');
  const { refetch } = useSession();
  const sender = confirmed ? account : null;

  useEffect(() => {
    setOutboxAccount(sender);
    if (!sender) return;
    const run = () => void flushOutbox();
    const onMessage = (e: MessageEvent) => {
      if ((e.data as { type?: unknown } | null)?.type === SYNC_MESSAGE) run();
    };
    run();
    window.addEventListener('online', run);
    navigator.serviceWorker?.addEventListener('message', onMessage);
    return () => {
      setOutboxAccount(null);
      window.removeEventListener('online', run);
      navigator.serviceWorker?.removeEventListener('message', onMessage);
    };
  }, [sender]);

  useEffect(() => {
    if (!account || waiting === 0) return;
    // With the session not yet confirmed (it was checked while offline), it is asked again first.
    const timer = setInterval(() => void (confirmed ? flushOutbox() : refetch()), RETRY_EVERY_MS);
    return () => clearInterval(timer);
  }, [account, waiting, confirmed, refetch]);

  if (!account || waiting + refused === 0) return null;
  return (
    <Link to="/outbox" className={refused > 0 ? 'outbox-status outbox-status--refused' : 'outbox-status'}>
      {OUTBOX.nav(waiting, refused)}
    </Link>
  );
}
