import { migrateSchema, openDatabase } from '@rootline/db';
import { service as plantsService } from '@rootline/plants';
import { createTestDatabase, startPostgresServer } from '@rootline/testing';
import { sql as dsql } from 'drizzle-orm';
import postgres from 'postgres';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import { cpuOf } from './lib/proc-cpu.js';
import type { Benchmark } from './lib/types.js';

const PLANTS = 1000;
/** Reads per variant and round: enough for the 10 ms ticks of /proc to be under 1 % of the total. */
const READS = 20_000;

/** The public columns of a plant, as the repository's `findPlant` reads them (services/plants, ADR 126). */
const PUBLIC_COLUMNS = [
  'id',
  'common_name',
  'scientific_name',
  'latitude',
  'longitude',
  'city',
  'country',
  'privacy_level',
  'owner_id',
  'owner_name',
  'wallet_address',
  'generation',
  'parent_id',
  'propagation_type',
  'block_index',
  'block_hash',
  'tx_id',
  'registered_at',
];

/** One way of reading a plant by id: its statement's text (given every column) and its connection's plan mode. */
interface Variant {
  name: string;
  planCacheMode: 'auto' | 'force_custom_plan';
  text(allColumns: string[]): string;
  limit: boolean;
}

/** drizzle's text of `select().from(plants).where(eq(plants.id, $1)).limit($2)`, the read before ADR 126. */
const builderText = (all: string[]) =>
  `select ${all.map((c) => `"${c}"`).join(', ')} from "plants"."plants" where "plants"."plants"."id" = $1 limit $2`;
const publicText = () =>
  `select ${PUBLIC_COLUMNS.map((c) => `p."${c}"`).join(', ')} from "plants"."plants" p where p.id = $1`;

const VARIANTS: Variant[] = [
  {
    name: 'every column, planned at every run (before)',
    planCacheMode: 'force_custom_plan',
    text: builderText,
    limit: true,
  },
  { name: 'every column, generic plan (ADR 125)', planCacheMode: 'auto', text: builderText, limit: true },
  { name: 'public columns, generic plan (ADR 125 and 126)', planCacheMode: 'auto', text: publicText, limit: false },
];

interface Measured {
  clientUs: number;
  backendUs: number;
  wallUs: number;
}

async function measure(url: string, variant: Variant, all: string[], ids: string[]): Promise<Measured> {
  // As openDatabase connects (one query at a time per connection), with the variant's plan mode.
  const sql = postgres(url, {
    max: 1,
    ...{ max_pipeline: 0 },
    onnotice: () => {},
    connection: { application_name: 'bench-plant-read', plan_cache_mode: variant.planCacheMode },
  });
  try {
    const [backend] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const pid = Number(backend?.pid);
    const text = variant.text(all);
    const read = (id: string) => sql.unsafe(text, variant.limit ? [id, 1] : [id], { prepare: true });
    for (let i = 0; i < 200; i++) await read(ids[i % ids.length]!);
    const b0 = cpuOf(pid);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < READS; i++) await read(ids[i % ids.length]!);
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const b1 = cpuOf(pid);
    if (!b0 || !b1) throw new Error('the backend went away');
    return {
      clientUs: (c.user + c.system) / READS,
      backendUs: ((b1.user + b1.system - b0.user - b0.system) * 1e6) / READS,
      wallUs: (wall * 1000) / READS,
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * A plant read by id, one at a time on one connection, in the ways it has been written: CPU time of the reading
 * process and of its PostgreSQL backend per read (from `process.cpuUsage` and `/proc`), which depends little on
 * what else runs on the machine, unlike requests per second.
 */
export const plantRead: Benchmark = {
  name: 'plant-read',
  title: 'A plant read by id: CPU per read in the reader and in PostgreSQL',
  timeLimitSeconds: (s) => 300 + s.rounds * 120,
  async run(ctx) {
    const { scope, settings } = ctx;
    ctx.log('starting a private PostgreSQL server');
    const server = await startPostgresServer({ settings: { autovacuum: 'off' } });
    scope.defer(() => server.stop());
    const pg = await createTestDatabase('rl_bench', server.adminUrl);
    scope.defer(() => pg.drop());
    const owner = await openDatabase({ url: pg.url, dataDir: '.' });
    scope.defer(() => owner.close());
    await migrateSchema(owner, { schema: 'plants', migrationsFolder: plantsService.db!.migrationsFolder });
    await owner.db.execute(dsql`
      insert into plants.plants (id, common_name, scientific_name, latitude, longitude, city, country, owner_id,
        owner_name, block_index, block_hash, tx_id, registered_at, search_species, search_location, search_owner)
      select 'plt_' || lpad(g::text, 26, '0'), 'Tomato ' || g, 'Solanum lycopersicum', 52 + random(), 5 + random(),
        'Utrecht', 'NL', 'usr_' || (g % 50), 'Grower ' || (g % 50), g, repeat('0', 64), 'tx_' || g, now(),
        'tomato solanum lycopersicum', 'utrecht nl', 'grower'
      from generate_series(1, ${PLANTS}::int) g`);
    await owner.db.execute(dsql`analyze plants.plants`);
    const columns = postgres(pg.url, { max: 1 });
    const all = (
      await columns<{ column_name: string }[]>`select column_name from information_schema.columns
        where table_schema = 'plants' and table_name = 'plants' order by ordinal_position`
    ).map((r) => r.column_name);
    await columns.end();
    const ids = Array.from({ length: PLANTS }, (_, i) => `plt_${String(((i * 7919) % PLANTS) + 1).padStart(26, '0')}`);

    const results = new Map<string, Measured[]>();
    for (let round = 0; round < settings.rounds; round++) {
      const order = round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
      for (const variant of order) {
        ctx.log(`round ${round + 1}: ${variant.name}`);
        results.set(variant.name, [...(results.get(variant.name) ?? []), await measure(pg.url, variant, all, ids)]);
      }
    }
    const mean = (runs: Measured[], f: (m: Measured) => number) => runs.reduce((a, m) => a + f(m), 0) / runs.length;
    const table: Table = {
      head: ['read', 'reader CPU µs/read', 'PostgreSQL backend CPU µs/read', 'together', 'wall µs/read'],
      rows: VARIANTS.map((v) => {
        const runs = results.get(v.name) ?? [];
        return [
          v.name,
          fmt(
            mean(runs, (m) => m.clientUs),
            1,
          ),
          fmt(
            mean(runs, (m) => m.backendUs),
            1,
          ),
          fmt(
            mean(runs, (m) => m.clientUs + m.backendUs),
            1,
          ),
          fmt(
            mean(runs, (m) => m.wallUs),
            1,
          ),
        ];
      }),
    };
    const markdown = [
      `Settings: ${fmt(READS)} reads per variant and round, one at a time on one connection of its own (postgres.js, one connection, ` +
        `\`max_pipeline: 0\` as \`openDatabase\` sets it, the statement prepared), after 200 reads not counted; ${settings.rounds} ` +
        `round${settings.rounds > 1 ? 's, alternating the order' : ''}; a fresh database on a private PostgreSQL ` +
        `server holding ${fmt(PLANTS)} plants (written with SQL, then ANALYZE). CPU time of the reading process ` +
        '(`process.cpuUsage`) and of its backend (`/proc/<pid>/stat`) over the counted reads, divided by them: time ' +
        'spent computing, which another load on the machine changes little, unlike wall time.',
      '',
      markdownTable(table),
    ].join('\n');
    return { text: textTable(table), markdown };
  },
};
