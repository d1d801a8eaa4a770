import {
  AppError,
  type ImportJob,
  type ImportKind,
  type ImportSummary,
  importGet,
  importList,
  importStart,
  inventoryExportChunk,
  pageWindow,
  paginate,
} from '@rootline/contracts';
import { actingOwner, actingUser, assertOwnerOrAdmin } from '@rootline/domain';
import { handle, notFound, type ServiceContext } from '@rootline/host';
import type { Storage } from '@rootline/storage';
import { stringify } from 'csv-stringify/sync';
import {
  findImport,
  type ImportRow,
  insertImport,
  listImports,
  listProblems,
  plantExportPiece,
  seedLotExportPiece,
} from '../db/imports.repo.js';
import { COLUMNS, exportCells } from '../domain/imports.js';

/** Rows of one piece of an export. */
const EXPORT_PIECE_ROWS = 2000;

const iso = (t: string | null) => (t === null ? null : new Date(t).toISOString());

/** The job as every view shows it, without its problems. */
function jobFields(row: ImportRow): Omit<ImportJob, 'problems'> {
  return {
    id: row.id,
    kind: row.kind as ImportKind,
    ownerId: row.ownerId,
    dryRun: row.dryRun === 1,
    state: row.state as ImportJob['state'],
    filename: row.filename,
    keyColumn: row.keyColumn,
    mapping: row.mapping,
    progress: { rowsRead: row.rowsRead, bytesRead: row.bytesRead, totalBytes: row.totalBytes },
    counts: { created: row.created, unchanged: row.unchanged, failed: row.failed },
    createdAt: new Date(row.createdAt).toISOString(),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
  };
}

function jobView(row: ImportRow, problems: ImportJob['problems']): ImportJob {
  return { ...jobFields(row), problems };
}

function summaryView(row: ImportRow): ImportSummary {
  return { ...jobFields(row), problems: { kept: row.problemsKept, truncated: row.problemsTruncated === 1 } };
}

/** plants.import.start: queues the import of a file the gateway stored, for the caller or the organization acted for. */
export const startImport = (ctx: ServiceContext, storage: Storage, wake: () => void) =>
  handle(importStart, async (input, caller) => {
    const { ownerId, actor } = actingOwner(caller);
    if (input.kind === 'plants' && !input.ownerName) {
      throw new AppError('VALIDATION_ERROR', 'ownerName: name the owner of the imported plants', {
        field: 'ownerName',
        reason: 'name-required',
      });
    }
    const id = ctx.newId('imp', caller);
    const done = caller.idempotencyRef ? await findImport(ctx.db, id) : undefined;
    if (done) {
      // A retry that streamed the file again: the first upload is the import's, this one is not needed.
      if (done.uploadKey !== input.upload.key) await storage.delete([input.upload.key]).catch(() => {});
      return jobView(done, { items: [], pagination: paginate(1, 20, 0), truncated: false });
    }
    const mapping = input.mapping ?? {};
    const keyColumn = input.keyColumn ?? Object.entries(mapping).find(([, f]) => f === 'key')?.[0] ?? 'key';
    const row = await insertImport(ctx.db, {
      id,
      ownerId,
      createdBy: actor.id,
      kind: input.kind,
      dryRun: input.dryRun ? 1 : 0,
      state: 'queued',
      filename: input.upload.filename,
      uploadKey: input.upload.key,
      keyColumn,
      mapping,
      totalBytes: input.upload.bytes,
      ownerName: input.ownerName ?? null,
      actor: { ...actor } as Record<string, unknown>,
      createdAt: ctx.clock.now().toISOString(),
    });
    wake();
    return jobView(row, { items: [], pagination: paginate(1, 20, 0), truncated: false });
  });

/** plants.import.get: the job to whoever may read the owner's records (viewer of an organization and up). */
export const getImport = (ctx: ServiceContext) =>
  handle(importGet, async ({ importId, ...page }, caller) => {
    const row = await findImport(ctx.db, importId);
    if (!row) throw notFound('Import', importId);
    assertOwnerOrAdmin(caller, row.ownerId, 'viewer');
    const { offset, limit } = pageWindow(page);
    const items = await listProblems(ctx.db, importId, offset, limit);
    return jobView(row, {
      items,
      pagination: paginate(page.page, limit, row.problemsKept),
      truncated: row.problemsTruncated === 1,
    });
  });

/**
 * plants.import.list: the imports of whoever the call acts as (the caller, or the organization it acts for, viewer
 * and up), newest first; never another owner's.
 */
export const listImportJobs = (ctx: ServiceContext) =>
  handle(importList, async ({ state, ...page }, caller) => {
    const { ownerId } = actingOwner(caller, undefined, 'viewer');
    const { offset, limit } = pageWindow(page);
    const { rows, total } = await listImports(ctx.db, ownerId, state, offset, limit);
    return { items: rows.map(summaryView), pagination: paginate(page.page, limit, total) };
  });

/** plants.inventory.export-chunk: one piece of the owner's lots or plants as CSV, in the import's default shape. */
export const exportInventoryChunk = (ctx: ServiceContext) =>
  handle(inventoryExportChunk, async (input, caller) => {
    const actor = actingUser(caller);
    const ownerId = input.ownerId ?? actor.org?.id ?? actor.id;
    assertOwnerOrAdmin(caller, ownerId, 'viewer');
    const header = input.after === undefined ? stringify([COLUMNS[input.kind] as string[]]) : '';
    if (input.kind === 'seed-lots') {
      const rows = await seedLotExportPiece(ctx.db, ownerId, input.after, EXPORT_PIECE_ROWS);
      const cells = rows.map(({ lot, key }) => exportCells('seed-lots', key ?? lot.id, lot));
      const last = rows.at(-1)?.lot.id ?? null;
      return {
        text: header + (cells.length > 0 ? stringify(cells) : ''),
        rows: rows.length,
        next: rows.length === EXPORT_PIECE_ROWS ? last : null,
      };
    }
    const rows = await plantExportPiece(ctx.db, ownerId, input.after, EXPORT_PIECE_ROWS);
    const cells = rows.map((p) => exportCells('plants', p.key ?? p.id, p as never));
    return {
      text: header + (cells.length > 0 ? stringify(cells) : ''),
      rows: rows.length,
      next: rows.length === EXPORT_PIECE_ROWS ? (rows.at(-1)?.id ?? null) : null,
    };
  });
