import { EventEmitter } from 'node:events';
import { createMemoryBroker } from '@rootline/bus';
import { sessionsChanged } from '@rootline/contracts';
import { createLogger, systemClock } from '@rootline/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { EventHub } from '../transparency/event-stream.js';
import { CLOSE_SESSION_ENDED, createRealtimeHub, endedBy } from './hub.js';

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

/** Enough of a `ws` socket for the hub: events, and a record of how it was closed. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  closedWith: { code: number; reason: string } | undefined;
  close(code: number, reason: string) {
    this.closedWith = { code, reason };
    this.readyState = 2;
  }
  terminate() {
    this.readyState = 3;
  }
  ping() {}
  send() {}
}

describe('the hub and session changes', () => {
  const broker = createMemoryBroker();
  const bus = broker.connect('gateway');
  const other = broker.connect('identity');
  const events = { follow: async () => () => {} } as unknown as EventHub;
  const hub = createRealtimeHub({
    bus,
    log: createLogger('test', 'silent'),
    clock: systemClock,
    events,
    heartbeatMs: 60_000,
    maxBufferedBytes: 1 << 20,
    replicaId: 'gw_test',
  });
  const open = (userId: string, sessionId: string | null) => {
    const socket = new FakeSocket();
    hub.add(socket as unknown as WebSocket, userId, sessionId);
    return socket;
  };
  beforeAll(() => hub.start());
  afterAll(async () => {
    await hub.stop();
    await bus.close();
    await other.close();
  });

  it('closes the sockets a broadcast change names with 4001, and counts them out', async () => {
    const ended = open('usr_a', 'ses_1');
    const kept = open('usr_a', 'ses_2');
    const before = hub.stats().connections;
    await other.broadcast(sessionsChanged.subject, { sessionId: 'ses_1' });
    await expect.poll(() => ended.closedWith).toEqual({ code: CLOSE_SESSION_ENDED, reason: 'session ended' });
    expect(kept.closedWith).toBeUndefined();
    expect(hub.stats().connections).toBe(before - 1);
  });

  it('closes a socket of a session that ended while its upgrade was under way', async () => {
    await other.broadcast(sessionsChanged.subject, { sessionId: 'ses_late' });
    const probe = open('usr_probe', 'ses_probe');
    await other.broadcast(sessionsChanged.subject, { sessionId: 'ses_probe' });
    await expect.poll(() => probe.closedWith?.code).toBe(CLOSE_SESSION_ENDED);
    const late = open('usr_c', 'ses_late');
    expect(late.closedWith).toEqual({ code: CLOSE_SESSION_ENDED, reason: 'session ended' });
    expect(open('usr_c', 'ses_fresh').closedWith).toBeUndefined();
  });
});
