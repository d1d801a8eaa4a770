import { describe, expect, it } from 'vitest';
import { endedBy } from './hub.js';

const bySession = { userId: 'usr_a', sessionId: 'ses_1' };
const otherSession = { userId: 'usr_a', sessionId: 'ses_2' };
const byToken = { userId: 'usr_a', sessionId: null };
const otherUser = { userId: 'usr_b', sessionId: 'ses_3' };

describe('sockets ended by a session change', () => {
  it('a sign-out ends the sockets of that session only', () => {
    const change = { sessionId: 'ses_1' };
    expect([bySession, otherSession, byToken, otherUser].map((c) => endedBy(change, c))).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it('a change of the account ends every socket of it, API-token ones too', () => {
    const change = { userId: 'usr_a' };
    expect([bySession, otherSession, byToken, otherUser].map((c) => endedBy(change, c))).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('a malformed change ends nothing', () => {
    for (const change of [null, {}, { sessionId: 1 }, 'ses_1']) expect(endedBy(change, bySession)).toBe(false);
  });
});
