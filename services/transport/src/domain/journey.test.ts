import { describe, expect, it } from 'vitest';
import { backwardsInTime, footprintOf, journeyTotals, linkCorrections, type StoredEvent } from './journey.js';

const event = (id: string, eventTime: string, extra: Partial<StoredEvent> = {}): StoredEvent => ({
  id,
  kind: 'growing',
  plantId: 'plt_0123456789',
  seedLotId: null,
  quantity: null,
  eventTime,
  eventAt: new Date(eventTime).toISOString(),
  from: null,
  to: null,
  privacyLevel: 'exact',
  transportMode: 'car',
  distanceKm: 10,
  massKg: 0,
  kgCo2e: 1.7,
  handler: { id: 'usr_a', name: 'A' },
  recipient: null,
  sensorReadings: [],
  corrects: null,
  handoffId: null,
  notes: null,
  blockHash: 'a'.repeat(64),
  recordedAt: `2026-01-01T00:00:0${id.length % 10}.000Z`,
  ...extra,
});

describe('journeys', () => {
  it('orders by instant, whatever the offsets', () => {
    const linked = linkCorrections([
      event('tev_b', '2026-05-01T10:00:00+02:00'),
      event('tev_a', '2026-05-01T09:30:00+00:00'),
    ]);
    expect(linked.map((e) => e.id)).toEqual(['tev_b', 'tev_a']);
  });

  it('refuses an event earlier than the latest', () => {
    expect(backwardsInTime('2026-05-01T09:00:00+02:00', '2026-05-01T08:00:00Z')).toContain('backwards');
    expect(backwardsInTime('2026-05-01T10:00:00+02:00', '2026-05-01T08:00:00Z')).toBeUndefined();
    expect(backwardsInTime('2026-05-01T10:00:00+02:00', undefined)).toBeUndefined();
  });

  it('leaves a corrected event out of the totals and links it to its correction', () => {
    const linked = linkCorrections([
      event('tev_a', '2026-05-01T09:00:00Z'),
      event('tev_b', '2026-05-02T09:00:00Z', { distanceKm: 20, kgCo2e: 3.4 }),
      event('tev_cc', '2026-05-02T09:00:00Z', { corrects: 'tev_b', distanceKm: 5, kgCo2e: 0.85 }),
    ]);
    expect(linked.find((e) => e.id === 'tev_b')?.correctedBy).toBe('tev_cc');
    expect(journeyTotals(linked)).toEqual({ events: 2, distanceKm: 15, kgCo2e: 2.55, durationHours: 24 });
  });

  it('sums a footprint per mode and kind, per kg of produce and against the baseline', () => {
    const f = footprintOf(
      'usr_a',
      linkCorrections([
        {
          ...event('tev_a', '2026-05-01T09:00:00Z', { kind: 'harvest', quantity: { value: 2, unit: 'kg' } }),
          distanceKm: 10,
          kgCo2e: 0,
        },
        {
          ...event('tev_b', '2026-05-02T09:00:00Z', { kind: 'distribution', massKg: 1000 }),
          distanceKm: 10,
          kgCo2e: 10,
        },
      ]),
    );
    expect(f.byKind.distribution).toEqual({ events: 1, distanceKm: 10, kgCo2e: 10 });
    expect(f.byMode.car?.events).toBe(2);
    expect(f.kgCo2ePerKgProduce).toBe(5);
    expect(f.baseline).toMatchObject({ kgCo2e: 166.673, savedKgCo2e: 156.673 });
  });
});
