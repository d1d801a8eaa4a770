import { emailVerificationRequested } from '@rootline/contracts';
import { type ServiceContext, subscribe } from '@rootline/host';
import { saveRecipient } from '../db/recipients.repo.js';
import { notifyUser } from './dispatch.js';

/**
 * A verification link to send. The event names the link, never its secret (ADR 034): the sender asks the gateway
 * for the secret when it sends, so only the delivery row (template and link id) is recorded here.
 */
export const onEmailVerificationRequested = (ctx: ServiceContext) =>
  subscribe(emailVerificationRequested, 'email-verification-requested', async (p, meta) => {
    await saveRecipient(meta.tx, {
      userId: p.userId,
      email: p.email,
      name: p.name,
      locale: p.locale,
      updatedAt: meta.occurredAt,
    });
    await notifyUser(ctx, meta, p.userId, { name: 'verify-email', params: { linkId: p.linkId } }, {});
  });
