import { Writable } from 'node:stream';
import { type Bus, createNatsBus } from '@rootline/bus';
import type { Location, PrivacyLevel } from '@rootline/contracts';
import { type Database, migrateSchema, openDatabase } from '@rootline/db';
import { applyPrivacyLevel } from '@rootline/domain';
import { createLogger, type Logger, startService } from '@rootline/host';
import { startTestInfra, type TestInfra } from '@rootline/testing';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events } from '../src/db/schema.js';
import { fillEventPlaces } from '../src/jobs/backfill-places.js';
import { service } from '../src/service.js';

const quiet = { info() {}, warn() {}, error() {} };
const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041 };
// A village of about 2,600 people: named at the exact level, never at the city level (15,000+ people).
const GIETHOORN = { latitude: 52.7397, longitude: 6.0781 };
const NAIROBI = { latitude: -1.2864, longitude: 36.8172 };
const NORTH_SEA = { latitude: 54.5, longitude: 3.5 };

/** A logger whose JSON lines are kept, to read the backfill's progress. */
function capturingLogger(): { log: Logger; lines: { msg: string; seen?: number; filled?: number }[] } {
  const lines: { msg: string; seen?: number; filled?: number }[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: createLogger('transport', 'info', sink), lines };
}

let n = 0;
/**
 * A journey event row as the service stores it, with locations as they were stored before reverse geocoding:
 * after the privacy level (`applyPrivacyLevel`, the same function the service applies), with no place.
 */
function storedEvent(level: PrivacyLevel, to: Location, from?: Location) {
  const disclose = (l: Location) => applyPrivacyLevel(l, level, () => 0.5);
  n++;
  const id = `tev_backfill${String(n).padStart(4, '0')}`;
  return {
    id,
    kind: 'distribution',
    plantId: null,
    seedLotId: 'lot_backfill',
    quantity: null,
    eventTime: '2026-05-01T09:30:00+02:00',
    eventAt: '2026-05-01T07:30:00.000Z',
    fromLocation: from ? disclose(from) : null,
    toLocation: disclose(to),
    privacyLevel: level,
    transportMode: 'cargo-bike',
    distanceKm: 0,
    massKg: 1,
    kgCo2e: 0,
    exactDistanceKm: 0,
    exactKgCo2e: 0,
    handlerId: 'usr_handler',
    handlerName: 'Ada',
    sensorReadings: [],
    recordedAt: '2026-05-01T07:31:00.000Z',
    blockIndex: 1,
    blockHash: 'a'.repeat(64),
    txId: `tx_${id}`,
  } satisfies typeof events.$inferInsert;
}

describe('place backfill of stored transport events on PostgreSQL', () => {
  let infra: TestInfra;
  let database: Database;
  const buses: Bus[] = [];

  beforeAll(async () => {
    infra = await startTestInfra();
    database = await openDatabase({ url: infra.pg.url, dataDir: '.' });
    await migrateSchema(database, { schema: 'transport', migrationsFolder: service.db!.migrationsFolder });
  });
  afterAll(async () => {
    for (const b of buses) await b.close();
    await database?.close();
    await infra?.stop();
  });
  beforeEach(async () => {
    await database.db.delete(events);
  });

  const read = async (ids: string[]) => {
    const rows = await database.db.select().from(events).where(inArray(events.id, ids));
    return new Map(rows.map((r) => [r.id, { from: r.fromLocation, to: r.toLocation }]));
  };

  it('fills the origins and destinations of events stored without places, sized by their privacy level', async () => {
    const rows = {
      exact: storedEvent('exact', AMSTERDAM, GIETHOORN),
      fuzzy: storedEvent('fuzzy', AMSTERDAM),
      city: storedEvent('city', GIETHOORN, AMSTERDAM),
      country: storedEvent('country', NAIROBI),
      hidden: storedEvent('hidden', AMSTERDAM, GIETHOORN),
      sea: storedEvent('exact', NORTH_SEA),
      // Given by its caller: kept as given, never looked up again.
      named: storedEvent('exact', { ...AMSTERDAM, city: 'Mokum', country: 'NL' }),
    };
    await database.db.insert(events).values(Object.values(rows));
    const before = await read(Object.values(rows).map((r) => r.id));
    const { log, lines } = capturingLogger();

    await fillEventPlaces({ db: database.db, log }, () => false);

    const after = await read(Object.values(rows).map((r) => r.id));
    const get = (k: keyof typeof rows) => after.get(rows[k].id)!;
    expect(get('exact')).toEqual({
      from: { ...GIETHOORN, city: 'Giethoorn', country: 'NL' },
      to: { ...AMSTERDAM, city: 'Amsterdam', country: 'NL' },
    });
    // Obfuscated points are named from what is stored, at the event's level: the 10 km cell over Giethoorn names
    // the nearest town of 15,000+ people; the country level names the country alone.
    expect(get('city').to).toEqual({ ...rows.city.toLocation, city: 'Steenwijk', country: 'NL' });
    expect(get('city').from).toEqual({ ...rows.city.fromLocation, city: 'Amsterdam', country: 'NL' });
    expect(get('fuzzy').to).toMatchObject({ ...rows.fuzzy.toLocation, country: 'NL' });
    expect(get('fuzzy').to).toHaveProperty('city');
    expect(get('country')).toEqual({ from: null, to: { ...rows.country.toLocation, country: 'KE' } });
    expect(get('hidden')).toEqual({ from: null, to: null });
    expect(get('sea')).toEqual(before.get(rows.sea.id));
    expect(get('named')).toEqual(before.get(rows.named.id));
    // The points themselves are never rewritten.
    for (const [id, loc] of after) {
      const was = before.get(id)!;
      for (const end of ['from', 'to'] as const) {
        if (was[end] === null) expect(loc[end]).toBeNull();
        else expect(loc[end]).toMatchObject({ latitude: was[end].latitude, longitude: was[end].longitude });
      }
    }

    // Progress in the log, per end of the events: origins (exact, city), destinations (all but hidden and named).
    const progress = lines.filter((l) => l.msg.startsWith('places filled for'));
    expect(progress.map((l) => l.msg)).toEqual([
      'places filled for 2 of 2 transport event origins',
      'places filled for 4 of 5 transport event destinations',
    ]);
    expect(lines.map((l) => l.msg)).toContain('place backfill of transport event destinations done');
  });

  it('is idempotent: a second run writes nothing and passes only the events with no place to find', async () => {
    const rows = [storedEvent('exact', AMSTERDAM, GIETHOORN), storedEvent('exact', NORTH_SEA)];
    await database.db.insert(events).values(rows);
    await fillEventPlaces({ db: database.db, log: createLogger('transport', 'silent') }, () => false);
    const first = await read(rows.map((r) => r.id));

    const { log, lines } = capturingLogger();
    await fillEventPlaces({ db: database.db, log }, () => false);
    expect(await read(rows.map((r) => r.id))).toEqual(first);
    expect(lines.filter((l) => l.msg.startsWith('places filled for')).map((l) => l.msg)).toEqual([
      'places filled for 0 of 1 transport event destinations',
    ]);
  });

  it('stops between batches when the service stops, and the next run goes on where it is needed', async () => {
    const rows = Array.from({ length: 5 }, () => storedEvent('exact', AMSTERDAM));
    await database.db.insert(events).values(rows);
    let batches = 0;
    const { log, lines } = capturingLogger();
    // Stopped after the first batch of two destinations.
    await fillEventPlaces({ db: database.db, log }, () => batches++ > 1, 2);
    const named = async () =>
      (await database.db.select().from(events)).filter((r) => (r.toLocation as Location).city === 'Amsterdam').length;
    expect(await named()).toBe(2);
    expect(lines.map((l) => l.msg)).toEqual([
      'places filled for 2 of 2 transport event destinations',
      'place backfill of transport event destinations stopped (the next start goes on)',
    ]);

    await fillEventPlaces({ db: database.db, log }, () => false, 2);
    expect(await named()).toBe(5);
  });

  it('runs after the service starts, with its progress in the service log', async () => {
    const row = storedEvent('exact', AMSTERDAM, GIETHOORN);
    await database.db.insert(events).values(row);
    const bus = await createNatsBus({ url: infra.nats.url, name: 'transport', log: quiet });
    buses.push(bus);
    const { log, lines } = capturingLogger();
    const running = await startService(service, { bus, database, log, env: {} });
    try {
      await expect
        .poll(() => lines.some((l) => l.msg === 'place backfill of transport event destinations done'), {
          timeout: 20_000,
        })
        .toBe(true);
      const [stored] = await database.db.select().from(events).where(eq(events.id, row.id));
      expect(stored?.toLocation).toEqual({ ...AMSTERDAM, city: 'Amsterdam', country: 'NL' });
      expect(stored?.fromLocation).toEqual({ ...GIETHOORN, city: 'Giethoorn', country: 'NL' });
      expect(lines.find((l) => l.msg === 'places filled for 1 of 1 transport event origins')).toMatchObject({
        seen: 1,
        filled: 1,
      });
    } finally {
      await running.stop();
    }
    const count = (await database.db.execute(sql`select count(*)::int as n from transport.events`)) as unknown as {
      n: number;
    }[];
    expect(count[0]!.n).toBe(1);
  });
});
