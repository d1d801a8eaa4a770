import { newId, PAGE_DEFAULTS, type SearchType } from '@rootline/contracts';
import { api } from '@rootline/testing';
import postgres from 'postgres';
import { ms, type Sequential, sequential, signIn, startBenchCluster } from './lib/http-bench.js';
import { type LoadResult, runLoad } from './lib/load.js';
import { fmt, markdownTable, type Table, textTable } from './lib/markdown.js';
import { seeded } from './lib/random.js';
import { type SeedPlant, seedPlants } from './lib/seed-plants.js';
import type { BenchContext, Benchmark, BenchReport } from './lib/types.js';

/** Plants seeded; `BENCH_SEARCH_PLANTS` lowers it for a smoke run. */
const DEFAULT_PLANTS = 1_000_000;
/** Requests per query for the per-query table, one at a time. */
const PER_QUERY_REQUESTS = 10;
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

/** What growers search for: common and rare terms, one field or all, a later page; all have a trigram. */
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
/** Queries without a trigram (under 3 characters): no index helps, the table is scanned. */
const SHORT_QUERIES: Query[] = [{ q: 'nl', type: 'location' }, { q: 'de' }, { q: 'a', type: 'owner' }];

interface Query {
  q: string;
  type?: SearchType;
  page?: number;
}

const FIELDS: readonly SearchType[] = ['species', 'location', 'owner'];

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

/** Relevance of one text: exact 0, prefix 1, word 2, substring 3, none 4 (docs/plants.md, written again here). */
function rankOf(text: string, q: string): number {
  if (text === q) return 0;
  if (text.startsWith(q)) return 1;
  if (text.includes(` ${q}`)) return 2;
  return text.includes(q) ? 3 : 4;
}

interface Expected {
  ids: string[];
  kinds: string[];
  total: number;
}

const KINDS = ['exact', 'prefix', 'word', 'substring'];

/**
 * Brute force: every plant ranked on the fields searched (each distinct text ranked once), the matches sorted by
 * rank, field, species text and id, the query's page kept. Like `normalise` and `rankOf`, it re-implements the rules
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
  const hits: { i: number; best: number; field: number; kind: string }[] = [];
  for (let i = 0; i < ds.ids.length; i++) {
    const r = ranks(i);
    const best = Math.min(...r);
    if (best < 4) hits.push({ i, best, field: r.indexOf(best), kind: `${fields[r.indexOf(best)]}:${KINDS[best]}` });
  }
  const text = (h: { i: number }) => ds.speciesText[ds.species[h.i]!]!;
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  hits.sort((a, b) => a.best - b.best || a.field - b.field || cmp(text(a), text(b)) || cmp(ds.ids[a.i]!, ds.ids[b.i]!));
  const offset = ((query.page ?? 1) - 1) * limit;
  const page = hits.slice(offset, offset + limit);
  return { ids: page.map((h) => ds.ids[h.i]!), kinds: page.map((h) => h.kind), total: hits.length };
}

const pathOf = (query: Query) =>
  `/api/plants/search?q=${encodeURIComponent(query.q)}${query.type ? `&type=${query.type}` : ''}${
    query.page ? `&page=${query.page}` : ''
  }`;

/** Checks every query's page and total against the brute force; throws on the first difference. */
async function verify(
  ctx: BenchContext,
  url: string,
  headers: Record<string, string>,
  ds: Dataset,
  queries: Query[],
): Promise<Map<Query, number>> {
  const totals = new Map<Query, number>();
  for (const query of queries) {
    const expected = bruteForce(ds, query, PAGE_DEFAULTS.limit);
    const res = await api(url, pathOf(query), { headers });
    if (res.status !== 200) throw new Error(`${pathOf(query)} answered ${res.status} ${JSON.stringify(res.body)}`);
    const got: { id: string; match: { field: string; kind: string } }[] = res.body.data;
    const ids = got.map((g) => g.id);
    const kinds = got.map((g) => `${g.match.field}:${g.match.kind}`);
    const same = JSON.stringify([ids, kinds]) === JSON.stringify([expected.ids, expected.kinds]);
    if (!same || res.body.pagination.total !== expected.total) {
      throw new Error(
        `${pathOf(query)} differs from the brute-force scan: got ${JSON.stringify(ids)} ${JSON.stringify(kinds)} ` +
          `(total ${res.body.pagination.total}), expected ${JSON.stringify(expected.ids)} ` +
          `${JSON.stringify(expected.kinds)} (total ${expected.total})`,
      );
    }
    totals.set(query, expected.total);
  }
  ctx.log(`  all ${queries.length} queries equal the brute-force scan`);
  return totals;
}

/** The plan of a query's filter as PostgreSQL runs it (the pattern bound, as the service binds it). */
async function explain(databaseUrl: string, q: string): Promise<string> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql.unsafe(
      `explain (analyze, buffers, costs off, summary on)
       select count(*) from plants.plants
       where search_species like $1 or search_location like $1 or search_owner like $1`,
      [`%${normalise(q)}%`],
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
      where n.nspname = 'plants' and (c.relname = 'plants' or c.relname like 'plants_search_%')
      order by c.relname`;
    return rows.map((r) => `${r.name} ${r.size}`).join(', ');
  } finally {
    await sql.end();
  }
}

const describeQuery = (query: Query) =>
  `\`${query.q}\`${query.type ? ` (${query.type})` : ''}${query.page ? `, page ${query.page}` : ''}`;

function sequentialRow(label: string, s: Sequential): string[] {
  return [
    label,
    fmt(s.requests),
    fmt(s.requests / s.seconds),
    ms(s.p50),
    ms(s.p90),
    ms(s.p99),
    ms(s.mean),
    fmt(s.non2xx),
  ];
}

/** One client's median per query, with how many plants each matches. */
async function perQuery(
  url: string,
  headers: Record<string, string>,
  queries: Query[],
  totals: Map<Query, number>,
): Promise<Table> {
  const rows: string[][] = [];
  for (const query of queries) {
    const s = await sequential(url, [pathOf(query)], headers, { requests: PER_QUERY_REQUESTS });
    rows.push([describeQuery(query), fmt(totals.get(query) ?? 0), ms(s.p50), ms(s.p90)]);
  }
  return { head: ['query', 'matches', 'p50 ms', 'p90 ms'], rows };
}

/**
 * GET /api/plants/search over a million plants: results checked against a brute-force scan, then latency for one
 * client at a time and under concurrent load, through the whole platform.
 */
export const search: Benchmark = {
  name: 'search',
  title: 'GET /api/plants/search over 1,000,000 plants (trigram indexes)',
  timeLimitSeconds: (s) => 2400 + 3 * (s.warmupSeconds + s.durationSeconds),
  async run(ctx): Promise<BenchReport> {
    const { scope, settings } = ctx;
    const count = Number(process.env.BENCH_SEARCH_PLANTS ?? DEFAULT_PLANTS);
    if (!Number.isInteger(count) || count < 1000) throw new Error('BENCH_SEARCH_PLANTS must be a whole number ≥ 1000');
    const { db, cluster } = await startBenchCluster(ctx);

    ctx.log(`generating ${fmt(count)} plants`);
    const ds = generate(count);
    ctx.log('seeding them with COPY (search indexes in place), then VACUUM ANALYZE');
    const seedStart = Date.now();
    await seedPlants(db.url, plantRows(ds));
    const seedSeconds = (Date.now() - seedStart) / 1000;
    ctx.log(`  seeded in ${fmt(seedSeconds, 1)} s`);

    const headers = { authorization: `Bearer ${await signIn(cluster.url, 'bench-search@example.org')}` };
    const all = [...QUERIES, ...SHORT_QUERIES];
    ctx.log(`checking ${all.length} queries against a brute-force scan of ${fmt(count)} plants`);
    const totals = await verify(ctx, cluster.url, headers, ds, all);
    const selective = QUERIES.find((q) => q.q === 'kierkegaard')!;
    const plan = await explain(db.url, selective.q);
    const storage = await sizes(db.url);
    const paths = QUERIES.map(pathOf);

    ctx.log(
      `one client, one request at a time: ${settings.warmupSeconds} s warm-up, ${settings.durationSeconds} s measured`,
    );
    await sequential(cluster.url, paths, headers, { seconds: settings.warmupSeconds });
    const alone = await sequential(cluster.url, paths, headers, { seconds: settings.durationSeconds });
    const short = await sequential(cluster.url, SHORT_QUERIES.map(pathOf), headers, {
      seconds: Math.min(settings.durationSeconds, 10),
    });
    // The floor of the same path: one plant by id, one request at a time, through the same gateway and service.
    const byId = paths.map((_, i) => `/api/plants/${ds.ids[Math.floor((i * ds.ids.length) / paths.length)]}`);
    const reference = await sequential(cluster.url, byId, headers, { seconds: Math.min(settings.durationSeconds, 10) });
    ctx.log(`each query ${PER_QUERY_REQUESTS} times, one at a time`);
    const each = await perQuery(cluster.url, headers, all, totals);
    ctx.log(`${settings.connections} connections (autocannon in its own process)`);
    const loaded: LoadResult = await runLoad(scope, {
      url: cluster.url,
      paths,
      headers,
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      warmupSeconds: settings.warmupSeconds,
    });

    const results: Table = {
      head: ['client', 'requests', 'requests/s', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms', 'non-2xx'],
      rows: [
        sequentialRow(`1 at a time, the ${QUERIES.length} queries in turn`, alone),
        sequentialRow(`1 at a time, the ${SHORT_QUERIES.length} short queries (table scan)`, short),
        sequentialRow('reference: GET /api/plants/{id}, 1 at a time', reference),
        [
          `${settings.connections} connections, the ${QUERIES.length} queries`,
          fmt(loaded.requests),
          fmt(loaded.requestsPerSecond),
          ms(loaded.latency.p50),
          ms(loaded.latency.p90),
          ms(loaded.latency.p99),
          ms(loaded.latency.mean),
          fmt(loaded.non2xx + loaded.errors),
        ],
      ],
    };
    const markdown = [
      `Data: **${fmt(count)} plants** (\`BENCH_SEARCH_PLANTS\`, default ${fmt(DEFAULT_PLANTS)}): ${SPECIES.length} ` +
        `species, ${PLACES.length} places and ${fmt(OWNERS)} owners (${FIRST_NAMES.length} × ${LAST_NAMES.length} ` +
        `names, accents included), drawn with Zipf weights so the first are common, except the last species, ` +
        `place and surname, each given to ${RARE_SHARE * 100} % of plants (owners for the surname): selective terms; ` +
        `${HIDDEN_SHARE * 100} % of plants hide their location (seed ${SEED}). Written straight into the plants table ` +
        `with COPY, the three trigram indexes in place, in ${fmt(seedSeconds, 1)} s, then VACUUM ANALYZE. ` +
        `Sizes: ${storage}.`,
      '',
      `Queries: ${QUERIES.length} as growers type them (case and accents as typed), common and rare terms, all ` +
        'fields or one, a later page, and one that matches nothing; plus ' +
        `${SHORT_QUERIES.length} short ones (under 3 characters, no trigram, so the table is scanned). Default limit ` +
        `${PAGE_DEFAULTS.limit}.`,
      '',
      `Correctness: before the load, the page and the total of every query were compared with a brute-force scan ` +
        `of all ${fmt(count)} plants in the benchmark process (normalisation and relevance rules of docs/plants.md ` +
        `written again there): all ${all.length} equal (same ids in the same order, same match field and kind, ` +
        'same total).',
      '',
      'Load: through the gateway and NATS to the plants service (cluster mode, every service running, ' +
        `\`LOG_LEVEL=warn\`, limiters set never to refuse), the ${QUERIES.length} queries in turn, after a ` +
        `${settings.warmupSeconds} s warm-up, for ${settings.durationSeconds} s: first one client sending one ` +
        'request at a time (timed with `performance.now()` in the benchmark process), then autocannon in a process ' +
        'of its own. The short queries are measured one at a time only. The reference row reads one plant by id, ' +
        'one request at a time, through the same path: the floor of any request.',
      '',
      markdownTable(results),
      '',
      `Each query alone, ${PER_QUERY_REQUESTS} requests one at a time (the work grows with the matches: all are ` +
        'read to count and rank them):',
      '',
      markdownTable(each),
      '',
      `Plan of the filter for \`${selective.q}\` (all three fields):`,
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
      textTable(each),
      '',
      plan,
    ].join('\n');
    return { text, markdown };
  },
};
