import { plantInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTransportPlatform, type TestPlatform } from './support.js';

const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' };
const UTRECHT = { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' };
const HANDLER = { id: 'usr_grower', name: 'Ada Grower' };

describe('transport tracker over HTTP on NATS and PostgreSQL', () => {
  let p: TestPlatform;
  let grower: string;
  let reader: string;
  let admin: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    p = await startTransportPlatform({ TRANSPORT_TRACKER_POLL_MS: '100' });
    grower = await p.token('GROWER', HANDLER.id, HANDLER.name);
    reader = await p.token('USER', 'usr_reader');
    admin = await p.token('ADMIN', 'usr_admin');
    const plant = await p.http('POST', '/api/plants/register', {
      token: grower,
      body: plantInput({ owner: { id: 'usr_grower', name: 'Ada Grower' } }),
    });
    const plantId = plant.body.data.id;
    const moves: [string, Record<string, unknown>][] = [
      ['clean', { transportMode: 'cargo-bike', massKg: 20 }],
      ['air', { transportMode: 'air', massKg: 10 }],
      [
        'warm',
        {
          transportMode: 'hgv-refrigerated',
          massKg: 100,
          sensorReadings: [
            { at: '2026-06-01T10:00:00+02:00', temperatureC: 4 },
            { at: '2026-06-01T11:00:00+02:00', temperatureC: 11.5 },
          ],
        },
      ],
      ['detour', { transportMode: 'electric-van', massKg: 50, distanceKm: 200 }],
      ['empty', { transportMode: 'diesel-van' }],
    ];
    for (const [i, [name, extra]] of moves.entries()) {
      const res = await p.http('POST', '/api/transport/distribution', {
        token: grower,
        body: {
          plantId,
          eventTime: `2026-06-0${i + 1}T09:00:00+02:00`,
          handler: HANDLER,
          from: AMSTERDAM,
          to: UTRECHT,
          ...extra,
        },
      });
      expect(res.status, name).toBe(201);
      ids[name] = res.body.data.id;
    }
  });
  afterAll(async () => p?.stop());

  const status = () => p.http('GET', '/api/agents/transport-tracker', { token: grower });
  const control = (action: unknown, token = admin) =>
    p.http('POST', '/api/agents/transport-tracker', { token, body: { action } });

  it('starts stopped; reading needs agents:read', async () => {
    const res = await status();
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      agent: 'transport-tracker',
      state: 'stopped',
      allowedActions: ['start', 'run'],
      runs: 0,
      lastRunAt: null,
      nextRunAt: null,
      counts: { eventsScanned: 0, patternsFound: 0, events: 5 },
    });
    expect((await p.http('GET', '/api/agents/transport-tracker', { token: reader })).status).toBe(403);
    expect((await p.http('GET', '/api/agents/transport-tracker')).status).toBe(401);
  });

  it('refuses an unknown action (400), a forbidden move (409 with what is allowed), and control without agents:control', async () => {
    const unknown = await control('fly');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.map((d: { field: string }) => d.field)).toContain('body/action');
    const pause = await control('pause');
    expect(pause.status).toBe(409);
    expect(pause.body.error).toEqual({
      code: 'CONFLICT',
      message: 'Cannot pause the transport tracker while it is stopped; allowed: start, run',
      details: { state: 'stopped', action: 'pause', allowedActions: ['start', 'run'] },
    });
    expect((await control('run', grower)).status).toBe(403);
  });

  it('answers the same refused move alike from the transport tracker and the lineage agent: 409 CONFLICT', async () => {
    const tracker = await control('stop');
    const lineage = await p.http('POST', '/api/agents/lineage', { token: admin, body: { action: 'stop' } });
    for (const [agent, res] of [
      ['transport tracker', tracker],
      ['lineage agent', lineage],
    ] as const) {
      expect(res.status, agent).toBe(409);
      expect(res.body.error).toMatchObject({
        code: 'CONFLICT',
        message: expect.stringContaining(`Cannot stop the ${agent} while it is stopped`),
        details: { state: 'stopped', action: 'stop' },
      });
    }
  });

  it('runs one cycle now without changing state, and lists the patterns it found, filterable by kind', async () => {
    const run = await control('run');
    expect(run.status).toBe(200);
    expect(run.body.data).toMatchObject({ state: 'stopped', runs: 1, counts: { eventsScanned: 5 } });
    expect(run.body.data.lastRunAt).not.toBeNull();

    const all = await p.http('GET', '/api/agents/transport-tracker/patterns?limit=100', { token: grower });
    expect(all.status).toBe(200);
    const found = all.body.data.map((x: { kind: string; eventId: string }) => `${x.kind}:${x.eventId}`).sort();
    expect(found).toEqual(
      [
        `high-carbon:${ids.air}`,
        `cold-chain-break:${ids.warm}`,
        `long-detour:${ids.detour}`,
        `high-carbon:${ids.detour}`,
        `empty-run:${ids.empty}`,
        `high-carbon:${ids.empty}`,
      ].sort(),
    );
    expect(all.body.pagination.total).toBe(6);
    const cold = await p.http('GET', '/api/agents/transport-tracker/patterns?kind=cold-chain-break', { token: grower });
    expect(cold.body.data).toEqual([
      expect.objectContaining({ eventId: ids.warm, reason: '1 of 2 readings above 8 °C (highest 11.5 °C)' }),
    ]);
    expect((await p.http('GET', '/api/agents/transport-tracker/patterns?kind=slow', { token: grower })).status).toBe(
      400,
    );
  });

  it('moves through start, pause, run (stays paused), resume and stop', async () => {
    const started = await control('start');
    expect(started.body.data).toMatchObject({ state: 'running', allowedActions: ['pause', 'stop', 'run'] });
    expect(started.body.data.nextRunAt).not.toBeNull();
    await expect.poll(async () => (await status()).body.data.runs, { timeout: 10_000 }).toBe(2);
    expect((await control('start')).status).toBe(409);
    expect((await control('pause')).body.data.state).toBe('paused');
    const ran = await control('run');
    expect(ran.body.data).toMatchObject({ state: 'paused', runs: 3 });
    expect((await control('resume')).body.data.state).toBe('running');
    expect((await control('stop')).body.data).toMatchObject({ state: 'stopped', nextRunAt: null });
  });

  it('gives network and per-user analytics with an efficiency rating', async () => {
    const res = await p.http('GET', '/api/agents/transport-tracker/analytics', { token: grower });
    expect(res.status).toBe(200);
    const { network, users } = res.body.data;
    expect(network).toMatchObject({ events: 5, users: 1, plants: 1, seedLots: 0 });
    expect(Object.keys(network.byMode).sort()).toEqual([
      'air',
      'cargo-bike',
      'diesel-van',
      'electric-van',
      'hgv-refrigerated',
    ]);
    expect(users).toHaveLength(1);
    const u = users[0];
    expect(u).toMatchObject({ userId: 'usr_grower', events: 5, deliveredKg: 180 });
    // 180 kg × 1640 km × 0.10163 kg CO2e per tonne-km.
    expect(u.baselineKgCo2e).toBeCloseTo(30.001, 3);
    const expected = Math.round(Math.min(100, Math.max(0, 100 * (1 - u.kgCo2e / u.baselineKgCo2e))) * 10) / 10;
    expect(u.efficiencyScore).toBe(expected);
    expect(['A', 'B', 'C', 'D', 'E']).toContain(u.rating);
  });

  it('reports savings against conventional logistics with cited equivalents', async () => {
    const res = await p.http('GET', '/api/agents/transport-tracker/savings', { token: grower });
    expect(res.status).toBe(200);
    const s = res.body.data;
    expect(s.deliveredKg).toBe(180);
    expect(s.baselineKgCo2e).toBeCloseTo(30.001, 3);
    expect(s.savedKgCo2e).toBeCloseTo(s.baselineKgCo2e - s.actualKgCo2e, 3);
    expect(s.equivalents.carKm).toBeCloseTo(s.savedKgCo2e / 0.16725, 0);
    expect(s.equivalents.treeYears).toBeCloseTo(s.savedKgCo2e / 6, 1);
    expect(s.factors.every((f: { source: string }) => f.source.length > 10)).toBe(true);
  });

  it("shows per-user figures only for the reader's own user id (an ADMIN sees all); others count only in aggregates", async () => {
    const neighbour = await p.token('GROWER', 'usr_neighbour', 'Nel Neighbour');
    const plant = await p.http('POST', '/api/plants/register', {
      token: neighbour,
      body: plantInput({ owner: { id: 'usr_neighbour', name: 'Nel Neighbour' } }),
    });
    const own = await p.http('POST', '/api/transport/distribution', {
      token: neighbour,
      body: {
        plantId: plant.body.data.id,
        eventTime: '2026-06-09T09:00:00+02:00',
        handler: { id: 'usr_neighbour', name: 'Nel Neighbour' },
        from: AMSTERDAM,
        to: UTRECHT,
        transportMode: 'bicycle',
        massKg: 5,
      },
    });
    expect(own.status).toBe(201);
    type U = { userId: string };
    const analytics = async (token: string) =>
      (await p.http('GET', '/api/agents/transport-tracker/analytics', { token })).body.data;
    const mine = await analytics(neighbour);
    expect(mine.network).toMatchObject({ events: 6, users: 2 });
    expect(mine.users.map((u: U) => u.userId)).toEqual(['usr_neighbour']);
    expect(mine.users[0]).toMatchObject({ events: 1, deliveredKg: 5 });
    expect((await analytics(grower)).users.map((u: U) => u.userId)).toEqual(['usr_grower']);
    expect((await analytics(admin)).users.map((u: U) => u.userId)).toEqual(['usr_grower', 'usr_neighbour']);

    // The last cycle's findings are all of usr_grower's events: the neighbour sees none of them.
    const patterns = async (token: string) =>
      (await p.http('GET', '/api/agents/transport-tracker/patterns?limit=100', { token })).body;
    const theirs = await patterns(neighbour);
    expect(theirs.data).toEqual([]);
    expect(theirs.pagination.total).toBe(0);
    expect((await patterns(grower)).pagination.total).toBe(6);
    expect((await patterns(admin)).data.every((x: U) => x.userId === 'usr_grower')).toBe(true);
    expect((await patterns(admin)).pagination.total).toBe(6);
  });
  it('the same move sent twice at once: one 200, the other 409 naming the state, which is the one stored (20 rounds)', async () => {
    // From stopped, running, paused, running: each move leaves a state the same move cannot leave again.
    const moves = [
      ['start', 'running'],
      ['pause', 'paused'],
      ['resume', 'running'],
      ['stop', 'stopped'],
    ] as const;
    if ((await status()).body.data.state !== 'stopped') expect((await control('stop')).status).toBe(200);
    for (let round = 0; round < 20; round++) {
      for (const [action, to] of moves) {
        const answers = await Promise.all([control(action), control(action)]);
        const label = `round ${round} ${action}: ${answers.map((a) => a.status)}`;
        expect(answers.map((a) => a.status).sort(), label).toEqual([200, 409]);
        expect(answers.find((a) => a.status === 200)!.body.data.state).toBe(to);
        const lost = answers.find((a) => a.status === 409)!;
        expect(lost.body.error).toMatchObject({ code: 'CONFLICT', details: { state: to, action } });
        expect((await status()).body.data.state).toBe(to);
      }
    }
  });
});
