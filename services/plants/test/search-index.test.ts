import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEARCH_EXACT_TOTAL_MAX, SEARCH_TYPES, type SearchType } from '@rootline/contracts';
import { type Database, executeRows, migrateSchema, openDatabase } from '@rootline/db';
import { normaliseSearchText } from '@rootline/domain';
import { createTestDatabase } from '@rootline/testing';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlantRow, plantsInsert } from '../src/db/plants.repo.js';
import { searchPlants, searchStatement } from '../src/db/search.repo.js';
import { searchIndexed } from '../src/db/search-index.repo.js';
import { setPlantPlace, setScientificName } from '../src/db/updates.repo.js';
import { matchKind, searchTexts } from '../src/domain/search.js';
import { createSearchIndexFeed, type SearchIndexFeed } from '../src/jobs/search-index.js';
import { service } from '../src/service.js';

const rowsOf = <T>(database: Database, query: SQL) => executeRows<T>(database.db, query);

const SPECIES = [
  ['Menthe', null],
  ['Crème de Menthe', 'Mentha × piperita'],
  ['Spearmint', 'Mentha spicata'],
  ['Tomato', 'Solanum lycopersicum'],
  ['Piment d’Espelette', 'Capsicum annuum'],
  ['Bell Pepper', 'Capsicum annuum'],
  ['Edelweiss', 'Leontopodium nivale'],
  ['Basil', 'Ocimum basilicum'],
] as const;
const PLACES = [
  ['Zürich', 'CH'],
  ['São Paulo', 'BR'],
  ['Kraków', 'PL'],
  ['Utrecht', 'NL'],
  [null, 'NL'],
  ['Paris', 'FR'],
  [null, null],
] as const;
const FIRST = ['Élodie', 'Søren', 'Menthe', 'Ada', 'Bram', 'Zoë', 'Łukasz', 'Nl'];
const LAST = ['Dupré', 'Jansen', 'Gardens', 'de Vries', 'Straße', 'Lovelace'];

/** Plants as the service stores them (texts normalised by `searchTexts`), varied enough for every match kind. */
function plantRows(count: number): PlantRow[] {
  return Array.from({ length: count }, (_, i) => {
    const [commonName, scientificName] = SPECIES[i % SPECIES.length]!;
    // One plant in 500 somewhere rare, so a location search can be selective.
    const [city, country] = i % 500 === 250 ? (['Ærøskøbing', 'DK'] as const) : PLACES[(i * 3) % PLACES.length]!;
    const ownerName = `${FIRST[(i * 3) % FIRST.length]} ${LAST[(i * 5) % LAST.length]} ${i % 97}`;
    const texts = searchTexts({ commonName, scientificName, city, country, ownerName });
    return {
      id: `plt_${String(i).padStart(26, '0')}`,
      commonName,
      scientificName,
      city,
      country,
      ownerId: `usr_${i % 97}`,
      ownerName,
      blockIndex: 0,
      blockHash: '0'.repeat(64),
      txId: `tx_${i}`,
      registeredAt: '2026-01-01T00:00:00.000Z',
      searchSpecies: texts.species,
      searchLocation: texts.location,
      searchOwner: texts.owner,
    };
  });
}

async function seed(database: Database, rows: PlantRow[]): Promise<void> {
  await migrateSchema(database, { schema: 'plants', migrationsFolder: service.db!.migrationsFolder });
  for (let i = 0; i < rows.length; i += 2000) await database.db.execute(plantsInsert(rows.slice(i, i + 2000)));
  await database.db.execute(sql`analyze plants.plants`);
}

/** The relevance rules of docs/plants.md, in plain JavaScript: a `q` under 3 characters is not found inside a word. */
function rankOf(text: string, q: string): number {
  if (text === q) return 0;
  if (text.startsWith(q)) return 1;
  if (text.includes(` ${q}`)) return 2;
  return text.includes(q) && [...q].length >= 3 ? 3 : 4;
}

/** Byte order of UTF-8 texts (PostgreSQL's `COLLATE "C"`). */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** What a search must answer: every plant ranked, filtered, sorted, paged. */
function bruteForce(rows: PlantRow[], q: string, types: readonly SearchType[]) {
  const text = (r: PlantRow, t: SearchType) =>
    ({ species: r.searchSpecies, location: r.searchLocation, owner: r.searchOwner })[t] ?? '';
  return rows
    .map((r) => {
      const ranks = types.map((t) => rankOf(text(r, t), q));
      const best = Math.min(...ranks);
      const field = ranks.indexOf(best);
      return {
        id: r.id,
        matched: text(r, types[field]!),
        best,
        field,
        match: { field: types[field], kind: matchKind(best) },
      };
    })
    .filter((h) => h.best < 4)
    .sort((a, b) => a.best - b.best || a.field - b.field || byBytes(a.matched, b.matched) || byBytes(a.id, b.id));
}

const QUERIES = [
  'menthe',
  'Mentha',
  'ZÜRICH',
  'ærøskøbing',
  'elodie',
  'elodie dupre 48',
  'sao paulo',
  'pepper',
  'de',
  'nl',
  'a',
  'straße 4',
  'ch',
  '48',
  'xyzzy',
];
const SHAPES: (readonly SearchType[])[] = [SEARCH_TYPES, ['species'], ['location'], ['owner']];
const PAGES = [
  [0, 20],
  [20, 20],
  [0, 100],
  [1_000_000_000_000, 20],
] as const;

type Search = (
  q: string,
  types: readonly SearchType[],
  offset: number,
  limit: number,
) => ReturnType<typeof searchPlants>;

/** Every query, field choice and page of the search (PostgreSQL's, or `search`) against the brute force. */
async function expectBruteForce(database: Database, rows: PlantRow[], search?: Search): Promise<void> {
  for (const raw of QUERIES) {
    const q = normaliseSearchText(raw);
    for (const types of SHAPES) {
      const expected = bruteForce(rows, q, types);
      for (const [offset, limit] of PAGES) {
        const got = await (search ?? ((...a) => searchPlants(database.db, ...a)))(q, types, offset, limit);
        const want = expected.slice(offset, offset + limit);
        const context = `q=${q} types=${types.join(',')} offset=${offset}`;
        // Exact up to the cap; past it an estimate may stand in (when one field alone has more than the cap).
        if (expected.length <= SEARCH_EXACT_TOTAL_MAX) expect(got.totalIsEstimate, context).toBe(false);
        if (got.totalIsEstimate) {
          expect(expected.length, context).toBeGreaterThan(SEARCH_EXACT_TOTAL_MAX);
          expect(got.total, context).toBeGreaterThan(SEARCH_EXACT_TOTAL_MAX);
        } else {
          expect(got.total, context).toBe(expected.length);
        }
        expect(
          got.items.map((p) => [p.id, p.match]),
          context,
        ).toEqual(want.map((h) => [h.id, h.match]));
      }
    }
  }
}

/** The plan of a search (the page and the counts), as JSON text. */
async function planOf(database: Database, q: string, types: readonly SearchType[]): Promise<string> {
  return JSON.stringify(await rowsOf(database, sql`explain (format json) ${searchStatement(q, types, 0, 20)}`));
}

const SEQ_SCAN_OF_PLANTS = /"Seq Scan"[^}]*"Relation Name":\s*"plants"/;
const PREFIX_INDEXES = /plants_search_(species|location|owner)_prefix_idx/;

describe('search on PostgreSQL', () => {
  const rows = plantRows(8000);
  let database: Database;
  let pg: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

  beforeAll(async () => {
    pg = await createTestDatabase();
    database = await openDatabase({ url: pg.url, dataDir: '.' });
    await seed(database, rows);
  });
  afterAll(async () => {
    await database?.close();
    await pg?.drop();
  });

  for (const [q, types] of [
    ['menthe', SEARCH_TYPES],
    ['elodie dupre 48', SEARCH_TYPES],
    ['aeroskobing', ['location']],
    ['de', SEARCH_TYPES],
    ['a', ['owner']],
  ] as const) {
    it(`reads the page and the count of "${q}" (${types.join(', ')}) from the indexes, never the whole table`, async () => {
      const plan = await planOf(database, normaliseSearchText(q), types);
      expect(plan).toMatch(PREFIX_INDEXES);
      expect(plan).not.toMatch(SEQ_SCAN_OF_PLANTS);
    });
  }

  it('answers exactly what a brute-force scan answers: ids, match kinds, order, pages and totals', async () => {
    await expectBruteForce(database, rows);
  });
});

describe('search on PGlite (embedded mode)', () => {
  const rows = plantRows(1500);
  let dataDir: string;
  let database: Database;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rl-plants-search-'));
    database = await openDatabase({ dataDir });
    await seed(database, rows);
  });
  afterAll(async () => {
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('applies the migrations: pg_trgm, the prefix indexes, and the distinct texts', async () => {
    const ext = await rowsOf<{ extname: string }>(database, sql`select extname from pg_extension`);
    expect(ext.map((e) => e.extname)).toContain('pg_trgm');
    const indexes = await rowsOf<{ indexname: string; indexdef: string }>(
      database,
      sql`select indexname, indexdef from pg_indexes where schemaname = 'plants' and indexname like 'plants_search_%'
          order by indexname`,
    );
    expect(indexes.map((i) => i.indexname)).toEqual([
      'plants_search_location_prefix_idx',
      'plants_search_owner_prefix_idx',
      'plants_search_species_prefix_idx',
    ]);
    for (const i of indexes) expect(i.indexdef).toMatch(/USING btree \(\w+ COLLATE "C", id COLLATE "C"\)/);
    const [texts] = await rowsOf<{ n: number }>(
      database,
      sql`select count(*)::int as n from plants.search_texts where field = 'species'`,
    );
    expect(texts?.n).toBe(new Set(rows.map((r) => r.searchSpecies)).size);
  });

  it('answers exactly what a brute-force scan answers', async () => {
    await expectBruteForce(database, rows);
  });
});

const CHECKLIST = {
  source: 'checklist' as const,
  author: null,
  family: null,
  givenName: null,
  identificationId: null,
  provider: null,
  score: null,
  recordedAt: '2026-01-01T00:00:00.000Z',
};

const quiet = { info() {}, warn() {}, error() {}, debug() {} } as never;

/** Builds a replica's in-memory index from `database` and waits until it answers. */
async function builtFeed(database: Database): Promise<SearchIndexFeed> {
  const feed = createSearchIndexFeed({ db: database.db, log: quiet, pollMs: 60_000 });
  feed.start();
  await expect.poll(() => feed.ready, { timeout: 20_000 }).toBe(true);
  return feed;
}

/**
 * The in-memory index of every replica against the brute force: built from the table, then after plants were
 * registered, renamed, moved and given away in PostgreSQL (as any replica, an import or a job writes them).
 */
async function expectIndexFollowsTheTable(database: Database, rows: PlantRow[]): Promise<void> {
  const feed = await builtFeed(database);
  try {
    const search: Search = (...a) => searchIndexed(database.db, database.db, feed.index, ...a);
    await expectBruteForce(database, rows, search);
    const added = plantRows(rows.length + 40)
      .slice(rows.length)
      .map((r, i) => ({ ...r, id: `plt_${String(i).padStart(25, '0')}x` }));
    await database.db.execute(plantsInsert(added));
    const renamed = rows.slice(0, 30);
    for (const r of renamed) {
      const species = searchTexts({
        commonName: 'Edelweiss',
        scientificName: 'Leontopodium alpinum',
        ownerName: '',
      }).species;
      await setScientificName(database.db, r.id, 'Leontopodium alpinum', CHECKLIST, species);
    }
    const moved = rows.slice(30, 60);
    const place = { latitude: 45, longitude: 5, city: 'Menthe', country: 'FR' };
    const location = searchTexts({ commonName: '', ownerName: '', ...place }).location;
    for (const r of moved) await setPlantPlace(database.db, r.id, place, location);
    const given = rows.slice(60, 70);
    const owner = searchTexts({ commonName: '', ownerName: 'Søren Kierkegaard' }).owner;
    await database.db.execute(
      sql`update plants.plants set owner_name = 'Søren Kierkegaard', search_owner = ${owner}
        where id in (${sql.join(
          given.map((r) => sql`${r.id}`),
          sql`, `,
        )})`,
    );
    await feed.catchUp();
    const now = [
      ...rows.map((r) => {
        if (renamed.includes(r)) {
          return {
            ...r,
            searchSpecies: searchTexts({
              commonName: 'Edelweiss',
              scientificName: 'Leontopodium alpinum',
              ownerName: '',
            }).species,
          };
        }
        if (moved.includes(r)) return { ...r, searchLocation: location };
        if (given.includes(r)) return { ...r, searchOwner: owner };
        return r;
      }),
      ...added,
    ];
    expect(feed.index.size).toBe(now.length);
    await expectBruteForce(database, now, search);
    // The page's plants are read as stored now, found under their new texts.
    const found = await search('kierkegaard', ['owner'], 0, 20);
    expect(found.items.map((p) => p.owner.name)).toEqual(given.map(() => 'Søren Kierkegaard'));
  } finally {
    await feed.stop();
  }
}

describe('in-memory search index on PostgreSQL', () => {
  const rows = plantRows(4000);
  let database: Database;
  let pg: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

  beforeAll(async () => {
    pg = await createTestDatabase();
    database = await openDatabase({ url: pg.url, dataDir: '.' });
    await seed(database, rows);
  });
  afterAll(async () => {
    await database?.close();
    await pg?.drop();
  });

  it('answers what a brute-force scan answers, and again after plants were added and changed', async () => {
    await expectIndexFollowsTheTable(database, rows);
  });

  it('reads a change whose transaction commits after a later one was read', async () => {
    const feed = await builtFeed(database);
    const other = await openDatabase({ url: pg!.url, dataDir: '.' });
    try {
      const [early, late] = plantRows(2).map((r, i) => ({
        ...r,
        id: `plt_${i}${'z'.repeat(25)}`,
        searchSpecies: searchTexts({ commonName: `Quince ${i ? 'late' : 'early'}`, ownerName: '' }).species,
      }));
      const found = async () =>
        (await searchIndexed(database.db, database.db, feed.index, 'quince', ['species'], 0, 20)).items.map(
          (p) => p.id,
        );
      let commit!: () => void;
      const open = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => {
        wrote = resolve;
      });
      // The first transaction writes, and stays open while a later one writes, commits and is read.
      const first = other.db.transaction(async (tx) => {
        await tx.execute(plantsInsert([early!]));
        wrote();
        await open;
      });
      await written;
      await database.db.execute(plantsInsert([late!]));
      await feed.catchUp();
      expect(await found()).toEqual([late!.id]);
      commit();
      await first;
      await feed.catchUp();
      expect(await found()).toEqual([early!.id, late!.id]);
    } finally {
      await feed.stop();
      await other.close();
    }
  });
});

describe('in-memory search index on PGlite (embedded mode)', () => {
  const rows = plantRows(1200);
  let dataDir: string;
  let database: Database;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rl-plants-search-index-'));
    database = await openDatabase({ dataDir });
    await seed(database, rows);
  });
  afterAll(async () => {
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers what a brute-force scan answers, and again after plants were added and changed', async () => {
    await expectIndexFollowsTheTable(database, rows);
  });
});
