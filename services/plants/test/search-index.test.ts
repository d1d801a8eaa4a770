import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEARCH_TYPES, type SearchType } from '@rootline/contracts';
import { type Database, executeRows, migrateSchema, openDatabase } from '@rootline/db';
import { normaliseSearchText } from '@rootline/host';
import { createTestDatabase } from '@rootline/testing';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlantRow, plantsInsert, searchPlants, searchQuery } from '../src/db/plants.repo.js';
import { matchKind, searchTexts } from '../src/domain/search.js';
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

/** The relevance rules of docs/plants.md, in plain JavaScript. */
function rankOf(text: string, q: string): number {
  if (text === q) return 0;
  if (text.startsWith(q)) return 1;
  if (text.includes(` ${q}`)) return 2;
  return text.includes(q) ? 3 : 4;
}

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
        species: r.searchSpecies ?? '',
        best,
        field,
        match: { field: types[field], kind: matchKind(best) },
      };
    })
    .filter((h) => h.best < 4)
    .sort(
      (a, b) =>
        a.best - b.best ||
        a.field - b.field ||
        (a.species < b.species ? -1 : a.species > b.species ? 1 : 0) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
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
  'xyzzy',
];
const SHAPES: (readonly SearchType[])[] = [SEARCH_TYPES, ['species'], ['location'], ['owner']];
const PAGES = [
  [0, 20],
  [20, 20],
  [0, 100],
  [1_000_000_000_000, 20],
] as const;

/** Every query, field choice and page of the search against the brute force. */
async function expectBruteForce(database: Database, rows: PlantRow[]): Promise<void> {
  for (const raw of QUERIES) {
    const q = normaliseSearchText(raw);
    for (const types of SHAPES) {
      const expected = bruteForce(rows, q, types);
      for (const [offset, limit] of PAGES) {
        const got = await searchPlants(database.db, q, types, offset, limit);
        const want = expected.slice(offset, offset + limit);
        const context = `q=${q} types=${types.join(',')} offset=${offset}`;
        expect(got.total, context).toBe(expected.length);
        expect(
          got.items.map((p) => [p.id, p.match]),
          context,
        ).toEqual(want.map((h) => [h.id, h.match]));
      }
    }
  }
}

/**
 * The plan of a search, as JSON text. `indexOnly` disables sequential scans for the statement: on a table this
 * small a scan is rightly cheaper than three index scans, but with scans disabled a plan still scans when no
 * index can answer the filter, so seeing the index proves it can. (On 200,000 plants PostgreSQL chooses it
 * unprompted; see docs/adr/022-search-trigram-index.md.)
 */
async function planOf(database: Database, q: string, types: readonly SearchType[], indexOnly = false): Promise<string> {
  const explain = sql`explain (format json) ${searchQuery(q, types, 0, 20)}`;
  return database.db.transaction(async (tx) => {
    if (indexOnly) await tx.execute(sql`set local enable_seqscan = off`);
    const r = (await tx.execute(explain)) as unknown as unknown[] | { rows: unknown[] };
    return JSON.stringify(Array.isArray(r) ? r : r.rows);
  });
}

const SEQ_SCAN_OF_PLANTS = /"Seq Scan"[^}]*"Relation Name":\s*"plants"/;

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

  it('can answer `LIKE %q%` over the three fields from their trigram indexes, as a BitmapOr', async () => {
    const plan = await planOf(database, 'elodie dupre 48', SEARCH_TYPES, true);
    expect(plan).toContain('BitmapOr');
    for (const index of ['plants_search_species_idx', 'plants_search_location_idx', 'plants_search_owner_idx']) {
      expect(plan).toContain(index);
    }
    expect(plan).not.toMatch(SEQ_SCAN_OF_PLANTS);
  });

  it('uses only the index of the field named by type', async () => {
    const plan = await planOf(database, 'aeroskobing', ['location'], true);
    expect(plan).toContain('plants_search_location_idx');
    expect(plan).not.toContain('plants_search_species_idx');
    expect(plan).not.toMatch(SEQ_SCAN_OF_PLANTS);
  });

  it('scans the table for a query too short for a trigram, even when the indexes are there', async () => {
    const plan = await planOf(database, 'de', SEARCH_TYPES);
    expect(plan).toMatch(SEQ_SCAN_OF_PLANTS);
    expect(plan).not.toContain('plants_search_');
  });

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

  it('applies the migrations: pg_trgm and the three trigram indexes exist', async () => {
    const ext = await rowsOf<{ extname: string }>(database, sql`select extname from pg_extension`);
    expect(ext.map((e) => e.extname)).toContain('pg_trgm');
    const indexes = await rowsOf<{ indexname: string; indexdef: string }>(
      database,
      sql`select indexname, indexdef from pg_indexes where schemaname = 'plants' and indexname like 'plants_search_%'
          order by indexname`,
    );
    expect(indexes.map((i) => i.indexname)).toEqual([
      'plants_search_location_idx',
      'plants_search_owner_idx',
      'plants_search_species_idx',
    ]);
    for (const i of indexes) expect(i.indexdef).toMatch(/USING gin \(\w+ gin_trgm_ops\)/);
  });

  it('can answer the search from the trigram indexes, as on PostgreSQL', async () => {
    const plan = await planOf(database, 'elodie dupre 48', SEARCH_TYPES, true);
    expect(plan).toContain('BitmapOr');
    expect(plan).toContain('plants_search_owner_idx');
  });

  it('answers exactly what a brute-force scan answers', async () => {
    await expectBruteForce(database, rows);
  });
});
