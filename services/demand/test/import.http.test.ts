import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxAbout, startDemandPlatform, type TestPlatform } from './support.js';

// An ADMIN moves households and their past weekly demand over from another system: the households count at once
// when settled long enough, and the forecast reads the imported weeks.

const UTRECHT = { latitude: 52.09, longitude: 5.12, city: 'Utrecht', country: 'NL' };
const HOUSEHOLDS = ['usr_i1', 'usr_i2', 'usr_i3', 'usr_i4', 'usr_i5', 'usr_i6'];

/** The Monday `weeksAgo` weeks before this week's, as YYYY-MM-DD. */
function mondayWeeksAgo(weeksAgo: number): string {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7) - 7 * weeksAgo);
  return d.toISOString().slice(0, 10);
}

describe('importing demand data', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startDemandPlatform();
    for (const sub of HOUSEHOLDS) {
      const saved = await p.http('POST', '/api/demand/preferences', {
        role: 'USER',
        sub,
        body: {
          location: UTRECHT,
          householdSize: 2,
          items: [{ crop: 'lettuce', quantityPerWeek: 2, unit: 'piece' }],
        },
      });
      expect(saved.status).toBe(201);
    }
  });
  afterAll(async () => p?.stop());

  const signal = () =>
    p.http('POST', '/api/demand/signal', {
      role: 'GROWER',
      sub: 'usr_grower',
      body: { region: { country: 'NL', city: 'Utrecht' }, horizonWeeks: 2 },
    });

  it('is refused to anyone but an ADMIN', async () => {
    const res = await p.http('POST', '/api/demand/import', {
      role: 'FARM_MANAGER',
      sub: 'usr_f',
      body: { households: [{ consumerId: 'usr_i1', settledSince: '2026-01-01T00:00:00Z' }] },
    });
    expect(res.status).toBe(403);
    expect(res.body.success).toBe(false);
  });

  it('refuses a settled date in the future and a week that is not a past Monday, naming the field', async () => {
    const future = await p.http('POST', '/api/demand/import', {
      role: 'ADMIN',
      sub: 'usr_admin',
      body: { households: [{ consumerId: 'usr_i1', settledSince: new Date(Date.now() + 86_400_000).toISOString() }] },
    });
    expect(future.status).toBe(400);
    expect(future.body.error.details).toMatchObject({ field: 'households.0.settledSince' });
    const thisWeek = await p.http('POST', '/api/demand/import', {
      role: 'ADMIN',
      sub: 'usr_admin',
      body: { history: [{ crop: 'lettuce', region: 'NL/utrecht', weekStart: mondayWeeksAgo(0), demandKg: 3 }] },
    });
    expect(thisWeek.status).toBe(400);
    expect(thisWeek.body.error.details).toMatchObject({ field: 'history.0.weekStart' });
  });

  it('counts imported households settled long enough at once, and forecasts from the imported weeks', async () => {
    // New households: the region is refused (none settled yet).
    expect((await signal()).status).toBe(400);
    const weeks = [8, 7, 6, 5, 4, 3, 2, 1].map((ago, i) => ({
      crop: 'lettuce' as const,
      region: 'NL/Utrecht',
      weekStart: mondayWeeksAgo(ago),
      demandKg: 10 + i,
    }));
    const res = await p.http('POST', '/api/demand/import', {
      role: 'ADMIN',
      sub: 'usr_admin',
      body: {
        households: [...HOUSEHOLDS, 'usr_nobody'].map((consumerId) => ({
          consumerId,
          settledSince: new Date(Date.now() - 60 * 86_400_000).toISOString(),
        })),
        history: weeks,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ households: 6, missing: ['usr_nobody'], weeks: 8 });
    // The import is in the audit log: who imported, which households now count, how many weeks.
    const recorded = (await outboxAbout(p, 'usr_admin')).filter((e) => e.subject === 'evt.demand.history.imported');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.payload).toMatchObject({ adminId: 'usr_admin', weeks: 8 });
    expect([...((recorded[0]?.payload.households ?? []) as string[])].sort()).toEqual([...HOUSEHOLDS].sort());

    const accepted = await signal();
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.consumers).toBeGreaterThanOrEqual(5);

    const forecast = await p.http('GET', '/api/demand/forecast?crop=lettuce&region=NL/utrecht&weeks=2', {
      role: 'GROWER',
      sub: 'usr_grower',
    });
    expect(forecast.status).toBe(200);
    // The eight imported weeks, then this week's, which the signal recorded.
    expect(forecast.body.data.basedOnWeeks).toBeGreaterThanOrEqual(8);
    expect(forecast.body.data.history.slice(0, 8).map((w: { demandKg: number }) => w.demandKg)).toEqual(
      weeks.map((w) => w.demandKg),
    );

    // Imported again: the recorded weeks are kept, none stored twice.
    const again = await p.http('POST', '/api/demand/import', {
      role: 'ADMIN',
      sub: 'usr_admin',
      body: { history: weeks.map((w) => ({ ...w, demandKg: 99 })) },
    });
    expect(again.body.data).toEqual({ households: 0, missing: [], weeks: 0 });
  });
});
