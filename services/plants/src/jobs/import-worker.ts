import { Transform } from 'node:stream';
import type { Actor } from '@rootline/contracts';
import { IMPORT_LIMITS, type ImportKind, type ImportProblem } from '@rootline/contracts/imports';
import { secureRandom } from '@rootline/domain';
import { discloseLocation } from '@rootline/geocoder';
import { createPeriodic, type Periodic, type ServiceContext } from '@rootline/host';
import type { Storage } from '@rootline/storage';
import { parse } from 'csv-parse';
import {
  claimImport,
  clearProblems,
  findKeys,
  type ImportRow,
  insertKeys,
  insertProblems,
  insertSeedLots,
  ownedPlantIds,
  ownedSeedLots,
  updateImport,
} from '../db/imports.repo.js';
import type { Recorder } from '../db/ledger.js';
import { missingPlants } from '../db/seed-lots.repo.js';
import {
  type Columns,
  type PlantValues,
  type ReadRow,
  type RowProblem,
  readPlantRow,
  readSeedLotRow,
  resolveColumns,
  type SeedLotValues,
  sameSeedLot,
} from '../domain/imports.js';
import { cropKey } from '../domain/seed-lots.js';
import { checkedName, recordPlant } from '../handlers/plant.js';

/** A claim older than this belongs to a replica that died mid-file: another takes the import over. */
export const IMPORT_LEASE_MS = 60_000;
/** How many plants of a batch are recorded on the ledger at once (the recorder groups them into blocks). */
const PLANT_CONCURRENCY = 1000;
/**
 * How many batches of plants wait for their blocks at once while the next batch is read and checked (ADR 300).
 * Their outcomes are counted and reported in the order of the file.
 */
export const PLANT_BATCHES_IN_FLIGHT = 3;

interface Tally {
  created: number;
  unchanged: number;
  failed: number;
  problems: number;
  truncated: boolean;
}

/** A row of the file with the line it starts on. */
interface Line {
  line: number;
  record: string[];
}

/** The key a plant imported under `key` is named by: a second reading of the file names the same plant. */
function plantRef(ownerId: string, key: string): string {
  return `import:${ownerId}:${key}`;
}

/** The stored values of a lot, as a row of the file has them. */
function valuesOfLot(l: Awaited<ReturnType<typeof ownedSeedLots>>[number]): SeedLotValues {
  return {
    crop: l.crop,
    variety: l.variety,
    harvestYear: l.harvestYear,
    quantityAmount: l.quantityAmount,
    quantityUnit: l.quantityUnit,
    parentPlantIds: l.parentPlantIds,
    storagePlace: l.storagePlace,
    storageTemperatureC: l.storageTemperatureC,
    storageHumidityPct: l.storageHumidityPct,
    storageContainer: l.storageContainer,
    notes: l.notes,
  };
}

/**
 * Reads one claimed import from storage to its end: rows are read as a stream (never the whole file), checked
 * against the rules of their single-record operation and written a batch at a time, each batch in one transaction
 * with its keys, so a row is written whole or not at all. A dry run checks the same and writes nothing but the job.
 */
export async function runImport(ctx: ServiceContext, storage: Storage, recorder: Recorder, job: ImportRow) {
  const kind = job.kind as ImportKind;
  const dryRun = job.dryRun === 1;
  const tally: Tally = { created: 0, unchanged: 0, failed: 0, problems: 0, truncated: false };
  // Read from the start, also when taking over a dead replica's import: the keys make rows already written unchanged.
  await clearProblems(ctx.db, job.id);
  const seenInFile = new Map<string, SeedLotValues | PlantValues | null>();
  let bytesRead = 0;
  let rowsRead = 0;
  /** Rows whose outcome is counted: the progress shown (rows of batches still waiting for blocks are not). */
  let rowsDone = 0;

  const report = async (problems: ImportProblem[]) => {
    const room = Math.max(0, IMPORT_LIMITS.maxProblems - tally.problems);
    const kept = problems.slice(0, room);
    if (kept.length < problems.length) tally.truncated = true;
    await insertProblems(ctx.db, job.id, tally.problems, kept);
    tally.problems += kept.length;
  };
  const progress = (change: Partial<ImportRow> = {}) =>
    updateImport(ctx.db, job.id, {
      rowsRead: rowsDone,
      bytesRead,
      created: tally.created,
      unchanged: tally.unchanged,
      failed: tally.failed,
      problemsKept: tally.problems,
      problemsTruncated: tally.truncated ? 1 : 0,
      claimedAt: ctx.clock.now().toISOString(),
      ...change,
    });
  const finish = async (state: 'done' | 'failed') => {
    await progress({ state, finishedAt: ctx.clock.now().toISOString() });
    await storage.delete([job.uploadKey]).catch((err: unknown) => ctx.log.warn({ err }, 'import file not removed'));
  };

  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytesRead += chunk.length;
      done(null, chunk);
    },
  });
  const parser = parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true });
  const source = await storage.get(job.uploadKey);
  source.on('error', (err) => parser.destroy(err));
  source.pipe(counter).pipe(parser);

  let columns: Columns | undefined;
  let batch: Line[] = [];
  let lastLine = 0;
  let lastEmpty = 0;
  /** Batches of plants waiting for their blocks, oldest first; each settles to its rows' problems. */
  const inFlight: { rows: number; problems: Promise<ImportProblem[]> }[] = [];
  const settle = async (rows: number, problems: ImportProblem[]) => {
    await report(problems);
    rowsDone += rows;
    await progress();
  };
  /** Waits for the oldest batch in flight and reports it, so problems and progress keep the file's order. */
  const settleOldest = async () => {
    const oldest = inFlight.shift();
    if (oldest) await settle(oldest.rows, await oldest.problems);
  };
  const drain = async () => {
    while (inFlight.length > 0) await settleOldest();
  };
  const flush = async () => {
    if (batch.length === 0 || !columns) return;
    const rows = batch;
    batch = [];
    if (kind === 'seed-lots') {
      await settle(rows.length, await seedLotBatch(ctx, job, columns, rows, dryRun, tally, seenInFile));
      return;
    }
    // Read and checked in the file's order (duplicates within the file are found here); recorded while the next
    // batches are read and checked.
    const written = plantBatch(ctx, recorder, job, columns, rows, dryRun, tally, seenInFile);
    // Awaited in turn below (or by the failure path): never an unhandled rejection meanwhile.
    written.recorded.catch(() => {});
    const checked = await written.checked;
    const recorded = written.recorded.then((more) => [...checked, ...more]);
    recorded.catch(() => {});
    inFlight.push({ rows: rows.length, problems: recorded });
    while (inFlight.length > PLANT_BATCHES_IN_FLIGHT) await settleOldest();
  };
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number; empty_lines: number };
    }>) {
      const line = lastLine + 1 + (info.empty_lines - lastEmpty);
      lastLine = info.lines;
      lastEmpty = info.empty_lines;
      if (!columns) {
        const resolved = resolveColumns(kind, record, job.mapping, job.keyColumn);
        if (resolved.problems.length > 0) {
          await report(resolved.problems.map((p) => ({ line, ...p })));
          parser.destroy();
          source.destroy();
          await finish('failed');
          return;
        }
        columns = resolved.columns;
        await updateImport(ctx.db, job.id, { mapping: columns.applied });
        continue;
      }
      rowsRead += 1;
      if (rowsRead > IMPORT_LIMITS.maxRows) {
        rowsRead -= 1;
        await flush();
        await drain();
        await report([
          {
            line,
            column: null,
            field: null,
            reason: 'too-many-rows',
            message: `A file holds at most ${IMPORT_LIMITS.maxRows} rows`,
          },
        ]);
        parser.destroy();
        source.destroy();
        await finish('failed');
        return;
      }
      batch.push({ line, record });
      if (batch.length >= IMPORT_LIMITS.batchRows) await flush();
    }
    await flush();
    await drain();
    if (!columns) {
      await report([{ line: 1, column: null, field: null, reason: 'missing-column', message: 'The file is empty' }]);
      await finish('failed');
      return;
    }
    await finish('done');
  } catch (err) {
    const e = err as { code?: string; lines?: number; message?: string };
    if (typeof e.code === 'string' && e.code.startsWith('CSV_')) {
      // The parser cannot go on past malformed CSV (an unclosed quote): the rows before it stand, each whole.
      await flush()
        .then(drain)
        .catch(() => Promise.allSettled(inFlight.map((b) => b.problems)));
      await report([
        { line: e.lines ?? lastLine + 1, column: null, field: null, reason: 'malformed', message: String(e.message) },
      ]);
      await finish('failed');
      return;
    }
    // No batch goes on writing after the job is given up.
    await Promise.allSettled(inFlight.map((b) => b.problems));
    throw err;
  }
}

/** The rows read; the problems of those that failed (counted). */
function readRows<V>(
  rows: Line[],
  read: (record: string[]) => ReadRow<V>,
  tally: Tally,
  seenInFile: Map<string, unknown>,
  same: (a: V, b: V) => boolean,
): { fresh: { line: number; key: string; values: V }[]; problems: ImportProblem[] } {
  const fresh: { line: number; key: string; values: V }[] = [];
  const problems: ImportProblem[] = [];
  for (const { line, record } of rows) {
    const row = read(record);
    if (row.problems.length > 0 || !('values' in row)) {
      tally.failed += 1;
      problems.push(...row.problems.map((p: RowProblem) => ({ line, ...p })));
      continue;
    }
    if (seenInFile.has(row.key)) {
      const before = seenInFile.get(row.key) as V | null;
      if (before !== null && same(before, row.values)) tally.unchanged += 1;
      else {
        tally.failed += 1;
        problems.push({
          line,
          column: null,
          field: 'key',
          reason: 'duplicate-key',
          message: `The key "${row.key}" is on an earlier line with other values`,
        });
      }
      continue;
    }
    seenInFile.set(row.key, row.values);
    fresh.push({ line, key: row.key, values: row.values });
  }
  return { fresh, problems };
}

async function seedLotBatch(
  ctx: ServiceContext,
  job: ImportRow,
  columns: Columns,
  rows: Line[],
  dryRun: boolean,
  tally: Tally,
  seenInFile: Map<string, unknown>,
): Promise<ImportProblem[]> {
  const { fresh, problems } = readRows(rows, (r) => readSeedLotRow(r, columns), tally, seenInFile, sameSeedLot);
  // A key names an imported lot, or (a file exported from lots recorded otherwise) the lot's own id.
  const keyed = await findKeys(
    ctx.db,
    job.ownerId,
    job.kind,
    fresh.map((r) => r.key),
  );
  const ids = fresh.map((r) => keyed.get(r.key) ?? r.key).filter((id) => id.startsWith('lot_'));
  const existing = new Map((await ownedSeedLots(ctx.db, job.ownerId, ids)).map((l) => [l.id, valuesOfLot(l)]));
  const missing = new Set(await missingPlants(ctx.db, [...new Set(fresh.flatMap((r) => r.values.parentPlantIds))]));
  const toCreate: typeof fresh = [];
  for (const row of fresh) {
    const stored = existing.get(keyed.get(row.key) ?? row.key);
    if (stored) {
      if (sameSeedLot(stored, row.values)) tally.unchanged += 1;
      else {
        tally.failed += 1;
        problems.push({
          line: row.line,
          column: columns.header.key ?? null,
          field: 'key',
          reason: 'key-conflict',
          message: `The lot with the key "${row.key}" has other values; an import changes no lot`,
        });
      }
      continue;
    }
    if (keyed.has(row.key)) {
      // Imported under this key, then discarded or transferred: never created twice.
      tally.unchanged += 1;
      continue;
    }
    const unknown = row.values.parentPlantIds.filter((id) => missing.has(id));
    if (unknown.length > 0) {
      tally.failed += 1;
      problems.push({
        line: row.line,
        column: columns.header.parentPlantIds ?? null,
        field: 'parentPlantIds',
        reason: 'unknown-plant',
        message: `No plant ${unknown.join(', ')}`,
      });
      continue;
    }
    toCreate.push(row);
  }
  if (dryRun) {
    tally.created += toCreate.length;
    return problems;
  }
  const at = ctx.clock.now().toISOString();
  const by = (job.actor as { id?: string }).id ?? job.createdBy;
  const withIds = toCreate.map((r) => ({ ...r, id: ctx.newId('lot') }));
  await ctx.db.transaction(async (tx) => {
    const taken = await insertKeys(
      tx,
      withIds.map((r) => ({ ownerId: job.ownerId, kind: job.kind, key: r.key, recordId: r.id, importId: job.id })),
    );
    // A key another import recorded meanwhile is that import's lot: this row is unchanged.
    const mine = withIds.filter((r) => taken.has(r.key));
    tally.unchanged += withIds.length - mine.length;
    tally.created += mine.length;
    await insertSeedLots(
      tx,
      mine.map(({ id, values: v }) => ({
        id,
        ownerId: job.ownerId,
        crop: v.crop,
        cropKey: cropKey(v.crop),
        variety: v.variety,
        parentPlantIds: v.parentPlantIds,
        harvestYear: v.harvestYear,
        quantityAmount: v.quantityAmount,
        quantityUnit: v.quantityUnit,
        storagePlace: v.storagePlace,
        storageTemperatureC: v.storageTemperatureC,
        storageHumidityPct: v.storageHumidityPct,
        storageContainer: v.storageContainer,
        notes: v.notes,
        createdAt: at,
        createdBy: by,
        updatedAt: at,
      })),
      mine.map(({ id, values: v }) => ({
        seedLotId: id,
        reason: 'recorded',
        amount: v.quantityAmount,
        delta: v.quantityAmount,
        unit: v.quantityUnit,
        note: `import ${job.id}`,
        at,
        by,
      })),
    );
  });
  return problems;
}

const samePlant = (a: PlantValues, b: PlantValues) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Plant rows: each new one is registered as `POST /api/plants/register` would (privacy level applied, scientific
 * name checked) and written to the ledger through the recorder, which gathers the batch's writes into a few
 * submissions and blocks (ADR 298). The plant id comes from the owner and key, so reading the file again names the
 * same plant and ledger transaction.
 *
 * `checked` settles once the rows are read and checked (in the file's order, against the keys recorded so far and
 * the rows before them); `recorded` once the new plants are in blocks and stored, and their keys recorded after
 * them. Several batches may be recording at once (ADR 300): their rows have distinct keys, the file's duplicates
 * having been found when checked.
 */
function plantBatch(
  ctx: ServiceContext,
  recorder: Recorder,
  job: ImportRow,
  columns: Columns,
  rows: Line[],
  dryRun: boolean,
  tally: Tally,
  seenInFile: Map<string, unknown>,
): { checked: Promise<ImportProblem[]>; recorded: Promise<ImportProblem[]> } {
  const read = checkPlantBatch(ctx, job, columns, rows, tally, seenInFile);
  if (dryRun) {
    return {
      checked: read.then((r) => {
        tally.created += r.toCreate.length;
        return r.problems;
      }),
      recorded: Promise.resolve([]),
    };
  }
  return {
    checked: read.then((r) => r.problems),
    recorded: read.then((r) => recordPlantBatch(ctx, recorder, job, r.toCreate, tally)),
  };
}

async function checkPlantBatch(
  ctx: ServiceContext,
  job: ImportRow,
  columns: Columns,
  rows: Line[],
  tally: Tally,
  seenInFile: Map<string, unknown>,
) {
  // A plant once recorded under a key (or named by its id) is unchanged whatever the row says: its stored location
  // is the one after its privacy level (a hidden plant has none), so the row cannot be compared with it.
  const keyAt = columns.index.key;
  const rawKeys = rows.map((r) => (keyAt === undefined ? '' : (r.record[keyAt] ?? '').trim())).filter((k) => k !== '');
  const keyed = await findKeys(ctx.db, job.ownerId, job.kind, rawKeys);
  const owned = await ownedPlantIds(
    ctx.db,
    job.ownerId,
    rawKeys.filter((k) => k.startsWith('plt_')),
  );
  const known = (key: string) => keyed.has(key) || owned.has(key);
  const unknownRows = rows.filter((r) => {
    const key = keyAt === undefined ? '' : (r.record[keyAt] ?? '').trim();
    if (!known(key)) return true;
    tally.unchanged += 1;
    return false;
  });
  const { fresh: toCreate, problems } = readRows(
    unknownRows,
    (r) => readPlantRow(r, columns),
    tally,
    seenInFile,
    samePlant,
  );
  return { toCreate, problems };
}

async function recordPlantBatch(
  ctx: ServiceContext,
  recorder: Recorder,
  job: ImportRow,
  toCreate: { line: number; key: string; values: PlantValues }[],
  tally: Tally,
): Promise<ImportProblem[]> {
  const problems: ImportProblem[] = [];
  const actor = job.actor as unknown as Actor;
  const now = ctx.clock.now();
  // The caller carries no idempotency reference: the id is derived here, and whether a plant of an earlier reading
  // is stored already (its key not yet recorded when that reading stopped) is asked once for the whole batch
  // rather than twice per row.
  const caller = { requestId: job.id, actor, log: ctx.log };
  for (let i = 0; i < toCreate.length; i += PLANT_CONCURRENCY) {
    const slice = toCreate
      .slice(i, i + PLANT_CONCURRENCY)
      .map((row) => ({ ...row, id: ctx.newId('plt', { idempotencyRef: plantRef(job.ownerId, row.key) }) }));
    const missing = new Set(
      await missingPlants(
        ctx.db,
        slice.map((r) => r.id),
      ),
    );
    const recorded: { key: string; id: string }[] = slice
      .filter((r) => !missing.has(r.id))
      .map((r) => ({ key: r.key, id: r.id }));
    const toRecord = slice.filter((r) => missing.has(r.id));
    const results = await Promise.allSettled(
      toRecord.map(async (row) => {
        const v = row.values;
        const privacyLevel = v.privacyLevel as 'exact';
        await recordPlant(
          ctx,
          recorder,
          caller,
          {
            commonName: v.commonName,
            ...checkedName(v.scientificName ?? undefined, now),
            location: await discloseLocation(
              {
                latitude: v.latitude,
                longitude: v.longitude,
                ...(v.city === null ? {} : { city: v.city }),
                ...(v.country === null ? {} : { country: v.country }),
              },
              privacyLevel,
              secureRandom,
            ),
            privacyLevel,
            owner: { id: job.ownerId, name: job.ownerName ?? job.ownerId, nameStatedBy: null },
            walletAddress: null,
            generation: 0,
            parent: null,
          },
          undefined,
          row.id,
        );
        return { key: row.key, id: row.id };
      }),
    );
    results.forEach((r, n) => {
      const row = toRecord[n] as (typeof toRecord)[number];
      if (r.status === 'fulfilled') recorded.push(r.value);
      else {
        tally.failed += 1;
        problems.push({
          line: row.line,
          column: null,
          field: null,
          reason: 'malformed',
          message: `Not recorded on the ledger: ${(r.reason as Error).message}`,
        });
      }
    });
    const taken = await insertKeys(
      ctx.db,
      recorded.map((r) => ({ ownerId: job.ownerId, kind: job.kind, key: r.key, recordId: r.id, importId: job.id })),
    );
    tally.created += taken.size;
    tally.unchanged += recorded.length - taken.size;
  }
  return problems;
}

/**
 * The import worker: claims queued imports (and those of a replica that died) one at a time and reads each to its
 * end. Woken when an import is queued; its poll is a safety net.
 */
export function createImportWorker(ctx: ServiceContext, storage: Storage, recorder: Recorder): Periodic {
  return createPeriodic({
    everyMs: 2000,
    log: ctx.log,
    what: 'csv import',
    metrics: ctx.metrics,
    run: async () => {
      for (;;) {
        const now = ctx.clock.now();
        const job = await claimImport(
          ctx.db,
          now.toISOString(),
          new Date(now.getTime() - IMPORT_LEASE_MS).toISOString(),
        );
        if (!job) return;
        try {
          await runImport(ctx, storage, recorder, job);
        } catch (err) {
          ctx.log.error({ err, importId: job.id }, 'import failed');
          await updateImport(ctx.db, job.id, { state: 'failed', finishedAt: ctx.clock.now().toISOString() });
        }
      }
    },
  });
}
