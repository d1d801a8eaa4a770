import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { type PeerCertificate, checkServerIdentity as tlsCheckServerIdentity } from 'node:tls';
import { outgoingAgent, publicUrlOf, type ServiceContext } from '@rootline/host';
import type webpushModule from 'web-push';
import type { NotifyConfig } from '../../config.js';
import type { DeliveryRow } from '../../db/deliveries.repo.js';
import { deletePushSubscription, userPushSubscriptions } from '../../db/push.repo.js';
import { findRecipient } from '../../db/recipients.repo.js';
import { render, type Template } from '../../domain/messages.js';
import type { VapidKeys } from './vapid.js';

/** web-push (with its JWT and ASN.1 modules) is loaded by the first push sent, not when the platform starts. */
let loading: Promise<typeof webpushModule> | undefined;
const webPush = () => {
  loading ??= import('web-push').then((m) => m.default);
  return loading;
};

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
  const agent = ca ? new Agent({ ...ca, keepAlive: true }) : undefined;
  // Through the SOCKS5 proxy when SOCKS_PROXY_URL is set (the extra CAs still apply inside the tunnel).
  const proxied = outgoingAgent(config.SOCKS_PROXY_URL, ca);
  return async function sendPush(d: DeliveryRow): Promise<void> {
    const locale = (await findRecipient(ctx.db, d.userId))?.locale;
    const m = render({ name: d.template, params: d.params } as Template, undefined, locale);
    const payload = JSON.stringify({
      id: d.id,
      type: d.type,
      title: m.title,
      body: m.body,
      url: m.link ? `${publicUrlOf({ publicUrl: d.publicUrl ?? undefined }, config.PUBLIC_URL)}${m.link}` : null,
    });
    const failures: string[] = [];
    const subscriptions = await userPushSubscriptions(ctx.db, d.userId);
    const webpush = subscriptions.length > 0 ? await webPush() : undefined;
    for (const s of subscriptions) {
      try {
        const subscription = { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } };
        const options = {
          vapidDetails: { subject: config.VAPID_SUBJECT, publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: TTL_SECONDS,
          ...(agent ? { agent } : {}),
        };
        if (proxied) await sendThrough(proxied, webpush!.generateRequestDetails(subscription, payload, options));
        else await webpush!.sendNotification(subscription, payload, options);
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

/**
 * Sends a push request web-push prepared (encrypted, VAPID-signed) through `agent`: web-push takes only an
 * `https.Agent` of its own, and a SOCKS agent is not one. A status outside 2xx rejects with `statusCode`, as
 * web-push's own errors do.
 */
function sendThrough(agent: Agent, d: ReturnType<typeof webpushModule.generateRequestDetails>): Promise<void> {
  return new Promise((resolve, reject) => {
    const host = new URL(d.endpoint).hostname.replace(/^\[|\]$/g, '');
    // The SOCKS agent drops `host` before TLS, so an IP-literal endpoint would be checked as "localhost".
    const checkServerIdentity = (_: string, cert: PeerCertificate) => tlsCheckServerIdentity(host, cert);
    const req = request(d.endpoint, { method: d.method, headers: d.headers, agent, checkServerIdentity }, (res) => {
      res.resume();
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve();
        else reject(Object.assign(new Error(`push service answered ${status}`), { statusCode: status }));
      });
    });
    req.on('error', reject);
    req.end(d.body ?? undefined);
  });
}
