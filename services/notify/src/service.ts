import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ServiceContext, type ServiceModule, warnIfNoPublicUrl } from '@rootline/host';
import { createEmailSend } from './adapters/email/send.js';
import { fileTransport, type MailTransport, smtpTransport } from './adapters/email/transport.js';
import { createPushSender } from './adapters/push/send.js';
import { vapidKeys } from './adapters/push/vapid.js';
import { assertClusterSettings, NotifyConfig } from './config.js';
import { pushSubscriptionKeys } from './db/push.repo.js';
import { inbox, outbox } from './db/schema.js';
import {
  countUnread,
  listNotifications,
  markEveryRead,
  markOneRead,
  removeNotification,
} from './handlers/notifications.js';
import { getPreferences, unsubscribe, updatePreferences } from './handlers/preferences.js';
import { subscribePush, unsubscribePush, vapidPublicKey } from './handlers/push.js';
import { createDigestJob } from './jobs/digest.js';
import { createRecipientSync } from './jobs/recipients-sync.js';
import { createDeliverySender } from './jobs/sender.js';
import { onDemandMatched } from './subscribers/demand-matched.js';
import { onEmailVerificationRequested } from './subscribers/email-verification-requested.js';
import { onFarmAlerted } from './subscribers/farm-alerted.js';
import { onHarvestReady } from './subscribers/harvest-ready.js';
import { onOfferAccepted } from './subscribers/offer-accepted.js';
import { onOfferMade } from './subscribers/offer-made.js';
import { onOrganizationChanged, onOrganizationInvitationSent } from './subscribers/organization-changed.js';
import { onPasswordChanged } from './subscribers/password-changed.js';
import { onPasswordResetRequested } from './subscribers/password-reset-requested.js';
import { onPlantRegistered } from './subscribers/plant-registered.js';
import { onSeedLoanLent } from './subscribers/seed-loan-lent.js';
import { onTransferChanged } from './subscribers/transfer-changed.js';
import { onTransportCompleted } from './subscribers/transport-completed.js';
import { onUserLocaleChanged } from './subscribers/user-locale-changed.js';
import { onUserRegistered } from './subscribers/user-registered.js';
import { onWebhookDisabled } from './subscribers/webhook-disabled.js';

/**
 * The key of unsubscribe links: UNSUBSCRIBE_SECRET, else derived from JWT_SECRET (so embedded mode needs no
 * setting), else random for this process (links stop working at restart: the start-up log warns).
 */
function unsubscribeKey(ctx: ServiceContext<NotifyConfig>): Buffer {
  const { UNSUBSCRIBE_SECRET, JWT_SECRET } = ctx.config;
  if (UNSUBSCRIBE_SECRET) return Buffer.from(UNSUBSCRIBE_SECRET);
  if (JWT_SECRET) return createHmac('sha256', JWT_SECRET).update('notify unsubscribe links').digest();
  ctx.log.warn('neither UNSUBSCRIBE_SECRET nor JWT_SECRET is set: unsubscribe links stop working at restart');
  return randomBytes(32);
}

function mailTransport(ctx: ServiceContext<NotifyConfig>): MailTransport {
  const { SMTP_URL, MAIL_FROM, DATA_DIR, SOCKS_PROXY_URL } = ctx.config;
  return SMTP_URL
    ? smtpTransport(SMTP_URL, MAIL_FROM, SOCKS_PROXY_URL)
    : fileTransport(join(DATA_DIR, 'mail'), MAIL_FROM);
}

/**
 * notify: turns domain events into notifications (in-app, email, Web Push) according to each user's
 * preferences, and sends emails and pushes from background work with retries.
 */
export const service: ServiceModule<typeof NotifyConfig> = {
  name: 'notify',
  version: '0.2.0',
  config: NotifyConfig,
  db: {
    schema: 'notify',
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    outbox,
    inbox,
  },
  async create(ctx) {
    assertClusterSettings(ctx.config);
    warnIfNoPublicUrl(ctx.log, ctx.config.PUBLIC_URL, 'links in emails and pushes');
    const key = unsubscribeKey(ctx);
    const transport = mailTransport(ctx);
    const vapid = await vapidKeys(ctx.config, await pushSubscriptionKeys(ctx.db));
    const sender = createDeliverySender(ctx, {
      email: createEmailSend(ctx, transport, key),
      push: createPushSender(ctx, vapid),
    });
    const digest = createDigestJob(ctx, ctx.config.DIGEST_POLL_MS);
    const recipientSync = createRecipientSync(ctx, ctx.config.RECIPIENT_SYNC_RETRY_MS);
    return {
      handlers: [
        listNotifications(ctx),
        countUnread(ctx),
        markOneRead(ctx),
        markEveryRead(ctx),
        removeNotification(ctx),
        getPreferences(ctx),
        updatePreferences(ctx),
        unsubscribe(ctx, key),
        subscribePush(ctx, vapid.publicKey),
        unsubscribePush(ctx),
        vapidPublicKey(vapid.publicKey),
      ],
      subscribers: [
        onUserRegistered(ctx),
        onUserLocaleChanged(),
        onEmailVerificationRequested(ctx),
        onPasswordResetRequested(ctx),
        onPasswordChanged(ctx),
        onPlantRegistered(ctx),
        onDemandMatched(ctx),
        onOfferMade(ctx),
        onOfferAccepted(ctx),
        onWebhookDisabled(ctx),
        onTransportCompleted(ctx),
        onFarmAlerted(ctx),
        onHarvestReady(ctx),
        onOrganizationInvitationSent(ctx),
        ...onOrganizationChanged(ctx),
        ...onTransferChanged(ctx),
        onSeedLoanLent(ctx),
      ],
      async start() {
        sender.start();
        digest.start();
        recipientSync.start();
        ctx.log.info({ mail: transport.description }, `emails are sent to ${transport.description}`);
        ctx.log.info({ vapid: vapid.source }, `Web Push VAPID keys from ${vapid.source}`);
      },
      async stop() {
        await recipientSync.stop();
        await digest.stop();
        await sender.stop();
        transport.close();
      },
    };
  },
};
