import { describe, expect, it } from 'vitest';
import { channelsFor, DEFAULT_PREFERENCES, effectivePreferences, switchesOf } from './preferences.js';

describe('notification preferences', () => {
  it('starts from the defaults and applies stored switches, ignoring unknown ones', () => {
    const prefs = effectivePreferences([
      { type: 'plant-registered', channel: 'email', enabled: true },
      { type: 'welcome', channel: 'in-app', enabled: false },
      { type: 'account', channel: 'email', enabled: false },
      { type: 'welcome', channel: 'fax', enabled: true },
    ]);
    expect(prefs['plant-registered']).toEqual({ email: true, push: false, 'in-app': true });
    expect(prefs.welcome).toEqual({ email: true, push: false, 'in-app': false });
    expect(prefs['demand-match']).toEqual(DEFAULT_PREFERENCES['demand-match']);
  });

  it('does not change the defaults it starts from', () => {
    effectivePreferences([{ type: 'welcome', channel: 'email', enabled: false }]);
    expect(DEFAULT_PREFERENCES.welcome.email).toBe(true);
  });

  it('turns a change into one switch per named type and channel', () => {
    expect(switchesOf({ 'weekly-digest': { email: false }, marketplace: { push: false, 'in-app': true } })).toEqual([
      { type: 'marketplace', channel: 'push', enabled: false },
      { type: 'marketplace', channel: 'in-app', enabled: true },
      { type: 'weekly-digest', channel: 'email', enabled: false },
    ]);
  });

  it('sends account messages by email whatever the preferences', () => {
    const none = effectivePreferences([]);
    expect(channelsFor('account', none)).toEqual(['email']);
    expect(channelsFor('plant-registered', none)).toEqual(['in-app']);
    expect(channelsFor('demand-match', none)).toEqual(['email', 'push', 'in-app']);
  });
});
