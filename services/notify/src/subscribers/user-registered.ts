import { userRegistered } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { saveRecipient } from '../db/recipients.repo.js';
import { notifyUser } from './dispatch.js';

/** A new account: remember where to write, and welcome it. */
export const onUserRegistered = (ctx: ServiceContext) =>
  subscribe(userRegistered, 'user-registered', async (p, meta) => {
    await saveRecipient(meta.tx, {
      userId: p.userId,
      email: p.email,
      name: p.name,
      locale: p.locale,
      updatedAt: p.registeredAt,
    });
    await notifyUser(ctx, meta, p.userId, { name: 'welcome', params: {} }, {});
  });
