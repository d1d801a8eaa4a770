import { passwordResetRequested } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { saveRecipient } from '../db/recipients.repo.js';
import { notifyUser } from './dispatch.js';

/** A password-reset link to send; like a verification link, the event names the link and never its secret. */
export const onPasswordResetRequested = (ctx: ServiceContext) =>
  subscribe(passwordResetRequested, 'password-reset-requested', async (p, meta) => {
    await saveRecipient(meta.tx, {
      userId: p.userId,
      email: p.email,
      name: p.name,
      locale: p.locale,
      updatedAt: meta.occurredAt,
    });
    await notifyUser(ctx, meta, p.userId, { name: 'reset-password', params: { linkId: p.linkId } }, {});
  });
