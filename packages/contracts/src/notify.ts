import { type Static, Type } from '@sinclair/typebox';
import { PrefixedId, Timestamp } from './common.js';
import { Defaulted, defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { StringEnum } from './plants.js';

/**
 * Kinds of notification: the spec's seven, plus `marketplace` (offers on one's listings and answers to one's
 * offers), `organization` (changes of members and invitations of organizations one owns or manages, or of one's own
 * membership) and `account` (verification, password reset and password-changed emails: always sent, by email only,
 * and not subject to preferences, since they protect the account).
 */
export const NOTIFICATION_TYPES = [
  'welcome',
  'plant-registered',
  'transport-alert',
  'farm-alert',
  'harvest-ready',
  'demand-match',
  'marketplace',
  'weekly-digest',
  'organization',
  'transfer',
  'account',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const NotificationTypeSchema = StringEnum(NOTIFICATION_TYPES, { description: 'Kind of notification' });

/** Types a user may switch on and off per channel (all but `account`). */
export const PREFERENCE_TYPES = NOTIFICATION_TYPES.filter((t) => t !== 'account') as Exclude<
  NotificationType,
  'account'
>[];
export type PreferenceType = (typeof PREFERENCE_TYPES)[number];

export const CHANNELS = ['email', 'push', 'in-app'] as const;
export type Channel = (typeof CHANNELS)[number];

export const NotificationId = PrefixedId('ntf', 'Notification identifier');

export const Notification = Named(
  'Notification',
  Type.Object({
    id: NotificationId,
    type: NotificationTypeSchema,
    title: Type.String(),
    body: Type.String(),
    link: Type.Union([Type.String(), Type.Null()], { description: 'Path of the page it is about, if any' }),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'Identifiers of what it is about' }),
    read: Type.Boolean(),
    readAt: Type.Union([Timestamp, Type.Null()]),
    createdAt: Timestamp,
  }),
);
export type Notification = Static<typeof Notification>;

/** One type's switches; every channel present in answers. */
const ChannelSwitches = Type.Object(
  {
    email: Type.Boolean(),
    push: Type.Boolean(),
    'in-app': Type.Boolean(),
  },
  { additionalProperties: false },
);
const ChannelChanges = Type.Partial(ChannelSwitches, { additionalProperties: false, minProperties: 1 });

export const NotificationPreferences = Named(
  'NotificationPreferences',
  Type.Object(
    Object.fromEntries(PREFERENCE_TYPES.map((t) => [t, ChannelSwitches])) as Record<
      PreferenceType,
      typeof ChannelSwitches
    >,
    { description: 'Per type, per channel: on or off' },
  ),
);
export type NotificationPreferences = Static<typeof NotificationPreferences>;

export const NotificationPreferencesInput = Type.Partial(
  Type.Object(
    Object.fromEntries(PREFERENCE_TYPES.map((t) => [t, ChannelChanges])) as Record<
      PreferenceType,
      typeof ChannelChanges
    >,
  ),
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ 'plant-registered': { email: true }, 'weekly-digest': { email: false, push: false } }],
  },
);
export type NotificationPreferencesInput = Static<typeof NotificationPreferencesInput>;

const ById = Type.Object({ notificationId: NotificationId });

/** The HMAC-signed token of an unsubscribe link: `<base64url payload>.<base64url signature>`. */
export const UnsubscribeToken = Type.String({
  pattern: '^[A-Za-z0-9_-]{8,400}\\.[A-Za-z0-9_-]{43}$',
  description: 'Token from the unsubscribe link of an email',
  examples: [
    'eyJ1IjoidXNyXzAxSFpYM0s2UTJXOE40QjdUNVI5VjBDMU1EIiwidCI6Im1hcmtldHBsYWNlLm9mZmVyIn0.q3Vx0cE2n8mJ5tqB7yW1hZ4sK9dF6gL0pR2uT8iA3oC',
  ],
});

export const notificationList = defineSubject({
  subject: 'notify.notification.list',
  request: Type.Object({
    ...PageQuery.properties,
    unread: Defaulted(Type.Boolean({ default: false, description: 'Only unread notifications' })),
  }),
  reply: Type.Object({ items: Type.Array(Notification), pagination: Pagination }),
  summary: "The caller's in-app notifications, newest first",
});
export const notificationUnreadCount = defineSubject({
  subject: 'notify.notification.unread-count',
  request: Type.Object({}),
  reply: Type.Object({ unread: Type.Integer({ minimum: 0 }) }),
  summary: "Number of the caller's unread notifications",
});
export const notificationMarkRead = defineSubject({
  subject: 'notify.notification.mark-read',
  request: ById,
  reply: Notification,
  summary: 'Mark one notification read',
});
export const notificationMarkAllRead = defineSubject({
  subject: 'notify.notification.mark-all-read',
  request: Type.Object({}),
  reply: Type.Object({ marked: Type.Integer({ minimum: 0 }) }),
  summary: "Mark all the caller's notifications read",
});
export const notificationDelete = defineSubject({
  subject: 'notify.notification.delete',
  request: ById,
  reply: Type.Object({ id: NotificationId, deleted: Type.Boolean() }),
  summary: 'Delete a notification',
});
export const notificationPreferencesGet = defineSubject({
  subject: 'notify.preferences.get',
  request: Type.Object({}),
  reply: NotificationPreferences,
  summary: "The caller's notification preferences",
});
export const notificationPreferencesUpdate = defineSubject({
  subject: 'notify.preferences.update',
  request: NotificationPreferencesInput,
  reply: NotificationPreferences,
  summary: "Change some of the caller's notification preferences",
});
export const notificationUnsubscribe = defineSubject({
  subject: 'notify.email.unsubscribe',
  request: Type.Object({ token: UnsubscribeToken }),
  reply: Type.Object({
    type: NotificationTypeSchema,
    channel: Type.Literal('email'),
    enabled: Type.Literal(false),
  }),
  summary: 'Turn off the emails of one type, from the link in such an email (no sign-in)',
});

export const PushSubscriptionId = PrefixedId('psh', 'Push subscription identifier');
const Base64Url = (description: string, min: number, max: number) =>
  Type.String({ pattern: `^[A-Za-z0-9_-]{${min},${max}}={0,2}$`, description });

/** A browser's push subscription, as `PushSubscription.toJSON()` gives it. */
export const PushSubscriptionInput = Type.Object(
  {
    endpoint: Type.String({
      pattern: '^https://[^\\s]+$',
      maxLength: 2048,
      description: 'The push service address of the subscription (https)',
    }),
    expirationTime: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 }), Type.Null()], {
        description: 'When the browser says the subscription ends (ms since 1970), if it does',
      }),
    ),
    keys: Type.Object(
      {
        p256dh: Base64Url('The subscription’s P-256 public key (65 bytes, base64url)', 86, 88),
        auth: Base64Url('The subscription’s authentication secret (16 bytes, base64url)', 22, 24),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        endpoint: 'https://push.example.net/wpush/v2/gAAAAABkexample',
        keys: {
          p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
          auth: 'tBHItJI5svbpez7KI4CCXg',
        },
      },
    ],
  },
);

export const PushSubscription = Named(
  'PushSubscription',
  Type.Object({
    id: PushSubscriptionId,
    endpoint: Type.String(),
    createdAt: Timestamp,
  }),
);

export const pushSubscribe = defineSubject({
  subject: 'notify.push.subscribe',
  request: PushSubscriptionInput,
  reply: PushSubscription,
  summary: 'Add a push subscription of the caller (the same endpoint again updates it)',
});
export const pushUnsubscribe = defineSubject({
  subject: 'notify.push.unsubscribe',
  request: Type.Object({ subscriptionId: PushSubscriptionId }),
  reply: Type.Object({ id: PushSubscriptionId, removed: Type.Boolean() }),
  summary: 'Remove a push subscription of the caller',
});
export const pushPublicKey = defineSubject({
  subject: 'notify.push.public-key',
  request: Type.Object({}),
  reply: Type.Object({
    publicKey: Type.String({ description: 'VAPID public key (base64url), the applicationServerKey of subscribe()' }),
  }),
  summary: 'The VAPID public key browsers subscribe with',
});
