import { passwordChanged } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { notifyUser } from './dispatch.js';

/** Tells the owner their password changed, in case it was not them. */
export const onPasswordChanged = (ctx: ServiceContext) =>
  subscribe(passwordChanged, 'password-changed', async (p, meta) => {
    await notifyUser(ctx, meta, p.userId, { name: 'password-changed', params: {} }, {});
  });
