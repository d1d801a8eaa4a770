import { RootlineError } from '@rootline/sdk';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export type ExportFormat = 'json' | 'csv' | 'epcis';

/** The file name the API suggests, else one made from the format. */
function fileName(response: Response, format: ExportFormat): string {
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return named?.[1] ?? `rootline-events.${format === 'epcis' ? 'epcis.jsonld' : format}`;
}

/** An export of the public history as a file (a blob and its name). */
export async function exportFile(
  format: ExportFormat,
  query: { type?: string; from?: string; to?: string },
): Promise<{ blob: Blob; name: string }> {
  const { data, error, response } = await api.GET('/api/transparency/export', {
    params: { query: { format, ...query } },
    parseAs: 'blob',
  });
  if (!data) throw RootlineError.from({ error, response });
  return { blob: data as unknown as Blob, name: fileName(response, format) };
}

/** The compliance report of a period (ADMIN). */
export function useComplianceReport(period: { from?: string; to?: string }, enabled: boolean) {
  return useQuery({
    queryKey: ['transparency', 'report', period],
    enabled,
    queryFn: () => unwrap(api.GET('/api/transparency/report', { params: { query: period } })),
  });
}
