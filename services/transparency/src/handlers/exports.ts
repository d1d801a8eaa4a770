import {
  AppError,
  EXPORT_MAX_KINDS,
  type ExportQuery,
  transparencyExportChunk,
  transparencyExportSummary,
} from '@rootline/contracts';
import { handle, publicUrlOf, type ServiceContext } from '@rootline/host';
import { type ExportFilter, exportRows, exportSummary, latestSeq } from '../db/exports.repo.js';
import { EPCIS_KIND, encodedSize, exportEpilogue, exportItem, exportPrologue } from '../domain/export-format.js';

/** Rows read per piece, and the most bytes a piece takes once JSON-encoded (a bus message holds at most 1 MB). */
const ROWS_PER_PIECE = 3000;
const BYTES_PER_PIECE = 750_000;

function filterOf(q: ExportQuery, epcis = false): ExportFilter {
  const kinds = q.type ? [...new Set(q.type.split(','))] : undefined;
  if (kinds && kinds.length > EXPORT_MAX_KINDS) {
    throw new AppError('VALIDATION_ERROR', `type: at most ${EXPORT_MAX_KINDS} kinds`, {
      field: 'type',
      reason: 'too-many-kinds',
    });
  }
  if (q.from && q.to && Date.parse(q.from) >= Date.parse(q.to)) {
    throw new AppError('VALIDATION_ERROR', 'from must be before to', { field: 'from', reason: 'from-after-to' });
  }
  if (epcis) {
    if (kinds?.some((k) => k !== EPCIS_KIND)) {
      throw new AppError('VALIDATION_ERROR', `type: an EPCIS export holds ${EPCIS_KIND} events only`, {
        field: 'type',
        reason: 'epcis-kind',
      });
    }
    return { kinds: [EPCIS_KIND], from: q.from, to: q.to };
  }
  return { kinds, from: q.from, to: q.to };
}

/**
 * transparency.export.chunk: the next piece of an export. The first call (no cursor) fixes the snapshot (the last
 * seq now) and starts the document; each answer carries the cursor of the next, and the last ends the document.
 * Nothing is held between calls, so any replica answers any piece and the caller sets the pace.
 */
export const exportChunk = (ctx: ServiceContext, publicUrl: string | undefined, companyPrefix: string) =>
  handle(transparencyExportChunk, async (input, caller) => {
    // EPCIS extension fields and plants' Digital Link URIs are on the API's public address (PUBLIC_URL, else the
    // request's).
    const epcis = { publicUrl: publicUrlOf(caller, publicUrl), companyPrefix };
    const filter = filterOf(input, input.format === 'epcis');
    const first = input.cursor === undefined;
    const until = input.cursor?.until ?? (await latestSeq(ctx.db));
    const after = input.cursor?.after ?? 0;
    const rows = await exportRows(ctx.db, filter, after, until, ROWS_PER_PIECE);
    let text = first ? exportPrologue(input.format, ctx.clock.now().toISOString(), epcis.publicUrl) : '';
    let bytes = encodedSize(text);
    let last = after;
    let count = 0;
    for (const row of rows) {
      const item = exportItem(input.format, row, first && count === 0, epcis);
      bytes += encodedSize(item);
      // The first row always goes in, so every piece moves on.
      if (count > 0 && bytes > BYTES_PER_PIECE) break;
      text += item;
      last = row.seq;
      count += 1;
    }
    const done = rows.length < ROWS_PER_PIECE && count === rows.length;
    if (done) text += exportEpilogue(input.format);
    return { text, count, next: done ? null : { after: last, until } };
  });

/** transparency.export.summary: counts by kind and day of the public events matching the filter. */
export const exportSummaryOf = (ctx: ServiceContext) =>
  handle(transparencyExportSummary, async (input) => {
    const filter = filterOf(input);
    const s = await exportSummary(ctx.db, filter);
    return { from: input.from ?? null, to: input.to ?? null, kinds: filter.kinds ?? null, ...s };
  });
