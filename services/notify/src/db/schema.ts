import { inboxTable, outboxTable } from '@rootline/db';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const notifySchema = pgSchema('notify');

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/** Whom to write: learnt from account events (notify never reads the gateway's tables). */
export const recipients = notifySchema.table('recipients', {
  userId: text('user_id').primaryKey(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  /** The language to write in (en, nl, de, fr, es); null: English. */
  locale: text('locale'),
  updatedAt: at('updated_at').notNull(),
});

/** In-app notifications; one per source event, user and type, so a replayed event adds nothing. */
export const notifications = notifySchema.table(
  'notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    data: jsonb('data').notNull(),
    sourceEventId: text('source_event_id').notNull(),
    readAt: at('read_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('notifications_source_idx').on(t.sourceEventId, t.userId, t.type),
    index('notifications_user_idx').on(t.userId, t.createdAt),
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
  ],
);

/** Per user, type and channel: only the switches a user changed (the rest take the defaults). */
export const preferences = notifySchema.table(
  'preferences',
  {
    userId: text('user_id').notNull(),
    type: text('type').notNull(),
    channel: text('channel').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type, t.channel] })],
);

/**
 * Messages to send outside the database (email, push): recorded with the event in the inbox transaction and sent
 * by background work, with retries. Unique per source event, channel and user: one send in effect.
 * `template` and `params` are rendered at send time, so a link secret is fetched then and never stored.
 */
export const deliveries = notifySchema.table(
  'deliveries',
  {
    id: text('id').primaryKey(),
    sourceEventId: text('source_event_id').notNull(),
    channel: text('channel').notNull(),
    userId: text('user_id').notNull(),
    type: text('type').notNull(),
    template: text('template').notNull(),
    params: jsonb('params').notNull(),
    /**
     * The public address of the API the causing request came through (the event's call context), which links start
     * with when notify has no PUBLIC_URL of its own; null for work no request caused (the weekly digest).
     */
    publicUrl: text('public_url'),
    /** pending → sent | failed; a claim (claimedUntil) keeps two instances from sending the same row at once. */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    claimedUntil: at('claimed_until'),
    lastError: text('last_error'),
    sentAt: at('sent_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('deliveries_source_idx').on(t.sourceEventId, t.channel, t.userId),
    index('deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);

export const outbox = outboxTable(notifySchema);
export const inbox = inboxTable(notifySchema);

/** Browsers' push subscriptions; an endpoint belongs to one user (re-subscribing moves it). */
export const pushSubscriptions = notifySchema.table(
  'push_subscriptions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** The VAPID public key the browser subscribed with (null: made before it was recorded). */
    vapidPublicKey: text('vapid_public_key'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

/** Weeks whose digest was made: claimed in the transaction that records the digests, so one instance makes it. */
export const digestRuns = notifySchema.table('digest_runs', {
  weekStart: text('week_start').primaryKey(),
  instance: text('instance').notNull(),
  /** People with news that week (each got a digest through the channels their preferences allow). */
  recipients: integer('recipients').notNull(),
  createdAt: at('created_at').notNull(),
});
