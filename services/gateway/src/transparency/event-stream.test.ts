import { PassThrough } from 'node:stream';
import type { PublicEvent } from '@rootline/contracts';
import { describe, expect, it } from 'vitest';
import { SseClient, sseFrame } from './event-stream.js';

const event = (seq: number, kind: PublicEvent['kind'] = 'plant.registered'): PublicEvent => ({
  seq,
  id: `evt_${seq}`,
  kind,
  occurredAt: '2026-11-23T05:00:00.000Z',
  data: { plantId: `plt_${seq}`, commonName: 'Tomato' },
});

describe('SSE client', () => {
  it('writes one frame per event with its seq as id, once, and only the kinds asked for', () => {
    const out = new PassThrough();
    const client = new SseClient(out, new Set(['plant.registered']), 0, 10, () => {});
    client.offer(event(1));
    client.offer(event(1));
    client.offer(event(2, 'listing.published'));
    client.offer(event(3));
    expect(String(out.read())).toBe(sseFrame(event(1)) + sseFrame(event(3)));
    expect(sseFrame(event(3))).toMatch(/^id: 3\nevent: plant.registered\ndata: \{"id":"evt_3",/);
    expect(client.lastSeq).toBe(3);
  });

  it('keeps at most its bound of frames for a reader that does not read, then disconnects it', () => {
    // A real stream whose reader never reads: its buffer fills and write() starts answering false.
    const out = new PassThrough({ highWaterMark: 64 });
    let closed = 0;
    const client = new SseClient(out, undefined, 0, 5, () => closed++);
    let seq = 0;
    while (!client.isClosed && seq < 1000) {
      client.offer(event(++seq));
      expect(client.queued).toBeLessThanOrEqual(5);
    }
    expect(client.isClosed).toBe(true);
    expect(closed).toBe(1);
    expect(seq).toBeLessThan(20);
  });

  it('sends what waited, in order, once the reader catches up', async () => {
    const out = new PassThrough({ highWaterMark: 64 });
    const client = new SseClient(out, undefined, 0, 50, () => {});
    for (let seq = 1; seq <= 6; seq++) client.offer(event(seq));
    expect(client.queued).toBeGreaterThan(0);
    let text = '';
    out.on('data', (c: Buffer) => {
      text += c.toString();
    });
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(client.queued).toBe(0);
    expect([...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]))).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
