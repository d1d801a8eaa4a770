import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/notifications.json';
import type { Channel, PreferenceType } from './api/notifications';

registerEnglish('notifications', english);

/** Every text of the notification pages, in one place. */
export const NOTIFICATIONS_TEXT = {
  nav: (unread: number) => (unread > 0 ? t('notifications:navUnread', { unread }) : t('notifications:nav')),
  navLabel: (unread: number) => t('notifications:navLabel', { count: unread }),
  inbox: {
    get title() {
      return t('notifications:inbox.title');
    },
    get lead() {
      return t('notifications:inbox.lead');
    },
    unread: (n: number) => t('notifications:inbox.unread', { count: n }),
    get unreadOnly() {
      return t('notifications:inbox.unreadOnly');
    },
    get markRead() {
      return t('notifications:inbox.markRead');
    },
    get markAllRead() {
      return t('notifications:inbox.markAllRead');
    },
    get delete() {
      return t('notifications:inbox.delete');
    },
    get none() {
      return t('notifications:inbox.none');
    },
    get open() {
      return t('notifications:inbox.open');
    },
    get new() {
      return t('notifications:inbox.new');
    },
    get settings() {
      return t('notifications:inbox.settings');
    },
    get previous() {
      return t('notifications:inbox.previous');
    },
    get next() {
      return t('notifications:inbox.next');
    },
    page: (page: number, pages: number) => t('notifications:inbox.page', { page, pages }),
  },
  preferences: {
    get title() {
      return t('notifications:preferences.title');
    },
    get lead() {
      return t('notifications:preferences.lead');
    },
    get table() {
      return t('notifications:preferences.table');
    },
    get type() {
      return t('notifications:preferences.type');
    },
    get save() {
      return t('notifications:preferences.save');
    },
    get saving() {
      return t('notifications:preferences.saving');
    },
    get saved() {
      return t('notifications:preferences.saved');
    },
    switch: (type: string, channel: string) => t('notifications:preferences.switch', { type, channel }),
  },
  push: {
    get title() {
      return t('notifications:push.title');
    },
    get lead() {
      return t('notifications:push.lead');
    },
    get unsupported() {
      return t('notifications:push.unsupported');
    },
    get blocked() {
      return t('notifications:push.blocked');
    },
    get on() {
      return t('notifications:push.on');
    },
    get off() {
      return t('notifications:push.off');
    },
    get subscribe() {
      return t('notifications:push.subscribe');
    },
    get unsubscribe() {
      return t('notifications:push.unsubscribe');
    },
    get busy() {
      return t('notifications:push.busy');
    },
  },
  unsubscribe: {
    get title() {
      return t('notifications:unsubscribe.title');
    },
    get lead() {
      return t('notifications:unsubscribe.lead');
    },
    ask: (type: string) => t('notifications:unsubscribe.ask', { type }),
    get confirm() {
      return t('notifications:unsubscribe.confirm');
    },
    get busy() {
      return t('notifications:unsubscribe.busy');
    },
    done: (type: string) => t('notifications:unsubscribe.done', { type }),
    get again() {
      return t('notifications:unsubscribe.again');
    },
    get settings() {
      return t('notifications:unsubscribe.settings');
    },
    get missing() {
      return t('notifications:unsubscribe.missing');
    },
  },
};

/** A person's name for each notification type (the Record makes the compiler ask for a new one). */
export const TYPE_LABELS: Record<PreferenceType | 'account', string> = {
  get welcome() {
    return t('notifications:typeLabels.welcome');
  },
  get 'plant-registered'() {
    return t('notifications:typeLabels.plant-registered');
  },
  get 'transport-alert'() {
    return t('notifications:typeLabels.transport-alert');
  },
  get 'farm-alert'() {
    return t('notifications:typeLabels.farm-alert');
  },
  get 'harvest-ready'() {
    return t('notifications:typeLabels.harvest-ready');
  },
  get 'demand-match'() {
    return t('notifications:typeLabels.demand-match');
  },
  get marketplace() {
    return t('notifications:typeLabels.marketplace');
  },
  get 'weekly-digest'() {
    return t('notifications:typeLabels.weekly-digest');
  },
  get organization() {
    return t('notifications:typeLabels.organization');
  },
  get transfer() {
    return t('notifications:typeLabels.transfer');
  },
  get account() {
    return t('notifications:typeLabels.account');
  },
};

export const CHANNEL_LABELS: Record<Channel, string> = {
  get 'in-app'() {
    return t('notifications:channelLabels.in-app');
  },
  get email() {
    return t('notifications:channelLabels.email');
  },
  get push() {
    return t('notifications:channelLabels.push');
  },
};
