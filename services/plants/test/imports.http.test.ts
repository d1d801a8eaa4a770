import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedOrganization } from '@rootline/gateway/testing';
import { plantInput } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlantsPlatform, type TestPlatform } from './support.js';

const ALICE = 'usr_imp_alice';
const BOB = 'usr_imp_bob';
const HEADER =
  'key,crop,variety,harvestYear,quantityAmount,quantityUnit,parentPlantIds,storagePlace,storageTemperatureC,storageHumidityPct,storageContainer,notes';

async function form(fields: Record<string, string>, csv: string, name = 'lots.csv') {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append('file', new Blob([csv], { type: 'text/csv' }), name);
  const res = new Response(fd);
  return { payload: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') ?? '' };
}

describe('CSV import and export over HTTP', () => {
  let p: TestPlatform;
  let dir: string;
  let orgId: string;
  let mother: string;
  const tokens: Record<string, string> = {};

  const upload = async (sub: string, fields: Record<string, string>, csv: string, actAs?: string) => {
    const body = await form(fields, csv);
    const res = await p.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: {
        'content-type': body.type,
        authorization: `Bearer ${tokens[sub]}`,
        ...(actAs ? { 'rootline-act-as': actAs } : {}),
      },
      payload: body.payload,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const job = async (sub: string, id: string, query = '', actAs?: string) =>
    p.http('GET', `/api/imports/${id}${query}`, {
      token: tokens[sub] as string,
      ...(actAs ? { headers: { 'rootline-act-as': actAs } } : {}),
    });
  /** Starts an import and waits for its end. */
  const imported = async (sub: string, fields: Record<string, string>, csv: string, actAs?: string) => {
    const started = await upload(sub, fields, csv, actAs);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body.data.state).toBe('queued');
    for (let i = 0; i < 1200; i++) {
      const res = await job(sub, started.body.data.id, '?limit=100', actAs);
      if (res.body.data.state === 'done' || res.body.data.state === 'failed') return res.body.data;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the import did not end');
  };
  const exported = async (sub: string, url: string, actAs?: string) => {
    const res = await p.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${tokens[sub]}`, ...(actAs ? { 'rootline-act-as': actAs } : {}) },
    });
    return res;
  };
  const count = async (query: ReturnType<typeof sql>) =>
    ((await p.database.db.execute(query)) as unknown as { n: number }[])[0]?.n;
  const lotsOf = (owner: string) =>
    count(sql`select count(*)::int as n from plants.seed_lots where owner_id = ${owner}`);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rootline-imports-'));
    p = await startPlantsPlatform({ STORAGE_DIR: dir });
    for (const sub of [ALICE, BOB, 'usr_imp_member', 'usr_imp_viewer']) tokens[sub] = await p.token('GROWER', sub);
    orgId = await seedOrganization(p.database, 'Seed Library of Leiden', {
      usr_imp_member: 'member',
      usr_imp_viewer: 'viewer',
    });
    const reg = await p.http('POST', '/api/plants/register', {
      token: tokens[ALICE] as string,
      body: plantInput({ commonName: 'Tomato', owner: { id: ALICE } }),
    });
    expect(reg.status).toBe(201);
    mother = reg.body.data.id;
  });
  afterAll(async () => {
    await p?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const file = () =>
    [
      HEADER,
      `a1,Tomato,Brandywine,2025,120,seeds,${mother},"cellar, shelf 2",8,35,glass jar,best fruit`,
      'a2,Bean,,2024,50,grams,,,,,,',
      'a3,,,1800,-5,buckets,,,,,,', // line 4: crop missing, year and amount out of range, unit unknown
      'a4,Pea,,twenty,10,seeds,,,,,,', // line 5: not a number
      `a5,Lettuce,"Lollo\nRosso",2025,3,packets,plt_nosuchplant000001,,,,,`, // lines 6–7: unknown parent
      'a6,Carrot,Nantes,2025,200,seeds,,,,,,"sown, ""thinly"""',
    ].join('\n');

  it('a dry run reports every problem by its line and writes nothing', async () => {
    const done = await imported(ALICE, { kind: 'seed-lots', dryRun: 'true' }, file());
    expect(done).toMatchObject({ state: 'done', dryRun: true, counts: { created: 3, unchanged: 0, failed: 3 } });
    expect(done.progress.rowsRead).toBe(6);
    expect(done.progress.bytesRead).toBe(done.progress.totalBytes);
    const byLine = (line: number) => done.problems.items.filter((x: { line: number }) => x.line === line);
    expect(byLine(4).map((x: { field: string; reason: string }) => [x.field, x.reason])).toEqual(
      expect.arrayContaining([
        ['crop', 'required'],
        ['harvestYear', 'out-of-range'],
        ['quantityAmount', 'out-of-range'],
        ['quantityUnit', 'not-allowed'],
      ]),
    );
    expect(byLine(5)).toEqual([
      expect.objectContaining({ column: 'harvestYear', field: 'harvestYear', reason: 'not-a-number' }),
    ]);
    expect(byLine(6)).toEqual([expect.objectContaining({ field: 'parentPlantIds', reason: 'unknown-plant' })]);
    expect(done.problems.items.map((x: { line: number }) => x.line)).toEqual(
      [...done.problems.items.map((x: { line: number }) => x.line)].sort((a, b) => a - b),
    );
    expect(await lotsOf(ALICE)).toBe(0);
  });

  it('imports the good rows whole despite the bad ones, and a second import creates nothing', async () => {
    const done = await imported(ALICE, { kind: 'seed-lots' }, file());
    expect(done).toMatchObject({ state: 'done', dryRun: false, counts: { created: 3, unchanged: 0, failed: 3 } });
    expect(await lotsOf(ALICE)).toBe(3);
    // Each lot with its first quantity change: nothing half-written.
    const changes = await count(
      sql`select count(*)::int as n from plants.seed_lot_quantity_changes c join plants.seed_lots l on l.id = c.seed_lot_id where l.owner_id = ${ALICE}`,
    );
    expect(changes).toBe(3);
    const list = await p.http('GET', '/api/seed-lots?limit=100', { token: tokens[ALICE] as string });
    const carrot = list.body.data.find((l: { crop: string }) => l.crop === 'Carrot');
    expect(carrot).toMatchObject({
      variety: 'Nantes',
      notes: 'sown, "thinly"',
      quantity: { amount: 200, unit: 'seeds' },
    });
    const tomato = list.body.data.find((l: { crop: string }) => l.crop === 'Tomato');
    expect(tomato).toMatchObject({ parentPlantIds: [mother], storage: { place: 'cellar, shelf 2', temperatureC: 8 } });

    const again = await imported(ALICE, { kind: 'seed-lots' }, file());
    expect(again.counts).toEqual({ created: 0, unchanged: 3, failed: 3 });
    expect(await lotsOf(ALICE)).toBe(3);

    const changed = await imported(ALICE, { kind: 'seed-lots' }, `${HEADER}\na2,Bean,,2024,49,grams,,,,,,\n`);
    expect(changed.counts).toEqual({ created: 0, unchanged: 0, failed: 1 });
    expect(changed.problems.items[0]).toMatchObject({ line: 2, field: 'key', reason: 'key-conflict' });
  });

  it('maps the file’s own headers, and fails a file whose mapped column is missing', async () => {
    const csv = `${'Ref;Crop;Year;Seeds;Unit\n'.replaceAll(';', ',')}m1,Squash,2023,12,seeds\n`;
    const done = await imported(
      ALICE,
      {
        kind: 'seed-lots',
        mapping: JSON.stringify({ Crop: 'crop', Year: 'harvestYear', Seeds: 'quantityAmount', Unit: 'quantityUnit' }),
        keyColumn: 'Ref',
      },
      csv,
    );
    expect(done).toMatchObject({ state: 'done', counts: { created: 1, unchanged: 0, failed: 0 }, keyColumn: 'Ref' });
    expect(done.mapping).toMatchObject({ Ref: 'key', Crop: 'crop' });

    const bad = await imported(ALICE, { kind: 'seed-lots', mapping: JSON.stringify({ Kind: 'crop' }) }, csv);
    expect(bad.state).toBe('failed');
    expect(bad.problems.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ line: 1, column: 'Kind', reason: 'unknown-column' })]),
    );

    const big = `${HEADER}\n${'x'.repeat(64 * 1024 * 1024)}\n`;
    const tooLarge = await upload(ALICE, { kind: 'seed-lots' }, big);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { maxBytes: 64 * 1024 * 1024 } });
    const refused = await upload(ALICE, { kind: 'seeds' }, csv);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    const unclosed = await imported(
      ALICE,
      { kind: 'seed-lots' },
      `${HEADER}\nu1,Okra,,2025,5,seeds,,,,,,"never closed\n`,
    );
    expect(unclosed.state).toBe('failed');
    expect(unclosed.problems.items[0]).toMatchObject({ reason: 'malformed' });
  });

  it('exports the lots in the import’s shape: importing the export changes nothing', async () => {
    const made = await p.http('POST', '/api/seed-lots', {
      token: tokens[ALICE] as string,
      body: { crop: 'Leek', harvestYear: 2022, quantity: { amount: 0.5, unit: 'grams' }, notes: 'line one\nline two' },
    });
    expect(made.status).toBe(201);
    const res = await exported(ALICE, '/api/seed-lots/export.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('attachment');
    const text = res.body;
    expect(text.split('\n')[0]).toBe(HEADER);
    expect(text).toContain(made.body.data.id);
    const before = await lotsOf(ALICE);
    const done = await imported(ALICE, { kind: 'seed-lots' }, text);
    expect(done.counts).toEqual({ created: 0, unchanged: before, failed: 0 });
    expect(await lotsOf(ALICE)).toBe(before);
  });

  it('keeps to who may import and read: the owner, the organization’s members and viewers', async () => {
    const mine = await imported(
      ALICE,
      { kind: 'seed-lots', dryRun: 'true' },
      `${HEADER}\nx1,Kale,,2025,1,packets,,,,,,\n`,
    );
    const other = await job(BOB, mine.id);
    expect(other.status).toBe(403);
    const missing = await job(ALICE, 'imp_01HZX3K6Q2W8N4B7T5R9V0C1MD');
    expect(missing.status).toBe(404);

    const viewerStart = await upload(
      'usr_imp_viewer',
      { kind: 'seed-lots' },
      `${HEADER}\no1,Kale,,2025,1,packets,,,,,,\n`,
      orgId,
    );
    expect(viewerStart.status).toBe(403);
    const orgImport = await imported(
      'usr_imp_member',
      { kind: 'seed-lots' },
      `${HEADER}\no1,Kale,,2025,1,packets,,,,,,\n`,
      orgId,
    );
    expect(orgImport).toMatchObject({ ownerId: orgId, counts: { created: 1 } });
    expect(await lotsOf(orgId)).toBe(1);
    const viewerReads = await p.http('GET', `/api/imports/${orgImport.id}`, {
      token: tokens.usr_imp_viewer as string,
      headers: { 'rootline-act-as': orgId },
    });
    expect(viewerReads.status).toBe(200);
    const viewerExport = await exported('usr_imp_viewer', '/api/seed-lots/export.csv', orgId);
    expect(viewerExport.statusCode).toBe(200);
    expect(viewerExport.body).toContain('o1,Kale');

    const foreign = await exported(BOB, `/api/seed-lots/export.csv?ownerId=${ALICE}`);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error.code).toBe('FORBIDDEN');
  });

  it('lists each owner’s own imports, newest first, a page at a time and by state; never another’s', async () => {
    const list = async (sub: string | null, query = '', actAs?: string) =>
      p.http('GET', `/api/imports${query}`, {
        ...(sub ? { token: tokens[sub] as string } : {}),
        ...(actAs ? { headers: { 'rootline-act-as': actAs } } : {}),
      });
    const bobs = await imported(
      BOB,
      { kind: 'seed-lots', dryRun: 'true' },
      `${HEADER}\nb1,Kale,,2025,1,packets,,,,,,\n`,
    );
    const stored = async (owner: string) =>
      count(sql`select count(*)::int as n from plants.imports where owner_id = ${owner}`);

    const alices = await list(ALICE, '?limit=100');
    expect(alices.status, JSON.stringify(alices.body)).toBe(200);
    const items = alices.body.data as { id: string; ownerId: string; createdAt: string; state: string }[];
    expect(items.length).toBeGreaterThan(3);
    expect(alices.body.pagination).toMatchObject({ page: 1, total: await stored(ALICE) });
    expect(items.every((i) => i.ownerId === ALICE)).toBe(true);
    expect(items.map((i) => i.id)).not.toContain(bobs.id);
    const times = items.map((i) => i.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    // Each with its counts and how many problems its report holds, not the problems themselves.
    expect(items[0]).toMatchObject({ counts: expect.any(Object), problems: { kept: expect.any(Number) } });
    expect(items[0]).not.toHaveProperty('problems.items');

    const second = await list(ALICE, '?limit=1&page=2');
    expect(second.body.data.map((i: { id: string }) => i.id)).toEqual([items[1]?.id]);
    expect(second.body.pagination).toMatchObject({ page: 2, limit: 1, totalPages: items.length });

    const failed = await list(ALICE, '?state=failed&limit=100');
    expect(failed.body.data.length).toBeGreaterThan(0);
    expect(failed.body.data.length).toBe(items.filter((i) => i.state === 'failed').length);
    expect(failed.body.data.every((i: { state: string }) => i.state === 'failed')).toBe(true);
    expect((await list(ALICE, '?state=lost')).status).toBe(400);

    const bobsList = await list(BOB);
    expect(bobsList.body.data.map((i: { id: string }) => i.id)).toEqual([bobs.id]);
    expect(bobsList.body.pagination.total).toBe(1);

    // An organization's imports to its members and viewers acting for it; its members' own stay their own.
    const orgIds = (await list('usr_imp_viewer', '', orgId)).body.data.map((i: { ownerId: string }) => i.ownerId);
    expect(orgIds.length).toBeGreaterThan(0);
    expect(new Set(orgIds)).toEqual(new Set([orgId]));
    expect((await list('usr_imp_member')).body.data).toEqual([]);
    const outsider = await list(BOB, '', orgId);
    expect(outsider.status).toBe(403);
    expect(JSON.stringify(outsider.body)).not.toContain('imp_');
    expect((await list(null)).status).toBe(401);
  });

  it('imports plants through the ledger, once per key, and exports them', async () => {
    const csv = [
      'key,commonName,scientificName,latitude,longitude,city,country,privacyLevel',
      'p1,Fig,Ficus carica,43.3,5.4,Marseille,FR,city',
      'p2,Olive,,91,5.4,,,exact',
      'p3,Quince,,43.2,5.3,,,exact',
    ].join('\n');
    const dry = await imported(ALICE, { kind: 'plants', dryRun: 'true' }, csv);
    expect(dry.counts).toEqual({ created: 2, unchanged: 0, failed: 1 });
    expect(dry.problems.items[0]).toMatchObject({ line: 3, field: 'latitude', reason: 'out-of-range' });
    const done = await imported(ALICE, { kind: 'plants' }, csv);
    expect(done.counts).toEqual({ created: 2, unchanged: 0, failed: 1 });
    const again = await imported(ALICE, { kind: 'plants' }, csv);
    expect(again.counts).toEqual({ created: 0, unchanged: 2, failed: 1 });

    // A hidden plant has no location to export: its row names it by its id and imports back unchanged.
    const hidden = await p.http('POST', '/api/plants/register', {
      token: tokens[ALICE] as string,
      body: plantInput({ commonName: 'Medlar', owner: { id: ALICE }, privacyLevel: 'hidden' }),
    });
    expect(hidden.status).toBe(201);
    const res = await exported(ALICE, '/api/plants/export.csv');
    expect(res.body).toContain(`${hidden.body.data.id},Medlar,Solanum lycopersicum,,,,,hidden`);
    expect(res.statusCode).toBe(200);
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('key,commonName,scientificName,latitude,longitude,city,country,privacyLevel');
    expect(lines.filter((l) => l.startsWith('p1,Fig,Ficus carica,'))).toHaveLength(1);
    const round = await imported(ALICE, { kind: 'plants' }, res.body);
    expect(round.counts).toEqual({ created: 0, unchanged: lines.length - 1, failed: 0 });
  });

  it('records several batches of plants at once, counting and reporting every row in the file’s order', async () => {
    // 2,500 rows: three batches of at most 1,000, recorded while the next is read and checked.
    const rows = Array.from(
      { length: 2500 },
      (_, i) =>
        `b${i},Bean ${i % 40},,${(50 + (i % 300) / 100).toFixed(2)},${(4 + (i % 200) / 100).toFixed(2)},,,exact`,
    );
    rows[1] = 'b1,Bean,,91,4.1,,,exact'; // line 3, first batch: latitude out of range
    rows[1498] = 'b5,Broad bean,,50.1,4.1,,,exact'; // line 1500, second batch: b5 (first batch) with other values
    rows[2098] = rows[6] as string; // line 2100, third batch: b6 again, the same row
    const csv = ['key,commonName,scientificName,latitude,longitude,city,country,privacyLevel', ...rows].join('\n');
    const plantsOfBob = () => count(sql`select count(*)::int as n from plants.plants where owner_id = ${BOB}`);
    const keysOfBob = () =>
      count(sql`select count(*)::int as n from plants.import_keys where owner_id = ${BOB} and kind = 'plants'`);

    const done = await imported(BOB, { kind: 'plants' }, csv);
    expect(done.state).toBe('done');
    expect(done.counts).toEqual({ created: 2497, unchanged: 1, failed: 2 });
    expect(done.progress.rowsRead).toBe(2500);
    expect(done.problems.items.map((i: { line: number; reason: string }) => [i.line, i.reason])).toEqual([
      [3, 'out-of-range'],
      [1500, 'duplicate-key'],
    ]);
    expect(await plantsOfBob()).toBe(2497);
    expect(await keysOfBob()).toBe(2497);
    // Every plant's transaction is in a block of the chain; the failing row of the first batch held none back.
    expect(
      await count(
        sql`select count(*)::int as n from plants.plants p join chain.transactions t on t.id = p.tx_id
            join chain.blocks b on b.hash = p.block_hash where p.owner_id = ${BOB}`,
      ),
    ).toBe(2497);
    const keyOf = (k: string) =>
      count(sql`select count(*)::int as n from plants.import_keys where owner_id = ${BOB} and key = ${k}`);
    expect(await keyOf('b2400')).toBe(1);
    expect(await keyOf('b1')).toBe(0);

    // A reading stopped after plants were stored but before their keys were: read again, the file names the same
    // plants, records their keys and creates none twice.
    await p.database.db.execute(
      sql`delete from plants.import_keys where owner_id = ${BOB} and kind = 'plants' and key in ('b100', 'b1100', 'b2200')`,
    );
    const again = await imported(BOB, { kind: 'plants' }, csv);
    expect(again.counts).toEqual({ created: 3, unchanged: 2496, failed: 1 });
    expect(await plantsOfBob()).toBe(2497);
    expect(await keysOfBob()).toBe(2497);
  });
});
