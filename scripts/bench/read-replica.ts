import { createTestDatabase, startNatsServer, startReplicatedPostgres, type TestDatabase } from '@rootline/testing';
import postgres from 'postgres';
import { signIn, startPlatformCluster } from './lib/http-bench.js';
import { type LoadResult, runLoad } from './lib/load.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import { seedPlants } from './lib/seed-plants.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';
import { generate, pathOf, plantRows, queryPoints } from './nearby.js';

/** Plants seeded; `BENCH_REPLICA_PLANTS` changes it. */
const DEFAULT_PLANTS = 100_000;

/** The database on the replica: same name, the replica's port. */
function onReplica(db: TestDatabase, replicaPort: number): string {
  const url = new URL(db.url);
  url.port = String(replicaPort);
  return url.toString();
}

/** Waits until the replica has replayed everything the primary had written when called. */
async function caughtUp(primaryUrl: string, replicaUrl: string): Promise<void> {
  const primary = postgres(primaryUrl, { max: 1, onnotice: () => {} });
  const replica = postgres(replicaUrl, { max: 1, onnotice: () => {} });
  try {
    const [current] = await primary<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
    const lsn = current!.lsn;
    for (let i = 0; i < 600; i++) {
      const [row] = await replica<{ behind: boolean }[]>`
        select pg_last_wal_replay_lsn() < ${lsn}::pg_lsn as behind`;
      if (row?.behind === false) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('the replica did not catch up within 120 s');
  } finally {
    await primary.end();
    await replica.end();
  }
}

/** Transactions the server has committed in the database so far (a hot standby counts its read-only ones). */
async function commits(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ n: string }[]>`
      select xact_commit::text as n from pg_stat_database where datname = current_database()`;
    return Number(row?.n ?? 0);
  } finally {
    await sql.end();
  }
}

/**
 * The same read load through the whole platform on a PostgreSQL primary alone, then with a streaming replica for
 * the reads (`DATABASE_READ_URL`): throughput and latency of each, and where the reads were served.
 */
export const readReplica: Benchmark = {
  name: 'read-replica',
  title: 'Reads with a PostgreSQL streaming replica against without: nearby and plants by id',
  timeLimitSeconds: (s) => 1800 + 2 * (s.warmupSeconds + s.durationSeconds),
  async run(ctx: BenchContext): Promise<BenchReport> {
    const { settings, scope } = ctx;
    const count = Number(process.env.BENCH_REPLICA_PLANTS ?? DEFAULT_PLANTS);
    if (!Number.isInteger(count) || count < 1000) throw new Error('BENCH_REPLICA_PLANTS must be a whole number ≥ 1000');

    ctx.log('starting a private PostgreSQL primary and a streaming replica (initdb, pg_basebackup -R)');
    const pair = await startReplicatedPostgres();
    scope.defer(() => pair.stop());
    const nats = await startNatsServer();
    scope.defer(() => nats.stop());
    const db = await createTestDatabase('rl_bench', pair.primary.adminUrl);
    const replicaUrl = onReplica(db, pair.replica.port);

    const ds = generate(count);
    // The services' schemas come from their migrations, run by a first start of the cluster.
    ctx.log('migrating: a first start of the cluster');
    await (await startPlatformCluster(ctx, { natsUrl: nats.url, databaseUrl: db.url })).stop();
    ctx.log(`seeding ${fmt(count)} plants with COPY on the primary`);
    await seedPlants(db.url, plantRows(ds));
    await caughtUp(db.url, replicaUrl);

    const points = queryPoints(ds);
    const paths = [
      ...points.map(pathOf),
      ...points.map((_, i) => `/api/plants/${ds.ids[Math.floor((i * ds.ids.length) / points.length)]}`),
    ];

    const measure = async (label: string, env: NodeJS.ProcessEnv, email: string) => {
      ctx.log(`${label}: starting the cluster`);
      const { cluster, stop } = await startPlatformCluster(ctx, { natsUrl: nats.url, databaseUrl: db.url }, env);
      try {
        const headers = { authorization: `Bearer ${await signIn(cluster.url, email)}` };
        // Past the read-your-writes window of the sign-in (a write), so the reader's requests may go to the replica.
        await new Promise((r) => setTimeout(r, 6000));
        const before = { primary: await commits(db.url), replica: await commits(replicaUrl) };
        ctx.log(`${label}: ${settings.connections} connections`);
        const load: LoadResult = await runLoad(scope, {
          url: cluster.url,
          paths,
          headers,
          connections: settings.connections,
          durationSeconds: settings.durationSeconds,
          warmupSeconds: settings.warmupSeconds,
        });
        const after = { primary: await commits(db.url), replica: await commits(replicaUrl) };
        return { load, primary: after.primary - before.primary, replica: after.replica - before.replica };
      } finally {
        await stop();
      }
    };

    const alone = await measure('primary alone', {}, 'bench-replica-a@example.org');
    const withReplica = await measure(
      'with a replica',
      { DATABASE_READ_URL: replicaUrl },
      'bench-replica-b@example.org',
    );

    const row = (label: string, m: typeof alone) => [
      label,
      fmt(m.load.requests),
      fmt(m.load.requestsPerSecond),
      fmt(m.load.latency.p50),
      fmt(m.load.latency.p99),
      fmt(m.load.non2xx + m.load.errors),
      fmt(m.primary),
      fmt(m.replica),
    ];
    const results: Table = {
      head: [
        'database',
        'requests',
        'requests/s',
        'p50 ms',
        'p99 ms',
        'non-2xx',
        'transactions on the primary',
        'transactions on the replica',
      ],
      rows: [row('primary alone', alone), row('primary and a streaming replica', withReplica)],
    };
    const ratio = withReplica.load.requestsPerSecond / Math.max(1, alone.load.requestsPerSecond);
    const reading =
      `Throughput with the replica / without: **${fmt(ratio, 2)}**. Both servers run on this machine beside the ` +
      'platform, so the replica adds no cores here: the figure shows what routing reads costs, not the capacity a ' +
      'replica on its own machine adds.';
    const markdown = [
      `Data: **${fmt(count)} plants** (\`BENCH_REPLICA_PLANTS\`), the nearby benchmark's generator (clusters over ` +
        'Europe), written with COPY on the primary; the replica had replayed them before the load.',
      '',
      `Load: through the gateway and NATS (cluster mode, every service, compiled), ${settings.connections} ` +
        `connections from autocannon in its own process, ${settings.warmupSeconds} s of warm-up then ` +
        `${settings.durationSeconds} s measured, the same ${paths.length} paths in turn: half ` +
        "`GET /api/plants/nearby` at the nearby benchmark's query points, half `GET /api/plants/{id}`. The same " +
        'private PostgreSQL pair serves both runs: first the platform on the primary alone, then with ' +
        '`DATABASE_READ_URL` naming the replica (a fresh start of the cluster each). Transactions are ' +
        "`pg_stat_database.xact_commit` of the benchmark's database on each server over the measured run and its " +
        'warm-up, background work included.',
      '',
      markdownTable(results),
      '',
      reading,
    ].join('\n');
    const text = [textTable(results), '', reading.replaceAll('**', '')].join('\n');
    return { text, markdown };
  },
};
