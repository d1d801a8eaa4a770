import { type paths, RootlineError } from '@rootline/sdk';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type LabelsRequest = paths['/api/transparency/labels']['post']['requestBody']['content']['application/json'];
export type LabelLayout = LabelsRequest['layout'];

/** The label sheet as a PDF (a blob to offer for download); a refused request throws its RootlineError. */
export async function labelsPdf(body: LabelsRequest): Promise<Blob> {
  const result = await api.POST('/api/transparency/labels', { body, parseAs: 'blob' });
  if (!result.data) throw RootlineError.from(result as never);
  return result.data as unknown as Blob;
}

/** Fetches the sheet and saves it as `rootline-labels.pdf`. */
export function useDownloadLabels() {
  return useMutation({
    mutationFn: async (body: LabelsRequest) => {
      const url = URL.createObjectURL(await labelsPdf(body));
      const a = document.createElement('a');
      a.href = url;
      a.download = 'rootline-labels.pdf';
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  });
}
