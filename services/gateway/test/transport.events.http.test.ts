import type { DeliveredEvent } from '@rootline/bus';
import { service as chainMiner } from '@rootline/chain-miner';
import { transportCompleted } from '@rootline/contracts';
import { service as plants } from '@rootline/plants';
import { plantInput } from '@rootline/testing';
import { service as transport } from '@rootline/transport';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from './platform.js';

const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };
const UTRECHT = { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' };
const HANDLER = { id: 'usr_grower', name: 'Ada Grower' };

describe('transport events, journeys and block verification over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  let grower: string;
  let other: string;
  let admin: string;
  let plantId: string;
  const delivered: DeliveredEvent[] = [];

  beforeAll(async () => {
    p = await startTestPlatform([chainMiner, plants, transport], { CHAIN_DIFFICULTY: '8' });
    grower = await p.token('USER', 'usr_grower');
    other = await p.token('USER', 'usr_other');
    admin = await p.token('ADMIN', 'usr_admin');
    await p.bus.consume({
      durable: 'transport-http-completed',
      subject: transportCompleted.subject,
      handler: async (e) => {
        delivered.push(e);
      },
    });
    const plant = await p.http('POST', '/api/plants/register', {
      token: grower,
      body: plantInput({ owner: { id: 'usr_grower', name: 'Ada Grower' } }),
    });
    expect(plant.status).toBe(201);
    plantId = plant.body.data.id;
  });
  afterAll(async () => p?.stop());

  const post = (kind: string, body: unknown, token = grower) =>
    p.http('POST', `/api/transport/${kind}`, { token, body });
  const at = (day: number) => `2026-05-${String(day).padStart(2, '0')}T09:30:00+02:00`;

  it('records each of the seven kinds on the ledger (201 with id and block hash) and emits transport.completed', async () => {
    const bodies: [string, Record<string, unknown>][] = [
      ['seed-acquisition', { seedLotId: 'lot_tomato-a', quantity: { value: 50, unit: 'seeds' }, from: UTRECHT }],
      ['planting', { plantId, seedLotId: 'lot_tomato-a', quantity: { value: 1, unit: 'plants' } }],
      ['growing', { plantId, from: AMSTERDAM, transportMode: 'cargo-bike', massKg: 12 }],
      ['harvest', { plantId, quantity: { value: 4, unit: 'kg' } }],
      ['distribution', { plantId, from: AMSTERDAM, transportMode: 'hgv-refrigerated', massKg: 4 }],
      ['seed-saving', { plantId, seedLotId: 'lot_tomato-b', quantity: { value: 12, unit: 'g' } }],
      ['seed-sharing', { seedLotId: 'lot_tomato-b', recipient: { id: 'usr_other', name: 'Ben' }, from: AMSTERDAM }],
    ];
    const ids: string[] = [];
    for (const [i, [kind, extra]] of bodies.entries()) {
      const to = kind === 'distribution' || kind === 'growing' ? UTRECHT : AMSTERDAM;
      const res = await post(kind, { eventTime: at(i + 1), handler: HANDLER, to, ...extra });
      expect(res.status, `${kind} ${JSON.stringify(res.body.error)}`).toBe(201);
      expect(res.body.data.id).toMatch(/^tev_/);
      expect(res.body.data.blockHash).toMatch(/^[0-9a-f]{64}$/);
      ids.push(res.body.data.id);
    }
    await expect.poll(() => delivered.length, { timeout: 5000 }).toBeGreaterThanOrEqual(7);
    const distribution = delivered.find((e) => (e.payload as { kind: string }).kind === 'distribution');
    if (!distribution) throw new Error('no transport.completed for the distribution');
    expect(distribution.payload).toMatchObject({ eventId: ids[4], plantId, transportMode: 'hgv-refrigerated' });
    // Haversine Amsterdam–Utrecht ≈ 35 km; 4 kg by refrigerated HGV at 0.11894 kg CO2e per tonne-km (DESNZ 2025).
    const d = (distribution.payload as { distanceKm: number }).distanceKm;
    expect(d).toBeGreaterThan(34);
    expect(d).toBeLessThan(37);
    expect((distribution.payload as { kgCo2e: number }).kgCo2e).toBeCloseTo(0.11894 * 0.004 * d, 3);

    const journey = await p.http('GET', `/api/transport/journey/${plantId}`, { token: other });
    expect(journey.status).toBe(200);
    const { events, totals, seedLots } = journey.body.data;
    // The plant's own events and those of the seed lots they name (acquired before, shared after).
    expect(events.map((e: { id: string }) => e.id)).toEqual(ids);
    expect(seedLots).toEqual(['lot_tomato-a', 'lot_tomato-b']);
    expect(totals.events).toBe(7);
    expect(totals.durationHours).toBe(6 * 24);
    expect(events.every((e: { blockHash: string }) => /^[0-9a-f]{64}$/.test(e.blockHash))).toBe(true);

    const paged = await p.http('GET', `/api/transport/journey/${plantId}?page=2&limit=3`, { token: other });
    expect(paged.body.data.events.map((e: { id: string }) => e.id)).toEqual(ids.slice(3, 6));
    expect(paged.body.data.pagination).toEqual({ page: 2, limit: 3, total: 7, totalPages: 3 });
    expect(paged.body.data.totals).toEqual(totals);
  });

  it('refuses per kind what the kind needs: harvest without quantity, sharing without recipient', async () => {
    const harvest = await post('harvest', { plantId, eventTime: at(20), handler: HANDLER, to: AMSTERDAM });
    expect(harvest.status).toBe(400);
    expect(harvest.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
    expect(harvest.body.error.details.map((x: { field: string }) => x.field)).toContain('body/quantity');
    const sharing = await post('seed-sharing', {
      seedLotId: 'lot_x-1',
      eventTime: at(20),
      handler: HANDLER,
      to: AMSTERDAM,
    });
    expect(sharing.status).toBe(400);
    const nothing = await post('growing', { eventTime: at(20), handler: HANDLER, to: AMSTERDAM });
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.details).toEqual({ field: 'plantId' });
    const noOffset = await post('growing', {
      plantId,
      eventTime: '2026-05-20T09:30:00',
      handler: HANDLER,
      to: AMSTERDAM,
    });
    expect(noOffset.status).toBe(400);
  });

  it('refuses a journey running backwards in time, and accepts a correction naming the event it replaces', async () => {
    const back = await post('growing', { plantId, eventTime: at(2), handler: HANDLER, to: AMSTERDAM });
    expect(back.status).toBe(400);
    expect(back.body.error.message).toContain('cannot run backwards in time');

    const before = (await p.http('GET', `/api/transport/journey/${plantId}`, { token: grower })).body.data;
    const harvest = before.events.find((e: { kind: string }) => e.kind === 'harvest');
    const fixed = await post('harvest', {
      plantId,
      eventTime: harvest.eventTime,
      handler: HANDLER,
      to: AMSTERDAM,
      quantity: { value: 5, unit: 'kg' },
      corrects: harvest.id,
    });
    expect(fixed.status).toBe(201);
    const after = (await p.http('GET', `/api/transport/journey/${plantId}`, { token: grower })).body.data;
    expect(after.events.find((e: { id: string }) => e.id === harvest.id).correctedBy).toBe(fixed.body.data.id);
    expect(after.totals.events).toBe(before.totals.events);

    const unknown = await post('harvest', { ...fixed.body.data, plantId, corrects: 'tev_00000000000000000000000000' });
    expect(unknown.status).toBe(400);
  });

  it('answers 404 for an unknown plant, in events and journeys', async () => {
    const res = await post('growing', {
      plantId: 'plt_0000000000000000',
      eventTime: at(25),
      handler: HANDLER,
      to: AMSTERDAM,
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await p.http('GET', '/api/transport/journey/plt_0000000000000000', { token: grower })).status).toBe(404);
  });

  it('records only for the caller: another handler is 403, an ADMIN may record for someone, no token is 401', async () => {
    const body = { seedLotId: 'lot_owned-1', eventTime: at(26), handler: HANDLER, to: AMSTERDAM };
    expect((await post('seed-saving', body, other)).status).toBe(403);
    expect((await post('seed-saving', body, admin)).status).toBe(201);
    expect((await p.http('POST', '/api/transport/seed-saving', { body })).status).toBe(401);
  });

  it('gives the footprint to the user and an ADMIN only, per mode and kind and against the baseline', async () => {
    const mine = await p.http('GET', '/api/transport/footprint/usr_grower', { token: grower });
    expect(mine.status).toBe(200);
    const f = mine.body.data;
    expect(Object.keys(f.byMode).sort()).toEqual(['cargo-bike', 'hgv-refrigerated', 'none']);
    expect(f.byKind.harvest.events).toBe(1);
    expect(f.produceKg).toBe(5);
    expect(f.kgCo2ePerKgProduce).toBeCloseTo(f.kgCo2e / 5, 4);
    // 4 kg delivered: 0.004 t × 1640 km × 0.10163 kg CO2e per tonne-km (diesel HGV, DESNZ 2025).
    expect(f.baseline.kgCo2e).toBeCloseTo(0.667, 3);
    expect(f.baseline.savedKgCo2e).toBeCloseTo(0.667 - f.byMode['hgv-refrigerated'].kgCo2e, 3);
    expect((await p.http('GET', '/api/transport/footprint/usr_grower', { token: other })).status).toBe(403);
    expect((await p.http('GET', '/api/transport/footprint/usr_grower', { token: admin })).status).toBe(200);
  });

  it('verifies a block through the ledger, names the event it records, and reports a tampered block invalid', async () => {
    const journey = (await p.http('GET', `/api/transport/journey/${plantId}`, { token: grower })).body.data;
    const event = journey.events[1];
    const ok = await p.http('GET', `/api/transport/verify/${event.blockHash}`, { token: grower });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ hash: event.blockHash, verdict: 'valid', problems: [] });
    expect(ok.body.data.checks).toEqual({
      hash: true,
      proofOfWork: true,
      link: true,
      merkleRoot: true,
      transactions: true,
    });
    const tx = ok.body.data.transactions.find(
      (t: { transportEventId: string | null }) => t.transportEventId === event.id,
    );
    expect(tx.type).toBe('transport.planting');

    await p.database.db.execute(
      sql`update chain.transactions set payload = replace(payload, 'lot_tomato-a', 'lot_forged-a') where id = ${tx.id}`,
    );
    const bad = await p.http('GET', `/api/transport/verify/${event.blockHash}`, { token: grower });
    expect(bad.body.data.verdict).toBe('invalid');
    expect(bad.body.data.checks.transactions).toBe(false);
    expect(bad.body.data.problems).toEqual([
      { code: 'payload-hash-mismatch', reason: expect.stringContaining('altered') },
    ]);

    const unknown = await p.http('GET', `/api/transport/verify/${'ab'.repeat(32)}`, { token: grower });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    expect((await p.http('GET', '/api/transport/verify/xyz', { token: grower })).status).toBe(400);
  });
});
