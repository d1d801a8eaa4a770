import { type Bus, createNatsBus, type ServedService } from '@rootline/bus';
import { eventHistory, type PublicEvent, publicEventRecorded } from '@rootline/contracts';
import { createLogger } from '@rootline/host';
import { type NatsServerHandle, startNatsServer } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventHub, type EventHub } from '../src/transparency/event-stream.js';

const event = (seq: number): PublicEvent => ({
  seq,
  id: `evt_${seq}`,
  kind: 'plant.registered',
  occurredAt: '2026-11-23T05:00:00.000Z',
  data: { plantId: `plt_${seq}`, commonName: 'Tomato' },
});

describe('event hub followers (the WebSocket rooms)', () => {
  const history: PublicEvent[] = [event(1), event(2)];
  let nats: NatsServerHandle;
  let service: Bus;
  let gateway: Bus;
  let served: ServedService;
  let hub: EventHub;

  beforeAll(async () => {
    nats = await startNatsServer();
    service = await createNatsBus({ url: nats.url, name: 'transparency' });
    gateway = await createNatsBus({ url: nats.url, name: 'gateway' });
    served = await service.serve({ name: 'transparency', version: '0.0.0-test' }, [
      {
        subject: eventHistory.subject,
        handler: async (payload) => {
          const { after = 0 } = payload as { after?: number };
          const items = history.filter((e) => e.seq > after);
          const pagination = { page: 1, limit: 100, total: items.length, totalPages: 1 };
          return { ok: true, data: { items, pagination, latestSeq: history.length } };
        },
      },
    ]);
    hub = createEventHub({
      bus: gateway,
      log: createLogger('test', 'silent'),
      timeoutMs: 1000,
      pollMs: 60_000,
      heartbeatMs: 60_000,
      maxQueued: 10,
    });
  });
  afterAll(async () => {
    await hub?.close();
    await served?.stop();
    await service?.close();
    await gateway?.close();
    await nats?.stop();
  });

  it('hands a follower every event recorded after it started, woken by the signal, until it stops', async () => {
    const seen: number[] = [];
    const stop = await hub.follow((e) => seen.push(e.seq));
    history.push(event(3), event(4));
    await service.broadcast(publicEventRecorded.subject, { seq: 4 });
    await expect.poll(() => seen, { timeout: 5000 }).toEqual([3, 4]);
    stop();
    history.push(event(5));
    await service.broadcast(publicEventRecorded.subject, { seq: 5 });
    // A second follower started now sees 6, and the stopped one nothing more.
    const later: number[] = [];
    const stopLater = await hub.follow((e) => later.push(e.seq));
    history.push(event(6));
    await service.broadcast(publicEventRecorded.subject, { seq: 6 });
    await expect.poll(() => later, { timeout: 5000 }).toEqual([6]);
    expect(seen).toEqual([3, 4]);
    stopLater();
  });
});
