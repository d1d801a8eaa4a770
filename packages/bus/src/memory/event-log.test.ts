import { describe, expect, it } from 'vitest';
import type { EventMessage } from '../types.js';
import { createEventLog } from './event-log.js';
import type { EventLogStore, LoggedEvent, Settlement } from './event-store.js';

const quiet = { info() {}, warn() {}, error() {} };

function event(id: string, subject = 'evt.plants.plant.registered'): EventMessage {
  return { id, subject, occurredAt: '2026-01-02T03:04:05.000Z', payload: { id }, headers: {} };
}

/** A store that records each write, and fails appends while `failing` is set. */
function recordingStore() {
  const appends: LoggedEvent[][] = [];
  const settles: Settlement[][] = [];
  const store: EventLogStore & { failing: boolean } = {
    failing: false,
    load: async () => ({ events: [], settled: new Map() }),
    async append(events) {
      if (store.failing) throw new Error('disk full');
      appends.push(events);
    },
    async settle(settlements) {
      settles.push(settlements);
    },
  };
  return { store, appends, settles };
}

describe('the in-process event log', () => {
  it('keeps a second publish of an event id out of the log', async () => {
    let appended = 0;
    const log = createEventLog({ log: quiet, onAppend: () => appended++ });
    await log.publish(event('e1'));
    await log.publish(event('e1'));
    await log.publish(event('e2'));
    expect(log.events.map((e) => e.seq)).toEqual([0, 1]);
    expect(appended).toBe(2);
  });

  it('refuses a subject outside the event stream', async () => {
    const log = createEventLog({ log: quiet, onAppend: () => {} });
    await expect(log.publish(event('e1', 'plants.plant.get'))).rejects.toThrow('no stream stores plants.plant.get');
  });

  it('writes the publishes of one turn to the store in one append, numbered after the restored log', async () => {
    const { store, appends } = recordingStore();
    const restored = {
      events: [{ seq: 7, id: 'old', subject: 'evt.a.b.c', body: '{}', headers: '{}', storedAt: Date.now() }],
      settled: new Map(),
    };
    const log = createEventLog({ log: quiet, store, restored, onAppend: () => {} });
    await Promise.all([log.publish(event('e1')), log.publish(event('e2')), log.publish(event('old'))]);
    expect(appends).toHaveLength(1);
    expect(appends[0]!.map((e) => [e.seq, e.id])).toEqual([
      [8, 'e1'],
      [9, 'e2'],
    ]);
    expect(log.events.map((e) => e.seq)).toEqual([7, 8, 9]);
  });

  it('takes a retry of an event whose append failed', async () => {
    const { store, appends } = recordingStore();
    const log = createEventLog({ log: quiet, store, restored: await store.load(), onAppend: () => {} });
    store.failing = true;
    await expect(log.publish(event('e1'))).rejects.toThrow('disk full');
    expect(log.events).toHaveLength(0);
    store.failing = false;
    await log.publish(event('e1'));
    expect(appends.flat().map((e) => e.id)).toEqual(['e1']);
    expect(log.events).toHaveLength(1);
  });

  it('records the settlements of one turn in one write', async () => {
    const { store, settles } = recordingStore();
    const log = createEventLog({ log: quiet, store, restored: await store.load(), onAppend: () => {} });
    log.settle('audit', 1);
    log.settle('notify', 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settles).toEqual([
      [
        { durable: 'audit', seq: 1 },
        { durable: 'notify', seq: 1 },
      ],
    ]);
  });
});
