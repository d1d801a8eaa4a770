import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Notification,
  notificationDelete,
  notificationList,
  notificationMarkAllRead,
  notificationMarkRead,
  notificationPreferencesGet,
  notificationPreferencesUpdate,
  notificationUnreadCount,
  notificationUnsubscribe,
  PAGE_DEFAULTS,
  PushSubscriptionInput,
  pushPublicKey,
  pushSubscribe,
  pushUnsubscribe,
} from '@rootline/contracts';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';

const TAGS = ['Notifications'];
const READ = { permission: 'notifications:read' } as const;
const WRITE = { permission: 'notifications:write' } as const;
const PAGING = `\`page\` from 1 (default ${PAGE_DEFAULTS.page}); \`limit\` default ${PAGE_DEFAULTS.limit}, at most ${PAGE_DEFAULTS.maxLimit}.`;
const OWN = 'Only the caller’s own notifications: another user’s is 404 NOT_FOUND (an ADMIN may act on any by its id).';

/** In-app notifications, preferences and email unsubscribe links under /api/notifications. */
export const notificationRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  // Mail clients send the RFC 8058 one-click unsubscribe as a form POST; the token is in the address, the form
  // body (`List-Unsubscribe=One-Click`) says nothing more. Only this plugin accepts forms.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) =>
    done(null, undefined),
  );

  busRoute(app, deps, {
    method: 'GET',
    url: '',
    summary: 'List notifications',
    description: `The caller’s in-app notifications, newest first; \`unread=true\` for the unread ones only. ${PAGING}`,
    tags: TAGS,
    policy: { ...READ, object: { rule: 'own' } },
    subject: notificationList,
    page: { item: Notification },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/unread-count',
    summary: 'Count unread notifications',
    tags: TAGS,
    policy: { ...READ, object: { rule: 'own' } },
    subject: notificationUnreadCount,
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/:notificationId/read',
    summary: 'Mark a notification read',
    description: `Keeps the time it was first read. ${OWN}`,
    tags: TAGS,
    policy: {
      ...WRITE,
      object: { rule: 'owner', field: 'notificationId', record: 'notification', why: 'its recipient' },
    },
    subject: notificationMarkRead,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/read-all',
    summary: 'Mark all notifications read',
    description: 'Answers how many were unread.',
    tags: TAGS,
    policy: { ...WRITE, object: { rule: 'own' } },
    subject: notificationMarkAllRead,
  });

  busRoute(app, deps, {
    method: 'DELETE',
    url: '/:notificationId',
    summary: 'Delete a notification',
    description: OWN,
    tags: TAGS,
    policy: {
      ...WRITE,
      object: { rule: 'owner', field: 'notificationId', record: 'notification', why: 'its recipient' },
    },
    subject: notificationDelete,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/preferences',
    summary: 'Read notification preferences',
    description:
      'Per type (welcome, plant-registered, transport-alert, farm-alert, harvest-ready, demand-match, ' +
      'marketplace, weekly-digest) and channel (email, push, in-app): on or off. Account emails (verification, ' +
      'password reset, password changed) are always sent and not listed.',
    tags: TAGS,
    policy: { ...READ, object: { rule: 'own' } },
    subject: notificationPreferencesGet,
  });

  busRoute(app, deps, {
    method: 'PATCH',
    url: '/preferences',
    summary: 'Change notification preferences',
    description: 'Only the types and channels named change; answers the whole set.',
    tags: TAGS,
    policy: { ...WRITE, object: { rule: 'own' } },
    subject: notificationPreferencesUpdate,
    example: { 'plant-registered': { email: true }, 'weekly-digest': { email: false } },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/push/public-key',
    summary: 'VAPID public key',
    description: 'The `applicationServerKey` a browser passes to `pushManager.subscribe()`.',
    tags: TAGS,
    policy: { ...READ, object: { rule: 'none', why: 'the platform’s push key' } },
    subject: pushPublicKey,
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/push/subscriptions',
    summary: 'Add a push subscription',
    description:
      'The body is the browser’s `PushSubscription.toJSON()`. The same endpoint again updates its keys. Pushes ' +
      'are encrypted for the subscription (aes128gcm, RFC 8291) and signed with VAPID (RFC 8292); a subscription ' +
      'its push service reports gone (404, 410) is removed.',
    tags: TAGS,
    policy: { ...WRITE, idempotent: true, object: { rule: 'own' } },
    subject: pushSubscribe,
    status: 201,
    example: PushSubscriptionInput.examples?.[0],
  });

  busRoute(app, deps, {
    method: 'DELETE',
    url: '/push/subscriptions/:subscriptionId',
    summary: 'Remove a push subscription',
    description: 'Only the caller’s own: another user’s is 404 NOT_FOUND (an ADMIN may remove any).',
    tags: TAGS,
    policy: { ...WRITE, object: { rule: 'owner', field: 'subscriptionId', record: 'push subscription' } },
    subject: pushUnsubscribe,
    errors: ['NOT_FOUND'],
  });

  for (const method of ['GET', 'POST'] as const) {
    busRoute(app, deps, {
      method,
      url: '/unsubscribe',
      operationId: method === 'GET' ? 'unsubscribeEmailByLink' : 'unsubscribeEmailOneClick',
      summary: method === 'GET' ? 'Unsubscribe from an email (link)' : 'Unsubscribe from an email (one-click)',
      description:
        'The link at the foot of each email: turns off that email type for its recipient, without signing in. ' +
        'The token is HMAC-signed by notify, so it cannot be made for someone else; a bad one is 400. POST is ' +
        'the RFC 8058 one-click form mail clients send (`List-Unsubscribe-Post`).',
      tags: TAGS,
      policy: { public: true, object: { rule: 'none', why: 'the signed token in the link names the recipient' } },
      subject: notificationUnsubscribe,
      ...(method === 'POST' ? { query: ['token'] as const } : {}),
    });
  }
};
