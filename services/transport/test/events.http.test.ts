import { randomUUID } from 'node:crypto';
import type { DeliveredEvent } from '@rootline/bus';
import { transportCompleted } from '@rootline/contracts';
import { plantInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTransportPlatform, type TestPlatform } from './support.js';

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
    p = await startTransportPlatform();
    grower = await p.token('USER', HANDLER.id, HANDLER.name);
    other = await p.token('USER', 'usr_other', 'Ben');
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
  const ids = (events: { id: string }[]) => events.map((e) => e.id);

  /** The journey in one page, and its totals worked out from its events (the running totals must agree). */
  async function wholeJourney(id: string) {
    const res = await p.http('GET', `/api/transport/journey/${id}?limit=1000`, { token: grower });
    expect(res.status).toBe(200);
    type E = { distanceKm: number; kgCo2e: number; eventTime: string; correctedBy: string | null };
    const inForce = (res.body.data as E[]).filter((e) => e.correctedBy === null);
    const times = inForce.map((e) => Date.parse(e.eventTime));
    const round = (n: number) => Math.round(n * 1000) / 1000;
    const expected = {
      events: inForce.length,
      distanceKm: round(inForce.reduce((sum, e) => sum + e.distanceKm, 0)),
      kgCo2e: round(inForce.reduce((sum, e) => sum + e.kgCo2e, 0)),
      durationHours: times.length > 0 ? (Math.max(...times) - Math.min(...times)) / 3_600_000 : 0,
    };
    return { events: res.body.data, totals: res.body.meta.totals, expected };
  }

  const eventCount = async (where: ReturnType<typeof sql>) => {
    const rows = (await p.database.db.execute(
      sql`select count(*)::int as n from transport.events where ${where}`,
    )) as unknown as { n: number }[];
    return rows[0]!.n;
  };

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
    // `data` is the page of events; `pagination` and the journey's `meta` (totals, seed lots, cursor) beside it.
    const { data: events, pagination, meta } = journey.body;
    const { totals, seedLots } = meta;
    expect(pagination).toEqual({ page: 1, limit: 100, total: 7, totalPages: 1 });
    expect(meta).toMatchObject({ plantId, nextAfter: null });
    // The plant's own events and those of the seed lots they name (acquired before, shared after).
    expect(events.map((e: { id: string }) => e.id)).toEqual(ids);
    expect(seedLots).toEqual(['lot_tomato-a', 'lot_tomato-b']);
    expect(totals.events).toBe(7);
    expect(totals.durationHours).toBe(6 * 24);
    expect(events.every((e: { blockHash: string }) => /^[0-9a-f]{64}$/.test(e.blockHash))).toBe(true);

    const paged = await p.http('GET', `/api/transport/journey/${plantId}?page=2&limit=3`, { token: other });
    expect(paged.body.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(3, 6));
    expect(paged.body.pagination).toEqual({ page: 2, limit: 3, total: 7, totalPages: 3 });
    expect(paged.body.meta.totals).toEqual(totals);
    // Keyset pages: after the cursor of the previous page, the same events as by page number.
    const journeyAfter = async (after: string) =>
      (await p.http('GET', `/api/transport/journey/${plantId}?limit=3&after=${after}`, { token: other })).body;
    const first = (await p.http('GET', `/api/transport/journey/${plantId}?limit=3`, { token: other })).body;
    expect(first.meta.nextAfter).toBe(ids[2]);
    const second = await journeyAfter(first.meta.nextAfter);
    expect(second.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(3, 6));
    const last = await journeyAfter(second.meta.nextAfter);
    expect(last.data.map((e: { id: string }) => e.id)).toEqual([ids[6]]);
    expect(last.meta.nextAfter).toBeNull();
    // After the lot's own event (it names no plant), then an event of no journey of this plant.
    expect((await journeyAfter(ids[0]!)).data.map((e: { id: string }) => e.id)).toEqual(ids.slice(1, 4));
    const stranger = await p.http('GET', `/api/transport/journey/${plantId}?after=tev_00000000000000000000000000`, {
      token: other,
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.details).toEqual({ field: 'after', reason: 'not-in-journey' });
    const whole = await wholeJourney(plantId);
    expect(whole.totals).toEqual(whole.expected);
    expect(totals.distanceKm).toBeGreaterThan(100);
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
    expect(nothing.body.error.details).toEqual({ field: 'plantId', reason: 'plant-or-lot' });
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

    const before = (await p.http('GET', `/api/transport/journey/${plantId}`, { token: grower })).body;
    const harvest = before.data.find((e: { kind: string }) => e.kind === 'harvest');
    const fixed = await post('harvest', {
      plantId,
      eventTime: harvest.eventTime,
      handler: HANDLER,
      to: AMSTERDAM,
      quantity: { value: 5, unit: 'kg' },
      corrects: harvest.id,
    });
    expect(fixed.status).toBe(201);
    const after = (await p.http('GET', `/api/transport/journey/${plantId}`, { token: grower })).body;
    expect(after.data.find((e: { id: string }) => e.id === harvest.id).correctedBy).toBe(fixed.body.data.id);
    expect(after.meta.totals.events).toBe(before.meta.totals.events);
    // The running totals took the corrected event out and the correction in.
    const whole = await wholeJourney(plantId);
    expect(whole.totals).toEqual(whole.expected);

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

  it('takes the caller as handler by default: the seven OpenAPI examples, sent in order by a new user, all record', async () => {
    const fresh = await p.token('USER', 'usr_fresh');
    // The distribution example hands the plant to an account: it exists, as in the documented walk.
    await p.token('USER', 'usr_01HZX3K6Q2W8N4B7T5R9V0C1ME', 'Bob Visser');
    type Media = { schema?: { examples?: unknown[]; example?: unknown }; example?: unknown };
    const doc = (await p.http('GET', '/api/openapi.json')).body as {
      paths: Record<string, { post: { requestBody: { content: Record<string, Media> } } }>;
    };
    const mine = await p.http('POST', '/api/plants/register', {
      token: fresh,
      body: plantInput({ owner: { id: 'usr_fresh' } }),
    });
    const plant = mine.body.data.id as string;
    const kinds = ['seed-acquisition', 'planting', 'growing', 'harvest', 'distribution', 'seed-saving', 'seed-sharing'];
    for (const kind of kinds) {
      const media = doc.paths[`/api/transport/${kind}`]!.post.requestBody.content['application/json']!;
      const example = (media.schema?.examples?.[0] ?? media.schema?.example ?? media.example) as Record<
        string,
        unknown
      >;
      expect(example.handler).toBeUndefined();
      const body = example.plantId ? { ...example, plantId: plant } : example;
      const res = await post(kind, body, fresh);
      expect(res.status, `${kind}: ${JSON.stringify(res.body)}`).toBe(201);
    }
    const journey = await p.http('GET', `/api/transport/journey/${plant}`, { token: fresh });
    const events = journey.body.data as { kind: string; handler: unknown }[];
    expect(events.find((e) => e.kind === 'planting')?.handler).toEqual({ id: 'usr_fresh', name: 'Test USER' });
    expect(new Set(events.map((e) => JSON.stringify(e.handler)))).toEqual(
      new Set([JSON.stringify({ id: 'usr_fresh', name: 'Test USER' })]),
    );
    // An id alone takes its account's name; another account is ADMIN-only, and named as its account is (ADR 176).
    const own = await post(
      'growing',
      { plantId: plant, eventTime: '2026-10-01T09:00:00+02:00', handler: { id: 'usr_fresh' }, to: AMSTERDAM },
      fresh,
    );
    expect(own.status).toBe(201);
    const someone = { seedLotId: 'lot_fresh-1', eventTime: at(27), handler: { id: 'usr_fresh' }, to: AMSTERDAM };
    const refused = await post('seed-saving', someone, other);
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toMatchObject({ field: 'handler.id', reason: 'not-self' });
    const misnamed = await post('seed-saving', { ...someone, handler: { id: 'usr_fresh', name: 'Ada' } }, admin);
    expect(misnamed.status).toBe(400);
    expect(misnamed.body.error.details).toMatchObject({ field: 'handler.name', reason: 'not-account-name' });
    const nameless = await post('seed-saving', someone, admin);
    expect(nameless.status, JSON.stringify(nameless.body)).toBe(201);
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
    const events = (await p.http('GET', `/api/transport/journey/${plantId}`, { token: grower })).body.data;
    const event = events[1];
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
  it('answers a retry with the same Idempotency-Key with the first 201 (same id and block hash) and records one event', async () => {
    const key = randomUUID();
    const body = {
      plantId,
      eventTime: at(28),
      handler: HANDLER,
      from: AMSTERDAM,
      to: UTRECHT,
      transportMode: 'cargo-bike',
      notes: `retried ${key}`,
    };
    const send = () =>
      p.app.inject({
        method: 'POST',
        url: '/api/transport/growing',
        headers: { authorization: `Bearer ${grower}`, 'idempotency-key': key },
        payload: body,
      });
    const first = await send();
    const again = await send();
    expect(first.statusCode, first.body).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const [a, b] = [first.json().data, again.json().data];
    expect(b).toEqual(a);
    expect(b.blockHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await eventCount(sql`notes = ${body.notes}`)).toBe(1);
    const journey = await wholeJourney(plantId);
    expect(ids(journey.events).filter((id) => id === a.id)).toHaveLength(1);
    expect(journey.totals).toEqual((await wholeJourney(plantId)).expected);
  });

  it("keeps a plant's journey forward in time under concurrent events: each accepted one is no earlier than those before it", async () => {
    const plant = await p.http('POST', '/api/plants/register', {
      token: grower,
      body: plantInput({ owner: { id: 'usr_grower', name: 'Ada Grower' } }),
    });
    const racing = plant.body.data.id as string;
    // Sent at once, latest first: checked one by one against the same stored journey, all would pass.
    const days = [27, 24, 21, 18, 26, 15, 12, 23, 9, 20];
    const answers = await Promise.all(
      days.map((day) =>
        post('growing', { plantId: racing, eventTime: at(day), handler: HANDLER, to: AMSTERDAM, notes: `day ${day}` }),
      ),
    );
    for (const res of answers) {
      expect([201, 400], JSON.stringify(res.body)).toContain(res.status);
      if (res.status === 400) {
        expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'eventTime' } });
        expect(res.body.error.message).toContain('cannot run backwards in time');
      }
    }
    const accepted = answers
      .filter((r) => r.status === 201)
      .map((r) => r.body.data as { id: string; timestamp: string });
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThan(days.length);
    const journey = await wholeJourney(racing);
    const { expected } = journey;
    expect(ids(journey.events).sort()).toEqual(accepted.map((a) => a.id).sort());
    expect(journey.totals).toEqual(expected);
    // In the order they were accepted (recording time), their instants never go back.
    type E = { eventTime: string; recordedAt: string };
    const byRecording = [...(journey.events as E[])].sort(
      (x, y) => x.recordedAt.localeCompare(y.recordedAt) || Date.parse(x.eventTime) - Date.parse(y.eventTime),
    );
    const instants = byRecording.map((e) => Date.parse(e.eventTime));
    expect(instants).toEqual([...instants].sort((x, y) => x - y));
    // The latest sent is always accepted; an event refused names a later one as the plant's latest.
    expect(journey.events.some((e: E) => e.eventTime === at(27))).toBe(true);
    const pending = (await p.database.db.execute(
      sql`select count(*)::int as n from transport.pending_events where plant_id = ${racing}`,
    )) as unknown as { n: number }[];
    expect(pending[0]!.n).toBe(0);
  });
  it('counts an event still on its way to the ledger in the time order, and drops a reservation whose write never started', async () => {
    const plant = await p.http('POST', '/api/plants/register', {
      token: grower,
      body: plantInput({ owner: { id: 'usr_grower', name: 'Ada Grower' } }),
    });
    const id = plant.body.data.id as string;
    // An accepted event of day 20 not stored yet: its reservation, as a concurrent request leaves it.
    await p.database.db.execute(sql`insert into transport.pending_events (id, plant_id, tx_id, event_at, created_at)
      values ('tev_01JPENDING0000000000000000', ${id}, 'tx_01JPENDING0000000000000000', ${at(20)}::timestamptz, now())`);
    const body = { plantId: id, eventTime: at(10), handler: HANDLER, to: AMSTERDAM };
    const refused = await post('growing', body);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain(new Date(at(20)).toISOString());
    // Older than LEDGER_RECOVER_AFTER_SECONDS with no ledger intent: its write never started, it no longer counts.
    await p.database.db.execute(
      sql`update transport.pending_events set created_at = now() - interval '1 hour' where plant_id = ${id}`,
    );
    expect((await post('growing', body)).status).toBe(201);
    const left = (await p.database.db.execute(
      sql`select count(*)::int as n from transport.pending_events where plant_id = ${id}`,
    )) as unknown as { n: number }[];
    expect(left[0]!.n).toBe(0);
  });
});
