import { useEffect, useState } from 'react';
import { useSession } from '../../auth/api/session';
import { inOrder, type OutboxItem } from '../lib/order';
import { itemsOf, onOutboxChange } from './store';

/** Where the last signed-in account is remembered, to show its outbox while Rootline cannot be reached. */
const REMEMBERED = 'rootline:outbox-account';

function remembered(): string | null {
  try {
    return localStorage.getItem(REMEMBERED);
  } catch {
    return null;
  }
}

/**
 * The account whose outbox this tab shows: the signed-in one (`confirmed` when the API said so, not when the identity
 * kept on the device stands in), or, while the session cannot be checked (offline), the last one signed in here. None when signed out: another person's writes are never shown.
 */
export function useOutboxAccount(): { account: string | null; confirmed: boolean; signedOut: boolean } {
  const session = useSession();
  const user = session.data;
  useEffect(() => {
    try {
      if (user) localStorage.setItem(REMEMBERED, user.id);
      else if (user === null) localStorage.removeItem(REMEMBERED);
    } catch {
      // Storage refused (private mode): the outbox shows once the session is known.
    }
  }, [user]);
  if (user) return { account: user.id, confirmed: !user.onDevice, signedOut: false };
  if (user === null) return { account: null, confirmed: false, signedOut: true };
  return { account: remembered(), confirmed: false, signedOut: false };
}

/** The account's kept writes, oldest first, read again whenever the outbox changes (in this tab or another). */
export function useOutboxItems(account: string | null): OutboxItem[] {
  const [items, setItems] = useState<OutboxItem[]>([]);
  useEffect(() => {
    if (!account) {
      setItems([]);
      return;
    }
    let live = true;
    const load = () =>
      itemsOf(account)
        .then((all) => live && setItems(inOrder(all, account)))
        .catch(() => live && setItems([]));
    void load();
    const stop = onOutboxChange(() => void load());
    return () => {
      live = false;
      stop();
    };
  }, [account]);
  return items;
}
