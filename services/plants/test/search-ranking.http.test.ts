import { SEARCH_EXACT_TOTAL_MAX } from '@rootline/contracts';
import { executeRows } from '@rootline/db';
import { plantInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlantsPlatform, type TestPlatform } from './support.js';

/** Plants of one species written straight into the table (as the benchmark seeds them): registering 10,000 is slow. */
const bulk = (prefix: string, n: number, commonName: string, scientificName: string, speciesText: string) => sql`
  insert into plants.plants (id, common_name, scientific_name, owner_id, owner_name, block_index, block_hash, tx_id,
    registered_at, search_species, search_location, search_owner)
  select ${prefix} || lpad(i::text, 6, '0'), ${commonName}, ${scientificName}, 'usr_bulk', 'Bulk Grower', 0,
    repeat('0', 64), ${prefix} || 'tx' || i, now(), ${speciesText}, '', 'bulk grower'
  from generate_series(1, ${n}::int) i`;

describe('search over HTTP on NATS and PostgreSQL: ranking, capped totals, short queries', () => {
  let p: TestPlatform;
  let reader: string;
  const ids: Record<string, string> = {};

  const search = (query: string) => p.http('GET', `/api/plants/search?${query}`, { token: reader });
  const found = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id);
  const kinds = (res: { body: { data: { match: { field: string; kind: string } }[] } }) =>
    res.body.data.map((x) => `${x.match.field}:${x.match.kind}`);

  beforeAll(async () => {
    p = await startPlantsPlatform();
    const grower = await p.token('ADMIN', 'usr_grower');
    reader = await p.token('USER', 'usr_reader');
    const reg = async (key: string, body: unknown) => {
      const res = await p.http('POST', '/api/plants/register', { token: grower, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids[key] = res.body.data.id;
    };
    // Exactly the cap of plants whose species is "tomato solanum lycopersicum", three tomato berries and three
    // tomatillos.
    await executeRows(
      p.database.db,
      bulk('plt_bulk_tomato_', SEARCH_EXACT_TOTAL_MAX, 'Tomato', 'Solanum lycopersicum', 'tomato solanum lycopersicum'),
    );
    await executeRows(
      p.database.db,
      bulk('plt_bulk_berry_', 3, 'Tomato Berry', 'Lycopersicon cerasiforme', 'tomato berry lycopersicon cerasiforme'),
    );
    await executeRows(
      p.database.db,
      bulk('plt_bulk_tomatillo_', 3, 'Tomatillo', 'Physalis philadelphica', 'tomatillo physalis philadelphica'),
    );
    // Registered through the API, after the bulk: the search's texts follow every write.
    await reg('tomato', plantInput({ commonName: 'tomato', scientificName: undefined }));
    await reg('phlox', plantInput({ commonName: 'Phlox', scientificName: undefined }));
    await reg('graphite', plantInput({ commonName: 'Graphite Fern', scientificName: undefined }));
    await reg(
      'zurich',
      plantInput({
        commonName: 'Edelweiss',
        scientificName: undefined,
        location: { latitude: 47.37, longitude: 8.54, city: 'Zürich', country: 'CH' },
      }),
    );
    await executeRows(p.database.db, sql`analyze plants.plants`);
  });
  afterAll(async () => p?.stop());

  it('ranks exact before prefix, then by the matched text and id, reading only the page', async () => {
    const res = await search('q=tomato&type=species&limit=6');
    expect(res.status).toBe(200);
    const got = found(res);
    expect(got[0]).toBe(ids.tomato);
    // "tomato berry …" sorts before "tomato solanum …" in byte order; each text's plants by id.
    expect(got.slice(1, 4)).toEqual(['plt_bulk_berry_000001', 'plt_bulk_berry_000002', 'plt_bulk_berry_000003']);
    expect(got.slice(4)).toEqual(['plt_bulk_tomato_000001', 'plt_bulk_tomato_000002']);
    expect(kinds(res)).toEqual(['species:exact', ...Array(5).fill('species:prefix')]);
    const later = await search('q=tomato&type=species&limit=5&page=3');
    expect(found(later)).toEqual([11, 12, 13, 14, 15].map((n) => `plt_bulk_tomato_${String(n - 4).padStart(6, '0')}`));
  });

  it(`counts exactly up to ${SEARCH_EXACT_TOTAL_MAX.toLocaleString('en')} matches and says so`, async () => {
    const atCap = await search('q=solanum');
    expect(atCap.body.pagination).toEqual({
      page: 1,
      limit: 20,
      total: SEARCH_EXACT_TOTAL_MAX,
      totalPages: SEARCH_EXACT_TOTAL_MAX / 20,
      totalIsEstimate: false,
    });
    const few = await search('q=tomatillo');
    expect(few.body.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1, totalIsEstimate: false });
  });

  it('gives an estimate past the cap, marked as one, never below the cap + 1', async () => {
    const res = await search('q=tomato');
    expect(res.status).toBe(200);
    const { total, totalPages, totalIsEstimate } = res.body.pagination;
    expect(totalIsEstimate).toBe(true);
    expect(total).toBeGreaterThan(SEARCH_EXACT_TOTAL_MAX);
    expect(totalPages).toBe(Math.ceil(total / 20));
    expect(res.body.data).toHaveLength(20);
  });

  it('answers a short query from the start of a text or of a word, not from inside a word', async () => {
    const ph = await search('q=ph&type=species');
    expect(found(ph)).toEqual([
      ids.phlox,
      'plt_bulk_tomatillo_000001',
      'plt_bulk_tomatillo_000002',
      'plt_bulk_tomatillo_000003',
    ]);
    expect(kinds(ph)).toEqual(['species:prefix', 'species:word', 'species:word', 'species:word']);
    expect(ph.body.pagination).toMatchObject({ total: 4, totalIsEstimate: false });
    // Three characters or more also find a text that holds q inside a word ("graphite").
    const phi = await search('q=phi&type=species');
    expect(found(phi)).toEqual([...found(ph).slice(1), ids.graphite]);
    expect(kinds(phi).at(-1)).toBe('species:substring');
    // A country code: the word "ch" of "zurich ch switzerland", not the "ch" inside "zurich".
    const ch = await search('q=ch&type=location');
    expect(found(ch)).toEqual([ids.zurich]);
    expect(kinds(ch)).toEqual(['location:word']);
    expect(found(await search('q=ri&type=location'))).toEqual([]);
  });

  it('finds one letter at the start of a text across all fields', async () => {
    const res = await search('q=z');
    expect(found(res)).toEqual([ids.zurich]);
    expect(kinds(res)).toEqual(['location:prefix']);
  });
});
