import { countOf } from '../../lib/plural';
import type { Channel, PreferenceType } from './api/notifications';

/** Every text of the notification pages, in one place. */
export const NOTIFICATIONS_TEXT = {
  nav: (unread: number) => (unread > 0 ? `Inbox (${unread})` : 'Inbox'),
  navLabel: (unread: number) => `Inbox, ${countOf(unread, 'unread notification')}`,
  inbox: {
    title: 'Inbox',
    lead: 'What happened to your plants, offers, farms and account. New notifications appear here as they arrive.',
    unread: (n: number) => countOf(n, 'unread notification'),
    unreadOnly: 'Show only unread',
    markRead: 'Mark read',
    markAllRead: 'Mark all read',
    delete: 'Delete',
    none: 'No notifications.',
    open: 'Open',
    new: 'unread',
    settings: 'Notification settings',
    previous: 'Previous page',
    next: 'Next page',
    page: (page: number, pages: number) => `Page ${page} of ${pages}`,
  },
  preferences: {
    title: 'Notification settings',
    lead: 'Choose how each kind of notification reaches you. Account messages (sign-in links, password changes) always come by email.',
    table: 'What reaches you, and how',
    type: 'Notification',
    save: 'Save settings',
    saving: 'Saving…',
    saved: 'Your settings are saved.',
    switch: (type: string, channel: string) => `${type} by ${channel}`,
  },
  push: {
    title: 'Notifications on this device',
    lead: 'Web Push shows notifications on this device even when Rootline is closed.',
    unsupported: 'This browser cannot receive push notifications.',
    blocked: 'Notifications are blocked for this site: allow them in the browser’s site settings first.',
    on: 'This browser receives push notifications.',
    off: 'This browser does not receive push notifications.',
    subscribe: 'Turn on push notifications',
    unsubscribe: 'Turn off push notifications',
    busy: 'Working…',
  },
  unsubscribe: {
    title: 'Unsubscribe',
    lead: 'Stop one kind of email from Rootline. You do not need to sign in.',
    ask: (type: string) => `Stop emails about “${type}”?`,
    confirm: 'Stop these emails',
    busy: 'Unsubscribing…',
    done: (type: string) => `Done: you will get no more emails about “${type}”.`,
    again: 'You can turn them on again in your notification settings.',
    settings: 'Open notification settings',
    missing: 'This link has no token. Open the link from the email again.',
  },
} as const;

/** A person's name for each notification type (the Record makes the compiler ask for a new one). */
export const TYPE_LABELS: Record<PreferenceType | 'account', string> = {
  welcome: 'Welcome',
  'plant-registered': 'Your plants registered',
  'transport-alert': 'Handoffs to you',
  'farm-alert': 'Farm alerts',
  'harvest-ready': 'Harvests ready',
  'demand-match': 'Demand matches',
  marketplace: 'Marketplace offers',
  'weekly-digest': 'Weekly digest',
  organization: 'Your organizations',
  account: 'Account',
};

export const CHANNEL_LABELS: Record<Channel, string> = { 'in-app': 'in the app', email: 'email', push: 'push' };
