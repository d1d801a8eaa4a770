import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { newId, PAGE_DEFAULTS, SEARCH_EXACT_TOTAL_MAX, type SearchType } from '@rootline/contracts';
import { migrateSchema, openDatabase } from '@rootline/db';
import { normaliseSearchText } from '@rootline/domain';
import { api } from '@rootline/testing';
import { PgDialect } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import { searchStatement } from '../../services/plants/src/db/search.repo.js';
import { createSearchIndexFeed } from '../../services/plants/src/jobs/search-index.js';
import { clusterPid, loadRow, ms, sequential, sequentialRow, signIn, startPlatformCluster } from './lib/http-bench.js';
import { startBenchInfra } from './lib/infra.js';
import { runLoad } from './lib/load.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import { seeded } from './lib/random.js';
import { type SeedPlant, seedPlants } from './lib/seed-plants.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

/** Plants seeded; `BENCH_SEARCH_PLANTS` lowers it for a smoke run. */
const DEFAULT_PLANTS = 1_000_000;
/** Requests per query for the per-query table, one at a time (enough for a p99 that is not the maximum alone). */
const PER_QUERY_REQUESTS = 100;
/** The targets the figures are read against (docs/perf/search.md). */
const TARGET_P99_MS = 50;
const TARGET_SHARE_OF_REFERENCE = 0.5;
/** Distinct queries of the varied row, and the targets it is read against (every search computed). */
const VARIED_QUERIES = 1000;
const VARIED_SAMPLE = 50;
const TARGET_VARIED_SHARE = 0.25;
const TARGET_VARIED_P99_MS = 250;
/** The plants service's default `SEARCH_CACHE_MS`. */
const DEFAULT_CACHE_MS = 2000;
const SEED = 7;
const OWNERS = 20_000;
const HIDDEN_SHARE = 0.05;
/** Share of plants of the last (rare) species, of the last (rare) place, and of owners with the last surname. */
const RARE_SHARE = 0.0005;

// Names as growers type them (accents, capitals, punctuation), most common first: each list but its last entry is
// drawn from with Zipf weights, so the head gives unselective terms; the last entry is rare (RARE_SHARE), a
// selective term.
const SPECIES = [
  ['Tomato', 'Solanum lycopersicum'],
  ['Basil', 'Ocimum basilicum'],
  ['Strawberry', 'Fragaria × ananassa'],
  ['Mint', 'Mentha spicata'],
  ['Potato', 'Solanum tuberosum'],
  ['Bell Pepper', 'Capsicum annuum'],
  ['Rosemary', 'Salvia rosmarinus'],
  ['Apple', 'Malus domestica'],
  ['Lavender', 'Lavandula angustifolia'],
  ['Thyme', 'Thymus vulgaris'],
  ['Monstera', 'Monstera deliciosa'],
  ['Chili Pepper', 'Capsicum frutescens'],
  ['Peppermint', 'Mentha × piperita'],
  ['Fig', 'Ficus carica'],
  ['Olive', 'Olea europaea'],
  ['Sage', 'Salvia officinalis'],
  ['Cucumber', 'Cucumis sativus'],
  ['Sunflower', 'Helianthus annuus'],
  ['Crème de Menthe', 'Mentha × piperita'],
  ['Zucchini', 'Cucurbita pepo'],
  ['Rubber Plant', 'Ficus elastica'],
  ['Aloe Vera', 'Aloe vera'],
  ['Piment d’Espelette', 'Capsicum annuum'],
  ['Lemon Balm', 'Melissa officinalis'],
  ['Œillet', 'Dianthus caryophyllus'],
  ['Spearmint', 'Mentha spicata'],
  ['Fiddle Leaf Fig', 'Ficus lyrata'],
  ['Snake Plant', 'Dracaena trifasciata'],
  ['Pothos', 'Epipremnum aureum'],
  ['Edelweiss', 'Leontopodium nivale'],
] as const;
const PLACES = [
  ['Amsterdam', 'NL'],
  ['Berlin', 'DE'],
  ['Paris', 'FR'],
  ['London', 'GB'],
  ['Madrid', 'ES'],
  ['Utrecht', 'NL'],
  ['München', 'DE'],
  ['Zürich', 'CH'],
  ['Kraków', 'PL'],
  ['Lyon', 'FR'],
  ['Köln', 'DE'],
  ['Rotterdam', 'NL'],
  ['Barcelona', 'ES'],
  ['Málaga', 'ES'],
  ['Göteborg', 'SE'],
  ['Malmö', 'SE'],
  ['Łódź', 'PL'],
  ['São Paulo', 'BR'],
  ['Düsseldorf', 'DE'],
  ['Nîmes', 'FR'],
  ['Besançon', 'FR'],
  ['A Coruña', 'ES'],
  ['Reykjavík', 'IS'],
  ['Ærøskøbing', 'DK'],
] as const;
const FIRST_NAMES = ['Anna', 'Jan', 'Emma', 'Lucas', 'Sophie', 'Noah', 'Élodie', 'Søren', 'Zoë', 'Łukasz', 'Inês'];
const LAST_NAMES = [
  'Jansen',
  'Müller',
  'Martin',
  'Smith',
  'García',
  'de Vries',
  'Nowak',
  'Dupré',
  'Rossi',
  'Johansson',
  'Straße',
  'Kierkegaard',
];

/** What growers search for: common and rare terms, one field or all, a later page; all of 3 characters or more. */
const QUERIES: Query[] = [
  { q: 'tomato' },
  { q: 'tomato', page: 3 },
  { q: 'Mentha', type: 'species' },
  { q: 'menthe' },
  { q: 'pepper' },
  { q: 'solanum', type: 'species', page: 2 },
  { q: 'edelweiss' },
  { q: 'ZÜRICH', type: 'location' },
  { q: 'krakow' },
  { q: 'sao paulo', type: 'location' },
  { q: 'aeroskobing' },
  { q: 'jansen', type: 'owner' },
  { q: 'élodie' },
  { q: 'kierkegaard' },
  { q: 'xyzzy' },
];
/** Short queries (1–2 characters): the start of a text or of a word (docs/plants.md). */
const SHORT_QUERIES: Query[] = [{ q: 'nl', type: 'location' }, { q: 'de' }, { q: 'a', type: 'owner' }];

interface Query {
  q: string;
  type?: SearchType;
  page?: number;
}

const FIELDS: readonly SearchType[] = ['species', 'location', 'owner'];

/** Accented forms a grower may type for a plain letter (or the other way round: accents are dropped on the way). */
const ACCENTED: Record<string, string> = { a: 'á', e: 'é', i: 'í', o: 'ö', u: 'ü', c: 'ç', n: 'ñ', s: 'š', z: 'ž' };
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * `n` distinct queries as growers type them, drawn from the data's species (common and scientific names), places
 * (city, country code) and owners (first, last and full names): the whole word or name, or a prefix of it (from 1
 * character), accents added or stripped, capitals, and a one-letter typo (a letter replaced, dropped, doubled or two
 * swapped) in about a third; all fields mostly, one sometimes, a second page now and then. Distinct after
 * normalising (with the field and page), deterministic for a seed.
 */
function variedQueries(n: number, seed: number): Query[] {
  const random = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const sources: [SearchType, string[]][] = [
    ['species', SPECIES.flatMap(([c, s]) => [c, s, ...c.split(' '), ...s.split(' ')])],
    ['location', PLACES.flatMap(([city, code]) => [city, code, `${city} ${code}`])],
    ['owner', [...FIRST_NAMES, ...LAST_NAMES, ...FIRST_NAMES.flatMap((f) => LAST_NAMES.map((l) => `${f} ${l}`))]],
  ];
  const seen = new Set<string>();
  const out: Query[] = [];
  for (let attempt = 0; out.length < n && attempt < n * 100; attempt++) {
    const [field, texts] = pick(sources);
    let q = pick(texts);
    const shape = random();
    if (shape < 0.45) q = q.slice(0, 1 + Math.floor(random() * Math.max(1, [...q].length - 1)));
    const accents = random();
    if (accents < 0.3) q = q.normalize('NFKD').replace(/\p{M}/gu, '');
    else if (accents < 0.55) q = q.replace(/[aeioucnsz]/, (c) => ACCENTED[c] ?? c);
    if (random() < 0.35 && q.length >= 3) {
      const chars = [...q];
      const at = 1 + Math.floor(random() * (chars.length - 1));
      const kind = Math.floor(random() * 4);
      if (kind === 0) chars[at] = pick([...LETTERS]);
      else if (kind === 1) chars.splice(at, 1);
      else if (kind === 2) chars.splice(at, 0, chars[at]!);
      else [chars[at - 1], chars[at]] = [chars[at]!, chars[at - 1]!];
      q = chars.join('');
    }
    const letterCase = random();
    if (letterCase < 0.2) q = q.toUpperCase();
    else if (letterCase < 0.45) q = q.toLowerCase();
    const query: Query = { q, ...(random() < 0.25 ? { type: field } : {}), ...(random() < 0.1 ? { page: 2 } : {}) };
    const key = `${normalise(q)}\u0000${query.type ?? ''}\u0000${query.page ?? 1}`;
    if (normalise(q) === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(query);
  }
  if (out.length < n) throw new Error(`only ${out.length} distinct queries could be drawn`);
  return out;
}

/** A draw from 0..n-1: the last with probability `RARE_SHARE`, the others with weights 1, 1/2, 1/3 … (Zipf). */
function zipfWithRare(n: number, random: () => number): () => number {
  const common = zipf(n - 1, random);
  return () => (random() < RARE_SHARE ? n - 1 : common());
}

/** A draw from 0..n-1 with weights 1, 1/2, 1/3 … (Zipf). */
function zipf(n: number, random: () => number): () => number {
  const cumulative: number[] = [];
  let acc = 0;
  for (let i = 0; i < n; i++) {
    acc += 1 / (i + 1);
    cumulative.push(acc);
  }
  return () => {
    const r = random() * acc;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

// The normalisation of docs/plants.md, written here again so the reference shares no code with the service.
const FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => FOLD[c] ?? c)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

interface Owner {
  name: string;
  text: string;
}

/** The plants: a species, a place (-1 when hidden) and an owner each, by index; texts are shared. */
interface Dataset {
  ids: string[];
  species: Uint8Array;
  place: Int8Array;
  owner: Uint16Array;
  speciesText: string[];
  placeText: string[];
  owners: Owner[];
}

/** Generates the plants (deterministic for a count). */
function generate(count: number): Dataset {
  const random = seeded(SEED);
  const first = zipf(FIRST_NAMES.length, random);
  const last = zipfWithRare(LAST_NAMES.length, random);
  const owners = Array.from({ length: OWNERS }, () => {
    const name = `${FIRST_NAMES[first()]} ${LAST_NAMES[last()]}`;
    return { name, text: normalise(name) };
  });
  const species = zipfWithRare(SPECIES.length, random);
  const place = zipfWithRare(PLACES.length, random);
  const ds: Dataset = {
    ids: [],
    species: new Uint8Array(count),
    place: new Int8Array(count),
    owner: new Uint16Array(count),
    speciesText: SPECIES.map(([c, s]) => normalise(`${c} ${s}`)),
    placeText: PLACES.map(([c, k]) => normalise(`${c} ${k}`)),
    owners,
  };
  const start = Date.now() - count;
  for (let i = 0; i < count; i++) {
    ds.ids.push(newId('plt', start + i));
    ds.species[i] = species();
    ds.place[i] = random() < HIDDEN_SHARE ? -1 : place();
    ds.owner[i] = Math.floor(random() * OWNERS);
  }
  return ds;
}

/** The dataset's plants as they are seeded; a plant without a place is hidden. */
function* plantRows(ds: Dataset): Generator<SeedPlant> {
  for (let i = 0; i < ds.ids.length; i++) {
    const s = ds.species[i]!;
    const p = ds.place[i]!;
    const o = ds.owner[i]!;
    const [commonName, scientificName] = SPECIES[s]!;
    const hidden = p < 0;
    const [city, country] = hidden ? [null, null] : PLACES[p]!;
    yield {
      id: ds.ids[i]!,
      commonName,
      scientificName,
      latitude: hidden ? null : 52 + (i % 1000) / 1000,
      longitude: hidden ? null : 5 + (i % 997) / 997,
      city,
      country,
      privacyLevel: hidden ? 'hidden' : 'exact',
      ownerId: `usr_bench_${o}`,
      ownerName: ds.owners[o]!.name,
      searchSpecies: ds.speciesText[s]!,
      searchLocation: hidden ? '' : ds.placeText[p]!,
      searchOwner: ds.owners[o]!.text,
    };
  }
}

/**
 * Relevance of one text: exact 0, prefix 1, word 2, substring 3, none 4; a `q` under 3 characters is not found
 * inside a word (docs/plants.md, written again here).
 */
function rankOf(text: string, q: string): number {
  if (text === q) return 0;
  if (text.startsWith(q)) return 1;
  if (text.includes(` ${q}`)) return 2;
  return text.includes(q) && [...q].length >= 3 ? 3 : 4;
}

/** Byte order of UTF-8 texts, PostgreSQL's `COLLATE "C"`. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

interface Expected {
  ids: string[];
  kinds: string[];
  total: number;
}

const KINDS = ['exact', 'prefix', 'word', 'substring'];

/**
 * Brute force: every plant ranked on the fields searched (each distinct text ranked once), the matches sorted by
 * rank, field, the matched text and id (both in byte order), the query's page kept. Like `normalise` and `rankOf`, it re-implements the rules
 * of docs/plants.md rather than importing the service's, so it is an independent reference.
 */
function bruteForce(ds: Dataset, query: Query, limit: number): Expected {
  const q = normalise(query.q);
  const fields = query.type ? [query.type] : FIELDS;
  const speciesRank = ds.speciesText.map((t) => rankOf(t, q));
  const placeRank = ds.placeText.map((t) => rankOf(t, q));
  const ownerRank = ds.owners.map((o) => rankOf(o.text, q));
  const ranks = (i: number) =>
    fields.map((f) => {
      if (f === 'species') return speciesRank[ds.species[i]!]!;
      if (f === 'owner') return ownerRank[ds.owner[i]!]!;
      const p = ds.place[i]!;
      return p < 0 ? rankOf('', q) : placeRank[p]!;
    });
  const textOf = (i: number, f: SearchType) => {
    if (f === 'species') return ds.speciesText[ds.species[i]!]!;
    if (f === 'owner') return ds.owners[ds.owner[i]!]!.text;
    const p = ds.place[i]!;
    return p < 0 ? '' : ds.placeText[p]!;
  };
  const hits: { i: number; best: number; field: number; kind: string; text: string }[] = [];
  for (let i = 0; i < ds.ids.length; i++) {
    const r = ranks(i);
    const best = Math.min(...r);
    if (best === 4) continue;
    const field = r.indexOf(best);
    hits.push({ i, best, field, kind: `${fields[field]}:${KINDS[best]}`, text: textOf(i, fields[field]!) });
  }
  hits.sort(
    (a, b) => a.best - b.best || a.field - b.field || byBytes(a.text, b.text) || byBytes(ds.ids[a.i]!, ds.ids[b.i]!),
  );
  const offset = ((query.page ?? 1) - 1) * limit;
  const page = hits.slice(offset, offset + limit);
  return { ids: page.map((h) => ds.ids[h.i]!), kinds: page.map((h) => h.kind), total: hits.length };
}

const pathOf = (query: Query) =>
  `/api/plants/search?q=${encodeURIComponent(query.q)}${query.type ? `&type=${query.type}` : ''}${
    query.page ? `&page=${query.page}` : ''
  }`;

/**
 * Checks every query's page against the brute force, and its total: equal up to the cap, past it marked as an
 * estimate and above the cap; throws on the first difference.
 */
async function verify(
  ctx: BenchContext,
  url: string,
  headers: Record<string, string>,
  ds: Dataset,
  queries: Query[],
): Promise<{ totals: Map<Query, number>; estimates: Map<Query, number | undefined> }> {
  const totals = new Map<Query, number>();
  const estimates = new Map<Query, number | undefined>();
  for (const query of queries) {
    const expected = bruteForce(ds, query, PAGE_DEFAULTS.limit);
    const res = await api(url, pathOf(query), { headers });
    if (res.status !== 200) throw new Error(`${pathOf(query)} answered ${res.status} ${JSON.stringify(res.body)}`);
    const got: { id: string; match: { field: string; kind: string } }[] = res.body.data;
    const ids = got.map((g) => g.id);
    const kinds = got.map((g) => `${g.match.field}:${g.match.kind}`);
    const same = JSON.stringify([ids, kinds]) === JSON.stringify([expected.ids, expected.kinds]);
    const { total, totalIsEstimate } = res.body.pagination;
    // Exact up to the cap; past it an estimate may stand in (when one field alone has more matches than the cap).
    const totalRight = totalIsEstimate
      ? expected.total > SEARCH_EXACT_TOTAL_MAX && total > SEARCH_EXACT_TOTAL_MAX
      : total === expected.total;
    if (!same || !totalRight) {
      throw new Error(
        `${pathOf(query)} differs from the brute-force scan: got ${JSON.stringify(ids)} ${JSON.stringify(kinds)} ` +
          `(total ${total}${totalIsEstimate ? ', an estimate' : ''}), expected ${JSON.stringify(expected.ids)} ` +
          `${JSON.stringify(expected.kinds)} (total ${expected.total})`,
      );
    }
    totals.set(query, expected.total);
    estimates.set(query, totalIsEstimate ? total : undefined);
  }
  ctx.log(`  all ${queries.length} queries equal the brute-force scan`);
  return { totals, estimates };
}

const dialect = new PgDialect();

/** The plan of the search statement the service runs for a query, with its figures (EXPLAIN ANALYZE, BUFFERS). */
async function explain(databaseUrl: string, query: Query): Promise<string> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const q = normaliseSearchText(query.q);
    const types = query.type ? [query.type] : FIELDS;
    const offset = ((query.page ?? 1) - 1) * PAGE_DEFAULTS.limit;
    const statement = dialect.sqlToQuery(searchStatement(q, types, offset, PAGE_DEFAULTS.limit));
    const rows = await sql.unsafe(
      `explain (analyze, buffers, costs off, summary on) ${statement.sql}`,
      statement.params as never[],
    );
    return rows.map((r) => String(r['QUERY PLAN'])).join('\n');
  } finally {
    await sql.end();
  }
}

/** Sizes of the plants table and its search indexes. */
async function sizes(databaseUrl: string): Promise<string> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`
      select c.relname as name, pg_size_pretty(pg_relation_size(c.oid)) as size
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'plants' and (c.relname in ('plants', 'search_texts', 'plants_changed_search_idx') or c.relname like 'plants_search_%')
      order by c.relname`;
    return rows.map((r) => `${r.name} ${r.size}`).join(', ');
  } finally {
    await sql.end();
  }
}

const PLANTS_MIGRATIONS = fileURLToPath(new URL('../../services/plants/drizzle', import.meta.url));

/** The plants schema, as the plants service migrates it when it starts. */
async function migratePlants(databaseUrl: string): Promise<void> {
  const database = await openDatabase({ url: databaseUrl, dataDir: '.' });
  try {
    await migrateSchema(database, { schema: 'plants', migrationsFolder: PLANTS_MIGRATIONS });
  } finally {
    await database.close();
  }
}

/**
 * What a plants process spends building its in-memory search index when it starts (ADR 316): the time, and the
 * heap it holds after (measured in this process, after a garbage collection when `--expose-gc` allows it).
 */
async function buildIndex(databaseUrl: string): Promise<{ seconds: number; heapMb: number; plants: number }> {
  const database = await openDatabase({ url: databaseUrl, dataDir: '.' });
  const gc = (globalThis as { gc?: () => void }).gc;
  try {
    gc?.();
    const heap = process.memoryUsage().heapUsed;
    const began = performance.now();
    const quiet = { info() {}, warn() {}, error() {}, debug() {} } as never;
    const feed = createSearchIndexFeed({ db: database.db, log: quiet, pollMs: 60_000 });
    await feed.start();
    const seconds = (performance.now() - began) / 1000;
    gc?.();
    const heapMb = Math.round((process.memoryUsage().heapUsed - heap) / 1e6);
    const plants = feed.index.size;
    await feed.stop();
    return { seconds, heapMb, plants };
  } finally {
    await database.close();
  }
}

/** Resident memory of a process, in MB (Linux). */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
}

const describeQuery = (query: Query) =>
  `\`${query.q}\`${query.type ? ` (${query.type})` : ''}${query.page ? `, page ${query.page}` : ''}`;

/** One client's latencies per query, with how many plants each matches and the total the API answered. */
async function perQuery(
  url: string,
  headers: Record<string, string>,
  queries: Query[],
  counts: { totals: Map<Query, number>; estimates: Map<Query, number | undefined> },
): Promise<{ table: Table; worstP99: number }> {
  const rows: string[][] = [];
  let worstP99 = 0;
  for (const query of queries) {
    const s = await sequential(url, [pathOf(query)], headers, { requests: PER_QUERY_REQUESTS });
    worstP99 = Math.max(worstP99, s.p99);
    const estimate = counts.estimates.get(query);
    rows.push([
      describeQuery(query),
      fmt(counts.totals.get(query) ?? 0),
      estimate === undefined ? 'exact' : `~${fmt(estimate)}`,
      ms(s.p50),
      ms(s.p90),
      ms(s.p99),
      fmt(s.non2xx),
    ]);
  }
  return {
    table: { head: ['query', 'matches', 'total answered', 'p50 ms', 'p90 ms', 'p99 ms', 'non-2xx'], rows },
    worstP99,
  };
}

/**
 * GET /api/plants/search over a million plants: results checked against a brute-force scan, then latency for one
 * client at a time and under concurrent load, beside the read of one plant by id on the same path.
 */
export const search: Benchmark = {
  name: 'search',
  title: 'GET /api/plants/search over 1,000,000 plants (ranked from distinct texts, in memory)',
  timeLimitSeconds: (s) => 2400 + 5 * (s.warmupSeconds + s.durationSeconds),
  async run(ctx): Promise<BenchReport> {
    const { scope, settings } = ctx;
    const count = Number(process.env.BENCH_SEARCH_PLANTS ?? DEFAULT_PLANTS);
    if (!Number.isInteger(count) || count < 1000) throw new Error('BENCH_SEARCH_PLANTS must be a whole number ≥ 1000');
    // Every search computed first (the answer cache off), so the rows measure the search itself; the product's
    // default, answers reused for SEARCH_CACHE_MS, is measured after, on the same data.
    const infra = await startBenchInfra(ctx);
    const { db } = infra;
    const urls = { natsUrl: infra.nats.url, databaseUrl: db.url };
    // The plants first, so each plants process builds its search index from them when it starts, as after a
    // deployment.
    ctx.log(`generating ${fmt(count)} plants`);
    const ds = generate(count);
    ctx.log('migrating the plants schema, seeding with COPY (search indexes and triggers in place), VACUUM ANALYZE');
    const seedStart = Date.now();
    await migratePlants(db.url);
    await seedPlants(db.url, plantRows(ds));
    const seedSeconds = (Date.now() - seedStart) / 1000;
    ctx.log(`  seeded in ${fmt(seedSeconds, 1)} s`);
    const built = await buildIndex(db.url);
    ctx.log(`  in-memory search index built in ${fmt(built.seconds, 1)} s, heap +${fmt(built.heapMb)} MB`);
    ctx.log('starting the cluster (one process per service, and the gateway), the answer cache off');
    const computed = await startPlatformCluster(ctx, urls, { SEARCH_CACHE_MS: '0' });
    const { cluster } = computed;
    const plantsRssMb = await rssMb(clusterPid(cluster, 'plants'));

    const headers = { authorization: `Bearer ${await signIn(cluster.url, 'bench-search@example.org')}` };
    const all = [...QUERIES, ...SHORT_QUERIES];
    ctx.log(`checking ${all.length} queries against a brute-force scan of ${fmt(count)} plants`);
    const counts = await verify(ctx, cluster.url, headers, ds, all);
    const common = QUERIES[0]!;
    const plan = await explain(db.url, common);
    const storage = await sizes(db.url);
    const paths = all.map(pathOf);
    // The floor of the same path: one plant by id, through the same gateway and service.
    const byId = paths.map((_, i) => `/api/plants/${ds.ids[Math.floor((i * ds.ids.length) / paths.length)]}`);

    ctx.log(
      `one client, one request at a time: ${settings.warmupSeconds} s warm-up, ${settings.durationSeconds} s measured`,
    );
    await sequential(cluster.url, paths, headers, { seconds: settings.warmupSeconds });
    const alone = await sequential(cluster.url, QUERIES.map(pathOf), headers, { seconds: settings.durationSeconds });
    const short = await sequential(cluster.url, SHORT_QUERIES.map(pathOf), headers, {
      seconds: Math.min(settings.durationSeconds, 10),
    });
    const reference = await sequential(cluster.url, byId, headers, { seconds: Math.min(settings.durationSeconds, 10) });
    ctx.log(`each query ${PER_QUERY_REQUESTS} times, one at a time`);
    const each = await perQuery(cluster.url, headers, all, counts);
    const load = (label: string, loadPaths: string[]) => {
      ctx.log(`${settings.connections} connections (autocannon in its own process): ${label}`);
      return runLoad(scope, {
        url: cluster.url,
        paths: loadPaths,
        headers,
        connections: settings.connections,
        durationSeconds: settings.durationSeconds,
        warmupSeconds: settings.warmupSeconds,
      });
    };
    const loadedComputed = await load(`the ${all.length} queries in turn, every search computed`, paths);
    // Many different queries, none repeated within a connection's round: what an answer cache cannot help with.
    const varied = variedQueries(VARIED_QUERIES, SEED);
    const sample = varied.filter((_, i) => i % Math.floor(VARIED_QUERIES / VARIED_SAMPLE) === 0);
    ctx.log(`checking ${sample.length} of the ${fmt(varied.length)} varied queries against the brute-force scan`);
    await verify(ctx, cluster.url, headers, ds, sample);
    const loadBefore = loadavg()[0]!;
    const loadedVaried = await load(
      `the ${fmt(varied.length)} varied queries in turn, every search computed`,
      varied.map(pathOf),
    );
    const manyById = Array.from(
      { length: VARIED_QUERIES },
      (_, i) => `/api/plants/${ds.ids[Math.floor((i * ds.ids.length) / VARIED_QUERIES)]}`,
    );
    const loadedReferenceComputed = await load('GET /api/plants/{id}, the same platform', manyById);
    const loadAfter = loadavg()[0]!;
    await computed.stop();
    ctx.log(`restarting the cluster with the answer cache on (SEARCH_CACHE_MS=${DEFAULT_CACHE_MS}, the default)`);
    const cached = (await startPlatformCluster(ctx, urls)).cluster;
    const cachedHeaders = { authorization: `Bearer ${await signIn(cached.url, 'bench-search-2@example.org')}` };
    const load2 = (label: string, loadPaths: string[]) => {
      ctx.log(`${settings.connections} connections (autocannon in its own process): ${label}`);
      return runLoad(scope, {
        url: cached.url,
        paths: loadPaths,
        headers: cachedHeaders,
        connections: settings.connections,
        durationSeconds: settings.durationSeconds,
        warmupSeconds: settings.warmupSeconds,
      });
    };
    // Twice: the first answers are computed and kept, the second come from the cache.
    ctx.log('checking the answers of the restarted platform, computed then reused, against the brute-force scan');
    for (let pass = 0; pass < 2; pass++) await verify(ctx, cached.url, cachedHeaders, ds, all);
    const loaded = await load2(`the ${all.length} queries in turn, answers reused`, paths);
    const loadedReference = await load2('GET /api/plants/{id}', byId);
    const share = loaded.requestsPerSecond / Math.max(1e-9, loadedReference.requestsPerSecond);
    const shareComputed = loadedComputed.requestsPerSecond / Math.max(1e-9, loadedReference.requestsPerSecond);
    const shareVaried = loadedVaried.requestsPerSecond / Math.max(1e-9, loadedReferenceComputed.requestsPerSecond);
    const variedFailures = loadedVaried.non2xx + loadedVaried.errors + loadedVaried.timeouts;
    const failures =
      variedFailures +
      loaded.non2xx +
      loaded.errors +
      loaded.timeouts +
      loadedComputed.non2xx +
      loadedComputed.errors +
      loadedComputed.timeouts;

    const results: Table = {
      head: ['client', 'requests', 'requests/s', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms', 'non-2xx'],
      rows: [
        sequentialRow(`1 at a time, the ${QUERIES.length} queries in turn`, alone),
        sequentialRow(`1 at a time, the ${SHORT_QUERIES.length} short queries in turn`, short),
        sequentialRow('reference: GET /api/plants/{id}, 1 at a time', reference),
        loadRow(
          `${settings.connections} connections, the ${all.length} queries in turn (short ones included), every search computed`,
          loadedComputed,
        ),
        loadRow(
          `${settings.connections} connections, ${fmt(varied.length)} distinct queries in turn, every search computed`,
          loadedVaried,
        ),
        loadRow(
          `reference: GET /api/plants/{id}, ${settings.connections} connections, the same platform (cache off)`,
          loadedReferenceComputed,
        ),
        loadRow(
          `${settings.connections} connections, the same, answers reused for ${fmt(DEFAULT_CACHE_MS)} ms (the default)`,
          loaded,
        ),
        loadRow(`reference: GET /api/plants/{id}, ${settings.connections} connections`, loadedReference),
      ],
    };
    const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
    const targets = [
      `- ${settings.connections} connections, every query: ${fmt(failures)} non-2xx or failed requests — target 0: ` +
        `${verdict(failures === 0)}.`,
      `- Search throughput, answers reused (the default), ${fmt(loaded.requestsPerSecond)} requests/s against the ` +
        `reference's ${fmt(loadedReference.requestsPerSecond)}: **${fmt(share * 100)} %** — target at least ` +
        `${TARGET_SHARE_OF_REFERENCE * 100} %: ${verdict(share >= TARGET_SHARE_OF_REFERENCE)}. Every search ` +
        `computed: ${fmt(loadedComputed.requestsPerSecond)} requests/s, ${fmt(shareComputed * 100)} %` +
        `${shareComputed >= TARGET_SHARE_OF_REFERENCE ? '' : ' (below the target)'}.`,
      `- ${fmt(varied.length)} distinct queries, every search computed: ${fmt(loadedVaried.requestsPerSecond)} ` +
        `requests/s against the read by id's ${fmt(loadedReferenceComputed.requestsPerSecond)} on the same ` +
        `platform: **${fmt(shareVaried * 100)} %** — target at least ${TARGET_VARIED_SHARE * 100} %: ` +
        `${verdict(shareVaried >= TARGET_VARIED_SHARE)}; p99 ${ms(loadedVaried.latency.p99)} ms — target ≤ ` +
        `${TARGET_VARIED_P99_MS} ms: ${verdict(loadedVaried.latency.p99 <= TARGET_VARIED_P99_MS)}; ` +
        `${fmt(variedFailures)} non-2xx or failed — target 0: ${verdict(variedFailures === 0)}; ` +
        `${sample.length} of them checked against the brute-force scan before the load: all equal. Load ` +
        `average ${fmt(loadBefore, 2)} before the two rows, ${fmt(loadAfter, 2)} after.`,
      `- Worst p99 of a query alone (${PER_QUERY_REQUESTS} requests, one at a time): ${ms(each.worstP99)} ms — target ` +
        `≤ ${TARGET_P99_MS} ms: ${verdict(each.worstP99 <= TARGET_P99_MS)}.`,
    ].join('\n');
    const markdown = [
      `Data: **${fmt(count)} plants** (\`BENCH_SEARCH_PLANTS\`, default ${fmt(DEFAULT_PLANTS)}): ${SPECIES.length} ` +
        `species, ${PLACES.length} places and ${fmt(OWNERS)} owners (${FIRST_NAMES.length} × ${LAST_NAMES.length} ` +
        `names, accents included), drawn with Zipf weights so the first are common, except the last species, ` +
        `place and surname, each given to ${RARE_SHARE * 100} % of plants (owners for the surname): selective terms; ` +
        `${HIDDEN_SHARE * 100} % of plants hide their location (seed ${SEED}). Written straight into the plants table ` +
        `with COPY, the prefix indexes and the triggers that keep the distinct texts in place, in ` +
        `${fmt(seedSeconds, 1)} s, then VACUUM ANALYZE. Sizes: ${storage}. The in-memory search index of a ` +
        `plants process (ADR 316), built from them as at a start: ${fmt(built.plants)} plants in ` +
        `${fmt(built.seconds, 1)} s, ${fmt(built.heapMb)} MB of heap; the plants process of the cluster, its index ` +
        `built, held ${fmt(plantsRssMb)} MB resident once started.`,
      '',
      `Queries: ${QUERIES.length} as growers type them (case and accents as typed), common and rare terms, all ` +
        'fields or one, a later page, and one that matches nothing; plus ' +
        `${SHORT_QUERIES.length} short ones (1–2 characters: the start of a text or of a word). Default limit ` +
        `${PAGE_DEFAULTS.limit}.`,
      '',
      `Varied queries: ${fmt(VARIED_QUERIES)} distinct ones drawn (seed ${SEED}) from the data's species, places ` +
        'and owners as growers type them: whole names or words, prefixes from one character, accents added or ' +
        'stripped, capitals, a one-letter typo in about a third (a letter replaced, dropped, doubled or two ' +
        'swapped), all fields mostly, one sometimes, a second page now and then. Every search computed ' +
        `(\`SEARCH_CACHE_MS=0\`), then the read by id on the same platform right after, so the ratio of the two ` +
        `comes from one run; ${VARIED_SAMPLE} of them (every ${VARIED_QUERIES / VARIED_SAMPLE}th) were compared ` +
        'with the brute-force scan first.',
      '',
      `Correctness: before the load, the page of every query was compared with a brute-force scan of all ` +
        `${fmt(count)} plants in the benchmark process (normalisation and relevance rules of docs/plants.md written ` +
        `again there): all ${all.length} equal (same ids in the same order, same match field and kind), and every ` +
        `total exact up to ${fmt(SEARCH_EXACT_TOTAL_MAX)}, past it marked as an estimate and above the cap.`,
      '',
      'Load: through the gateway and NATS to the plants service (cluster mode, every service running, ' +
        `\`LOG_LEVEL=warn\`, limiters set never to refuse), after a ${settings.warmupSeconds} s warm-up, for ` +
        `${settings.durationSeconds} s: first one client sending one request at a time (timed with ` +
        '`performance.now()` in the benchmark process), then autocannon in a process of its own with ' +
        `${settings.connections} connections, the ${all.length} queries in turn, every search computed ` +
        '(`SEARCH_CACHE_MS=0`: the one-at-a-time rows and the per-query table are measured this way too). Then the ' +
        `platform restarted with its default answer cache (a search's answer reused for ${fmt(DEFAULT_CACHE_MS)} ` +
        'ms, ADR 164) on the same data: the same load, then the reference, one plant by id, the same way through ' +
        'the same path: the floor of any request.',
      '',
      markdownTable(results),
      '',
      'Against the targets:',
      '',
      targets,
      '',
      `Each query alone, ${PER_QUERY_REQUESTS} requests one at a time ("total answered": exact, or the estimate ` +
        `past ${fmt(SEARCH_EXACT_TOTAL_MAX)} matches):`,
      '',
      markdownTable(each.table),
      '',
      `Plan of the search statement (what answers while a plants process builds its index, or with ` +
        `\`SEARCH_INDEX_POLL_MS=0\`) for ${describeQuery(common)} (all three fields), EXPLAIN (ANALYZE, BUFFERS):`,
      '',
      '```',
      plan,
      '```',
    ].join('\n');
    const text = [
      `all ${all.length} queries equal the brute-force scan; ${storage}`,
      '',
      textTable(results),
      '',
      targets,
      '',
      textTable(each.table),
      '',
      plan,
    ].join('\n');
    return { text, markdown };
  },
};
