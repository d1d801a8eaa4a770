import type { AnalyticsDataset, AnalyticsExport } from '@rootline/contracts/analytics';
import { stringify } from 'csv-stringify/sync';
import type { AnalyticsRange } from './analytics-report.js';

/** The columns of each dataset's rows, in file order. */
export const EXPORT_COLUMNS: Record<AnalyticsDataset, { none: string[]; keyed: string[] }> = {
  plants: { none: ['period', 'registered'], keyed: ['period', 'key', 'registered'] },
  transport: {
    none: ['period', 'events', 'distanceKm', 'kgCo2e'],
    keyed: ['period', 'key', 'events', 'distanceKm', 'kgCo2e'],
  },
  farms: {
    none: ['period', 'batchesStarted', 'harvests', 'yieldKg', 'batchesFailed'],
    keyed: ['period', 'key', 'batchesStarted', 'harvests', 'yieldKg', 'batchesFailed'],
  },
  sustainability: {
    none: ['period', 'events', 'distanceKm', 'kgCo2e', 'seedSavingEvents', 'seedSharingEvents'],
    keyed: ['period', 'key', 'events', 'distanceKm', 'kgCo2e'],
  },
};

/**
 * A dataset's rows as a file, named after the dataset and its range. JSON is an array of the rows, each with every
 * column of the dataset (null where a row has none). CSV (RFC 4180, with a header line) escapes cells that a spreadsheet would run as a
 * formula (`=`, `+`, `-`, `@` first): plant and crop names are user input.
 */
export function exportFile(
  dataset: AnalyticsDataset,
  format: 'csv' | 'json',
  range: AnalyticsRange,
  by: string,
  rows: readonly object[],
): AnalyticsExport {
  const columns = EXPORT_COLUMNS[dataset][by === 'none' ? 'none' : 'keyed'];
  const name = `rootline-${dataset}-${range.from}-${range.to}`;
  const picked = rows.map((r) =>
    Object.fromEntries(columns.map((c) => [c, (r as Record<string, unknown>)[c] ?? null])),
  );
  // JSON as every export is (see the export routes): one array, one object per row, every column present.
  if (format === 'json') {
    return {
      filename: `${name}.json`,
      contentType: 'application/json; charset=utf-8',
      rows: picked.length,
      body: JSON.stringify(picked),
    };
  }
  return {
    filename: `${name}.csv`,
    contentType: 'text/csv; charset=utf-8',
    rows: picked.length,
    body: stringify(picked, { header: true, columns, escape_formulas: true }),
  };
}
