import { type components, RootlineError } from '@rootline/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

export type ImportJob = components['schemas']['ImportJob'];
export type ImportKind = ImportJob['kind'];
export type ImportSummary = components['schemas']['ImportSummary'];
export type ImportState = ImportJob['state'];

export const IMPORT_STATES = ['queued', 'running', 'done', 'failed'] as const satisfies readonly ImportState[];
const IMPORT_LIST = ['imports', 'list'] as const;

/** The fields a column may hold, by kind, in the export's order (its header). */
export const IMPORT_COLUMNS: Record<ImportKind, readonly string[]> = {
  'seed-lots': [
    'key',
    'crop',
    'variety',
    'harvestYear',
    'quantityAmount',
    'quantityUnit',
    'parentPlantIds',
    'storagePlace',
    'storageTemperatureC',
    'storageHumidityPct',
    'storageContainer',
    'notes',
  ],
  plants: ['key', 'commonName', 'scientificName', 'latitude', 'longitude', 'city', 'country', 'privacyLevel'],
};

/** The largest file the API takes, in MB (IMPORT_LIMITS.maxBytes). */
export const IMPORT_MAX_MB = 64;

/** The cells of a CSV file's first line (RFC 4180 quoting), to offer its headers for the mapping. */
export function headerCells(text: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      cells.push(cell.trim());
      cell = '';
    } else if (ch === '\n' || ch === '\r') break;
    else cell += ch;
  }
  cells.push(cell.trim());
  return cells.map((c) => c.replace(/^\uFEFF/, '')).filter((c) => c !== '');
}

export interface ImportRequest {
  kind: ImportKind;
  file: File;
  /** Header → field; headers left out are not imported unless named like a field. */
  mapping: Record<string, string>;
  dryRun: boolean;
}

/** Starts an import (multipart: the fields first, then the file); answers the queued job. */
export function useStartImport() {
  const client = useQueryClient();
  return useMutation({
    onSuccess: () => client.invalidateQueries({ queryKey: IMPORT_LIST }),
    mutationFn: ({ kind, file, mapping, dryRun }: ImportRequest) => {
      const form = new FormData();
      form.append('kind', kind);
      form.append('mapping', JSON.stringify(mapping));
      form.append('dryRun', String(dryRun));
      form.append('file', file);
      return unwrap(
        api.POST('/api/imports', {
          body: form as never,
          // The browser writes the multipart boundary itself.
          bodySerializer: (body: unknown) => body as FormData,
        }),
      );
    },
  });
}

/** An import job with a page of its problems, asked again every half second until it has ended. */
export function useImportJob(importId: string | null, page: number) {
  return useQuery({
    queryKey: ['imports', importId, page],
    enabled: importId !== null,
    queryFn: () =>
      unwrap(
        api.GET('/api/imports/{importId}', {
          params: { path: { importId: importId ?? '' }, query: { page, limit: 50 } },
        }),
      ),
    refetchInterval: (q) => (q.state.data && ['done', 'failed'].includes(q.state.data.state) ? false : 500),
  });
}

/**
 * A page of the imports of whoever the tab acts as, newest first; asked again every two seconds while one of them is
 * still queued or running, so that their states and counts follow.
 */
export function useImports(filter: { state: ImportState | ''; page: number }) {
  const query = { page: filter.page, limit: 20, ...(filter.state ? { state: filter.state } : {}) };
  return useQuery({
    queryKey: [...IMPORT_LIST, query],
    queryFn: () => unwrapPage(api.GET('/api/imports', { params: { query } })),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.items.some((i) => i.state === 'queued' || i.state === 'running') ? 2000 : false,
  });
}

/** The export of whoever the tab acts as, as a file to save; a refused export throws its RootlineError. */
export async function exportFile(kind: ImportKind): Promise<{ blob: Blob; name: string }> {
  const result =
    kind === 'seed-lots'
      ? await api.GET('/api/seed-lots/export.csv', { parseAs: 'blob' })
      : await api.GET('/api/plants/export.csv', { parseAs: 'blob' });
  if (!result.data) throw RootlineError.from(result as never);
  return { blob: result.data as unknown as Blob, name: `rootline-${kind}.csv` };
}
