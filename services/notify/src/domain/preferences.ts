import {
  CHANNELS,
  type Channel,
  type NotificationPreferences,
  type NotificationPreferencesInput,
  type NotificationType,
  PREFERENCE_TYPES,
  type PreferenceType,
} from '@rootline/contracts/notify';

/**
 * What a user gets before changing anything: in-app for everything; email for what they would miss otherwise
 * (welcome, matches, offers, alerts, the digest) but not for each plant they register themselves; push for what
 * needs a quick answer (alerts, harvests, matches, offers).
 */
export const DEFAULT_PREFERENCES: NotificationPreferences = {
  welcome: { email: true, push: false, 'in-app': true },
  'plant-registered': { email: false, push: false, 'in-app': true },
  'transport-alert': { email: true, push: true, 'in-app': true },
  'farm-alert': { email: true, push: true, 'in-app': true },
  'harvest-ready': { email: true, push: true, 'in-app': true },
  'demand-match': { email: true, push: true, 'in-app': true },
  marketplace: { email: true, push: true, 'in-app': true },
  'weekly-digest': { email: true, push: false, 'in-app': false },
  organization: { email: true, push: false, 'in-app': true },
  transfer: { email: true, push: true, 'in-app': true },
};

/** A stored switch: a user's change to one type and channel. */
export interface Switch {
  type: string;
  channel: string;
  enabled: boolean;
}

/** The defaults with a user's stored switches applied; unknown stored values are ignored. */
export function effectivePreferences(stored: readonly Switch[]): NotificationPreferences {
  const out = structuredClone(DEFAULT_PREFERENCES);
  for (const s of stored) {
    if (!isPreferenceType(s.type) || !isChannel(s.channel)) continue;
    out[s.type][s.channel] = s.enabled;
  }
  return out;
}

/** The switches a change names, as rows to store. */
export function switchesOf(change: NotificationPreferencesInput): Switch[] {
  const out: Switch[] = [];
  for (const type of PREFERENCE_TYPES) {
    const channels = change[type];
    if (!channels) continue;
    for (const channel of CHANNELS) {
      const enabled = channels[channel];
      if (enabled !== undefined) out.push({ type, channel, enabled });
    }
  }
  return out;
}

/** The channels a notification of `type` goes to; account messages go by email whatever the preferences. */
export function channelsFor(type: NotificationType, prefs: NotificationPreferences): Channel[] {
  if (type === 'account') return ['email'];
  return CHANNELS.filter((c) => prefs[type][c]);
}

export function isPreferenceType(t: string): t is PreferenceType {
  return (PREFERENCE_TYPES as readonly string[]).includes(t);
}
function isChannel(c: string): c is Channel {
  return (CHANNELS as readonly string[]).includes(c);
}
