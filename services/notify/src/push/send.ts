import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { outgoingAgent, type ServiceContext } from '@rootline/host';
import webpush from 'web-push';
import type { NotifyConfig } from '../config.js';
import type { DeliveryRow } from '../db/deliveries.repo.js';
import { deletePushSubscription, userPushSubscriptions } from '../db/push.repo.js';
import { render, type Template } from '../domain/messages.js';
import type { VapidKeys } from './vapid.js';

/** How long a push service keeps an undelivered message (a day: later it is stale). */
const TTL_SECONDS = 86_400;

/**
 * Sends a push delivery to every subscription of its user (encrypted aes128gcm, signed with VAPID). A
 * subscription the push service says is gone (404, 410) is removed; any other failure throws, so the delivery is
 * retried (subscriptions that already got it may get it again: push is at least once).
 */
export function createPushSender(ctx: ServiceContext<NotifyConfig>, keys: VapidKeys) {
  const { config } = ctx;
  const ca = config.PUSH_CA_FILE ? { ca: readFileSync(config.PUSH_CA_FILE) } : undefined;
  // Through the SOCKS5 proxy when SOCKS_PROXY_URL is set (the extra CAs still apply inside the tunnel).
  const agent = outgoingAgent(config.SOCKS_PROXY_URL, ca) ?? (ca ? new Agent({ ...ca, keepAlive: true }) : undefined);
  return async function sendPush(d: DeliveryRow): Promise<void> {
    const m = render({ name: d.template, params: d.params } as Template);
    const payload = JSON.stringify({
      id: d.id,
      type: d.type,
      title: m.title,
      body: m.body,
      url: m.link ? `${config.PUBLIC_URL}${m.link}` : null,
    });
    const failures: string[] = [];
    for (const s of await userPushSubscriptions(ctx.db, d.userId)) {
      try {
        await webpush.sendNotification({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, payload, {
          vapidDetails: { subject: config.VAPID_SUBJECT, publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: TTL_SECONDS,
          ...(agent ? { agent } : {}),
        });
      } catch (err) {
        const status = (err as { statusCode?: number }).statusCode;
        if (status === 404 || status === 410) {
          await deletePushSubscription(ctx.db, s.id);
          ctx.log.info({ subscriptionId: s.id, status }, 'push subscription expired; removed');
        } else {
          failures.push(`${s.id}: ${status ?? ''} ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    }
    if (failures.length > 0) throw new Error(`push failed for ${failures.join('; ')}`);
  };
}
