import { loadavg } from 'node:os';
import { createNatsBus } from '@rootline/bus';
import {
  analyticsOverviewGet,
  analyticsPlantsGet,
  analyticsSustainabilityGet,
  analyticsTransportGet,
  plantRegistered,
  transportCompleted,
} from '@rootline/contracts';
import { call } from '@rootline/host';
import { applyManyToAnalytics, applyToAnalytics } from '@rootline/transparency/analytics';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { quantile } from './lib/http-bench.js';
import { startBenchInfra } from './lib/infra.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import { seeded } from './lib/random.js';
import { startBenchTransparency } from './lib/transparency.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

/** Events applied in each configuration; `BENCH_ANALYTICS_EVENTS` changes it. */
const DEFAULT_EVENTS = 5000;
const BATCH = 100;
const REQUESTS = 100;
const SPECIES = 100;
const USERS = 500;
const MODES = ['none', 'bicycle', 'cargo-bike', 'electric-van', 'diesel-van', 'car', 'hgv-diesel', 'rail'];
const KINDS = ['seed-acquisition', 'planting', 'growing', 'harvest', 'distribution', 'seed-saving', 'seed-sharing'];

/** Plant registrations with a journey event every fifth event, over 100 species and 500 users. */
function events(count: number, random: () => number) {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
  const occurredAt = new Date().toISOString();
  return Array.from({ length: count }, (_, i) =>
    i % 5 === 4
      ? {
          subject: transportCompleted.subject,
          occurredAt,
          payload: {
            eventId: `tev_bench${i}`,
            kind: pick(KINDS),
            plantId: null,
            seedLotId: 'lot_bench',
            handlerId: `usr_bench${String(Math.floor(random() * USERS)).padStart(5, '0')}`,
            recipientId: null,
            transportMode: pick(MODES),
            distanceKm: random() * 50,
            kgCo2e: random() * 5,
            eventTime: occurredAt,
            corrects: null,
          },
        }
      : {
          subject: plantRegistered.subject,
          occurredAt,
          payload: {
            plantId: `plt_bench${i}`,
            commonName: 'Plant',
            scientificName: `Species ${Math.floor(random() * SPECIES)}`,
            privacyLevel: pick(['exact', 'fuzzy', 'city', 'country', 'hidden']),
          },
        },
  );
}

export const analyticsBench: Benchmark = {
  name: 'analytics',
  title: 'Analytics: counter upserts per event and per batch, and reads over a year of counters',
  timeLimitSeconds: () => 900,
  async run(ctx: BenchContext): Promise<BenchReport> {
    const count = Number(process.env.BENCH_ANALYTICS_EVENTS ?? DEFAULT_EVENTS);
    const infra = await startBenchInfra(ctx);
    const { database } = await startBenchTransparency(ctx, infra);
    const db = database.db;
    const random = seeded(11);
    const load = () => fmt(loadavg()[0] ?? 0, 2);

    // What the audit consumer's transaction costs with the added call, against the same transaction without it.
    const writes: Table = { head: ['transaction', 'events', 'ms per event', 'events/s', 'load avg'], rows: [] };
    const timed = async (name: string, n: number, run: () => Promise<void>) => {
      ctx.log(`measuring ${name}`);
      const t0 = performance.now();
      await run();
      const ms = performance.now() - t0;
      writes.rows.push([name, fmt(n), fmt(ms / n, 3), fmt((n / ms) * 1000), load()]);
      return ms / n;
    };
    // Every consumer transaction writes (its inbox row, the audit entry) and pays a commit with a WAL flush: the
    // baseline writes one row, and the analytics configurations write that row too, so the difference is theirs.
    await db.execute(sql`create table public.bench_scratch (id bigserial primary key, v text not null)`);
    const scratch = (tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) =>
      tx.execute(sql`insert into public.bench_scratch (v) values ('x')`);
    const baseline = await timed('one insert (the floor of a write transaction)', count, async () => {
      for (let i = 0; i < count; i++) await db.transaction(async (tx) => void (await scratch(tx)));
    });
    const perEvent = events(count, random);
    const single = await timed('one insert + applyToAnalytics, one event per transaction', count, async () => {
      for (const e of perEvent) {
        await db.transaction(async (tx) => {
          await scratch(tx);
          await applyToAnalytics(tx, e);
        });
      }
    });
    const batched = events(count, random);
    const batch = await timed(`one insert + applyManyToAnalytics, ${BATCH} events per transaction`, count, async () => {
      for (let i = 0; i < count; i += BATCH) {
        await db.transaction(async (tx) => {
          await scratch(tx);
          await applyManyToAnalytics(tx, batched.slice(i, i + BATCH));
        });
      }
    });

    ctx.log('seeding a year of counters');
    const pg = postgres(infra.db.url, { max: 1, onnotice: () => {} });
    ctx.scope.defer(() => pg.end());
    await pg`
      insert into transparency.analytics_daily (series, day, d1, d2, count)
      select 'plants', current_date - d, 'Species ' || s, (array['exact','fuzzy','city','country','hidden'])[1 + (s % 5)], 1 + (d + s) % 7
      from generate_series(0, 365) d, generate_series(0, ${SPECIES - 1}) s
      on conflict do nothing`;
    await pg`
      insert into transparency.analytics_daily (series, day, d1, d2, d3, count, distance_km, kg_co2e)
      select 'transport-user', current_date - d, 'usr_bench' || lpad(u::text, 5, '0'), 'distribution', 'diesel-van', 1, 10, 2.5
      from generate_series(0, 365) d, generate_series(0, ${USERS - 1}) u where (d + u) % 4 = 0
      on conflict do nothing`;
    await pg`
      insert into transparency.analytics_daily (series, day, d1, d2, count, distance_km, kg_co2e)
      select 'transport', current_date - d, k, m, 3, 30, 4
      from generate_series(0, 365) d, unnest(${KINDS}::text[]) k, unnest(${MODES}::text[]) m
      on conflict do nothing`;
    await pg`analyze transparency.analytics_daily`;
    const [counted] = await pg<{ rows: number }[]>`select count(*)::int as rows from transparency.analytics_daily`;
    const rows = counted?.rows ?? 0;

    const client = await createNatsBus({ url: infra.nats.url, name: 'bench-client' });
    ctx.scope.defer(() => client.close());
    const caller = { requestId: 'bench', actor: { id: 'usr_bench00001', role: 'ADMIN' as const } };
    const today = new Date();
    const from = new Date(today.getTime() - 365 * 86_400_000).toISOString().slice(0, 10);
    const year = { from, to: today.toISOString().slice(0, 10) };
    const reads: Table = { head: ['request (366 days)', 'p50 ms', 'p99 ms', 'load avg'], rows: [] };
    const measure = async (name: string, one: () => Promise<unknown>) => {
      ctx.log(`measuring ${name}`);
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const s = performance.now();
        await one();
        times.push(performance.now() - s);
      }
      times.sort((a, b) => a - b);
      reads.rows.push([name, fmt(quantile(times, 0.5), 2), fmt(quantile(times, 0.99), 2), load()]);
    };
    await measure('plants by species, by day', () =>
      call(client, analyticsPlantsGet, { ...year, groupBy: 'day', by: 'species' }, caller),
    );
    await measure('plants by species, by month', () =>
      call(client, analyticsPlantsGet, { ...year, groupBy: 'month', by: 'species' }, caller),
    );
    await measure('transport by mode, by week', () =>
      call(client, analyticsTransportGet, { ...year, groupBy: 'week', by: 'mode' }, caller),
    );
    await measure('overview, by month', () =>
      call(client, analyticsOverviewGet, { ...year, groupBy: 'month' }, caller),
    );
    await measure('sustainability with one user and top users (ADMIN)', () =>
      call(client, analyticsSustainabilityGet, { ...year, groupBy: 'month', userId: 'usr_bench00007' }, caller),
    );

    const markdown = [
      `**Writes.** ${fmt(count)} events per configuration (\`BENCH_ANALYTICS_EVENTS\`; four plant registrations ` +
        `for each journey event, over ${SPECIES} species and ${USERS} users), applied one transaction after ` +
        'another from one connection, as the audit consumer does (its appends are serial under the audit head ' +
        'lock).',
      '',
      markdownTable(writes),
      '',
      `So the counters add about **${fmt(single - baseline, 3)} ms** per event to the consumer's transaction ` +
        `when applied one by one (${fmt(single, 3)} against ${fmt(baseline, 3)} ms), and the batch form ` +
        `**${fmt(batch, 3)} ms per event** in batches of ${BATCH}, commit included (one upsert per batch, plus one ` +
        'insert of journey facts).',
      '',
      `**Reads.** ${fmt(rows)} counter rows (a year of ${SPECIES} species × privacy levels, ${USERS} users' ` +
        `journeys, kinds × modes), ${REQUESTS} requests of each over NATS, one at a time:`,
      '',
      markdownTable(reads),
    ].join('\n');
    return {
      text: `${textTable(writes)}\n${textTable(reads)}`,
      markdown,
    };
  },
};
