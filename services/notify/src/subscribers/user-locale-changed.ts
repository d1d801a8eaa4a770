import { userLocaleChanged } from '@rootline/contracts';
import { subscribe } from '@rootline/host';
import { setRecipientLocale } from '../db/recipients.repo.js';

/** An account's owner chose another language: later messages to them are written in it. */
export const onUserLocaleChanged = () =>
  subscribe(userLocaleChanged, 'user-locale-changed', async (p, meta) => {
    await setRecipientLocale(meta.tx, p.userId, p.locale);
  });
