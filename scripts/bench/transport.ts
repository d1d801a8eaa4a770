import { loadavg } from 'node:os';
import { api, plantInput } from '@rootline/testing';
import postgres from 'postgres';
import { ms, NO_LIMIT, sequential, startPlatformCluster } from './lib/http-bench.js';
import { startBenchInfra } from './lib/infra.js';
import { type LoadResult, runLoad } from './lib/load.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

/** Events of the plant whose journey is read. */
const JOURNEY_EVENTS = 1000;
/** Journey reads, one at a time. */
const JOURNEY_READS = 300;
const JOURNEY_TARGET_P50_MS = 10;
/** Distinct bodies the connections send in turn. */
const BODIES = 200;

const load1 = () => fmt(loadavg()[0] ?? 0, 2);

/** A fresh account per run: the sign-in limits count per address in a store that outlives the database. */
async function caller(url: string): Promise<{ token: string; userId: string }> {
  const account = {
    email: `bench-transport-${process.pid}-${Math.round(performance.timeOrigin)}@example.org`,
    password: 'correct horse battery staple',
  };
  const registered = await api(url, '/api/auth/register', { body: { ...account, name: 'Bench' } });
  if (registered.status !== 201) throw new Error(`account: ${registered.status} ${JSON.stringify(registered.body)}`);
  const signedIn = await api(url, '/api/auth/signin', { body: account });
  if (signedIn.status !== 200) throw new Error(`sign-in: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
  return { token: signedIn.body.data.token, userId: registered.body.data.id };
}

/** The id of the i-th seeded journey event (in time order). */
const seededId = (i: number) => `tev_bench${String(i).padStart(10, '0')}`;

/**
 * 1,000 events of one plant written straight into the transport tables (what 1,000 accepted events leave there:
 * the rows and the plant's running totals), so the read is measured without minutes of seeding through the ledger.
 */
async function seedJourney(databaseUrl: string, plantId: string, userId: string): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const start = Date.parse('2026-01-01T00:00:00Z');
    const rows = Array.from({ length: JOURNEY_EVENTS }, (_, i) => {
      const at = new Date(start + i * 3_600_000).toISOString();
      return {
        id: seededId(i),
        kind: i === 0 ? 'planting' : 'growing',
        plant_id: plantId,
        event_time: at,
        event_at: at,
        to_location: { latitude: 52.37, longitude: 4.9, city: 'Amsterdam', country: 'NL' },
        from_location: { latitude: 52.09, longitude: 5.12, city: 'Utrecht', country: 'NL' },
        privacy_level: 'city',
        transport_mode: 'cargo-bike',
        distance_km: 35,
        mass_kg: 10,
        kg_co2e: 0,
        handler_id: userId,
        handler_name: 'Bench',
        sensor_readings: [{ at, temperatureC: 4.2, humidityPercent: 90 }],
        recorded_at: at,
        block_index: 1,
        block_hash: 'a'.repeat(64),
        tx_id: `tx_bench${String(i).padStart(10, '0')}`,
      };
    });
    await sql`insert into transport.events ${sql(rows)}`;
    await sql`insert into transport.journey_totals (subject, recorded, in_force, distance_km, kg_co2e, latest_at)
      select plant_id, count(*), count(*), sum(distance_km), sum(kg_co2e), max(event_at)
      from transport.events where plant_id = ${plantId} group by plant_id`;
  } finally {
    await sql.end();
  }
}

function loadRow(name: string, r: LoadResult, loadAvg: string): string[] {
  return [name, fmt(r.requestsPerSecond, 1), fmt(r.latency.p50), fmt(r.latency.p99), fmt(r.non2xx), loadAvg];
}

/**
 * Journey-event ingest through the API against plant registration in the same run (both one ledger write of about
 * the same size each), then the latency of reading a journey of 1,000 events.
 */
export const transport: Benchmark = {
  name: 'transport',
  title: 'Transport: event ingest against plant registration, and journey reads',
  timeLimitSeconds: (s) => 2 * (s.warmupSeconds + s.durationSeconds) + 240,
  async run(ctx: BenchContext): Promise<BenchReport> {
    const { settings } = ctx;
    const infra = await startBenchInfra(ctx);
    ctx.log('starting the cluster (one process per service, and the gateway)');
    const { cluster } = await startPlatformCluster(
      ctx,
      { natsUrl: infra.nats.url, databaseUrl: infra.db.url },
      { AUTH_RATE_LIMIT_PER_MINUTE: NO_LIMIT },
    );
    const url = cluster.url;
    const { token, userId } = await caller(url);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const owner = { id: userId, name: 'Bench' };
    const plant = await api(url, '/api/plants/register', { token, body: plantInput({ owner }) });
    if (plant.status !== 201) throw new Error(`plant: ${plant.status} ${JSON.stringify(plant.body)}`);

    // Seed-lot events: the time-order rule of a plant would refuse repeated bodies sent concurrently.
    const events = Array.from({ length: BODIES }, (_, i) => ({
      method: 'POST',
      path: '/api/transport/seed-acquisition',
      body: JSON.stringify({
        seedLotId: `lot_bench-${i}`,
        quantity: { value: 50, unit: 'seeds' },
        eventTime: '2026-05-04T09:30:00+02:00',
        handler: owner,
        from: { latitude: 52.09, longitude: 5.12, city: 'Utrecht', country: 'NL' },
        to: { latitude: 52.37, longitude: 4.9, city: 'Amsterdam', country: 'NL' },
        transportMode: 'bicycle',
        massKg: 0.05,
      }),
    }));
    const plants = Array.from({ length: BODIES }, () => ({
      method: 'POST',
      path: '/api/plants/register',
      body: JSON.stringify(plantInput({ owner })),
    }));
    const common = {
      url,
      paths: [],
      headers,
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      warmupSeconds: settings.warmupSeconds,
    };
    ctx.log(`  ingest: ${settings.warmupSeconds} s warm-up, ${settings.durationSeconds} s measured each`);
    const registerLoad = load1();
    const register = await runLoad(ctx.scope, { ...common, requests: plants });
    const ingestLoad = load1();
    const ingest = await runLoad(ctx.scope, { ...common, requests: events });

    ctx.log(`  journey: ${JOURNEY_EVENTS} events, ${JOURNEY_READS} reads one at a time`);
    await seedJourney(infra.db.url, plant.body.data.id, userId);
    const path = `/api/transport/journey/${plant.body.data.id}`;
    const probe = await api(url, path, { token });
    if (probe.status !== 200 || probe.body.pagination.total !== JOURNEY_EVENTS) {
      throw new Error(`journey: ${probe.status} with ${probe.body?.pagination?.total} events`);
    }
    await sequential(url, [path], headers, { requests: 30 });
    const journeyLoad = load1();
    const journey = await sequential(url, [path], headers, { requests: JOURNEY_READS });
    const fullPath = `${path}?limit=${JOURNEY_EVENTS}`;
    await sequential(url, [fullPath], headers, { requests: 10 });
    const fullLoad = load1();
    const full = await sequential(url, [fullPath], headers, { requests: JOURNEY_READS });
    // The last page of 100, by page number (reads 1,000 rows off the index) and by cursor (a range scan of 100).
    const deepPath = `${path}?page=${JOURNEY_EVENTS / 100}`;
    const cursorPath = `${path}?after=${seededId(JOURNEY_EVENTS - 101)}`;
    const byCursor = await api(url, cursorPath, { token });
    if (byCursor.body?.data?.[0]?.id !== seededId(JOURNEY_EVENTS - 100)) {
      throw new Error(`journey by cursor: ${byCursor.status} starting at ${byCursor.body?.data?.[0]?.id}`);
    }
    await sequential(url, [deepPath, cursorPath], headers, { requests: 20 });
    const deepLoad = load1();
    const deep = await sequential(url, [deepPath], headers, { requests: JOURNEY_READS });
    const cursorLoad = load1();
    const cursor = await sequential(url, [cursorPath], headers, { requests: JOURNEY_READS });

    const ingestTable: Table = {
      head: ['write', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'load avg (1 min)'],
      rows: [
        loadRow('POST /api/plants/register', register, registerLoad),
        loadRow('POST /api/transport/seed-acquisition', ingest, ingestLoad),
      ],
    };
    const journeyTable: Table = {
      head: ['read', 'requests', 'p50 ms', 'p90 ms', 'p99 ms', 'non-2xx', 'load avg (1 min)'],
      rows: [
        [
          `GET journey, first page (100 of ${JOURNEY_EVENTS} events, totals over all)`,
          fmt(journey.requests),
          ms(journey.p50),
          ms(journey.p90),
          ms(journey.p99),
          fmt(journey.non2xx),
          journeyLoad,
        ],
        [
          `GET journey, all ${JOURNEY_EVENTS} events in one page`,
          fmt(full.requests),
          ms(full.p50),
          ms(full.p90),
          ms(full.p99),
          fmt(full.non2xx),
          fullLoad,
        ],
        [
          `GET journey, last page by number (?page=${JOURNEY_EVENTS / 100})`,
          fmt(deep.requests),
          ms(deep.p50),
          ms(deep.p90),
          ms(deep.p99),
          fmt(deep.non2xx),
          deepLoad,
        ],
        [
          'GET journey, last page by cursor (?after=)',
          fmt(cursor.requests),
          ms(cursor.p50),
          ms(cursor.p90),
          ms(cursor.p99),
          fmt(cursor.non2xx),
          cursorLoad,
        ],
      ],
    };
    const ratio = ingest.requestsPerSecond / Math.max(1e-9, register.requestsPerSecond);
    const verdict =
      `Ingest ${fmt(ingest.requestsPerSecond, 1)} events/s against ${fmt(register.requestsPerSecond, 1)} ` +
      `registrations/s (${fmt(ratio, 2)} ×; target ≥ 1). Journey p50 ${ms(journey.p50)} ms for the first page, ` +
      `${ms(full.p50)} ms for all events at once (target ≤ ${JOURNEY_TARGET_P50_MS} ms).`;
    return {
      text: `${textTable(ingestTable)}\n\n${textTable(journeyTable)}\n\n${verdict}`,
      markdown: [
        `${settings.connections} connections, ${settings.durationSeconds} s measured after ${settings.warmupSeconds} s ` +
          'of warm-up, registrations first, then events, on the cluster (one process per service). Each answered ' +
          'write is a ledger transaction in a mined block.',
        '',
        markdownTable(ingestTable),
        '',
        `Journey read: one plant with ${JOURNEY_EVENTS} events (seeded straight into \`transport.events\`), read ` +
          `${JOURNEY_READS} times one at a time after unmeasured reads: the default first page, all events in one page, ` +
          'then the last page of 100 by page number and by cursor.',
        '',
        markdownTable(journeyTable),
        '',
        verdict,
      ].join('\n'),
    };
  },
};
