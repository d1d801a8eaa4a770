import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import postgres from 'postgres';

/** Rows per chunk written to the COPY stream. */
const CHUNK_ROWS = 10_000;

/** What a benchmark chooses of a seeded plant; the ledger fields are filled in (no block was mined for it). */
export interface SeedPlant {
  id: string;
  commonName: string;
  scientificName: string | null;
  /** Null for a hidden plant. */
  latitude: number | null;
  longitude: number | null;
  city: string | null;
  country: string | null;
  privacyLevel: string;
  ownerId: string;
  ownerName: string;
  /** The normalised texts the plants service stores for search. */
  searchSpecies: string;
  searchLocation: string;
  searchOwner: string;
}

const COLUMNS = [
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
  'generation',
  'block_index',
  'block_hash',
  'tx_id',
  'registered_at',
  'search_species',
  'search_location',
  'search_owner',
];

/** COPY text of the plants, in chunks; no value may hold a tab, newline or backslash. */
function* copyText(plants: Iterable<SeedPlant>): Generator<string> {
  const at = new Date().toISOString();
  const hash = '0'.repeat(64);
  const text = (v: string | number | null) => (v === null ? '\\N' : String(v));
  const chunk: string[] = [];
  let n = 0;
  for (const p of plants) {
    const row = [
      p.id,
      p.commonName,
      p.scientificName,
      p.latitude,
      p.longitude,
      p.city,
      p.country,
      p.privacyLevel,
      p.ownerId,
      p.ownerName,
      0,
      0,
      hash,
      `tx_bench_${n++}`,
      at,
      p.searchSpecies,
      p.searchLocation,
      p.searchOwner,
    ];
    chunk.push(row.map(text).join('\t'));
    if (chunk.length === CHUNK_ROWS) {
      yield `${chunk.join('\n')}\n`;
      chunk.length = 0;
    }
  }
  if (chunk.length > 0) yield `${chunk.join('\n')}\n`;
}

/**
 * Seeds the plants table straight with COPY (not through the API and not on the ledger: a million mined
 * registrations would take hours and measure the miner), with the indexes in place as the migrations made them,
 * then VACUUM ANALYZE as autovacuum would (which also flushes GIN indexes' pending lists).
 */
export async function seedPlants(databaseUrl: string, plants: Iterable<SeedPlant>): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const writable = await sql.unsafe(`copy plants.plants (${COLUMNS.join(', ')}) from stdin`).writable();
    await pipeline(Readable.from(copyText(plants)), writable);
    await sql.unsafe('vacuum analyze plants.plants');
  } finally {
    await sql.end();
  }
}
