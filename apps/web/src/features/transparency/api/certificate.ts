import { type SignedCertificate, verifyCertificate } from '@rootline/sdk';
import { useMutation, useQuery } from '@tanstack/react-query';
import { currentLanguage } from '../../../i18n';
import { api, unwrap } from '../../../lib/api-client';

export function useCertificate(plantId: string) {
  return useQuery({
    queryKey: ['transparency', 'certificate', plantId],
    queryFn: () =>
      unwrap(
        api.GET('/api/transparency/certificate/{plantId}', { params: { path: { plantId } } }),
      ) as Promise<SignedCertificate>,
  });
}

/** Verifies the certificate here, in the browser, against the platform's published key (fetched now). */
export function useVerifyCertificate() {
  return useMutation({
    mutationFn: async (certificate: SignedCertificate) => {
      const key = await unwrap(api.GET('/api/transparency/audit/public-key'));
      return { key, verdict: await verifyCertificate(certificate, key) };
    },
  });
}

/** The certificate as a PDF file (a blob to offer for download), in the language the app is shown in. */
export async function certificatePdf(plantId: string): Promise<Blob> {
  const { data, error, response } = await api.GET('/api/transparency/certificate/{plantId}', {
    params: { path: { plantId }, query: { format: 'pdf', language: currentLanguage() } },
    parseAs: 'blob',
  });
  if (!data) throw new Error(`The PDF could not be fetched (${response.status}): ${JSON.stringify(error)}`);
  return data as unknown as Blob;
}

/** The plant's QR code (PNG) and the verification address it encodes. */
export function useQrCode(plantId: string) {
  return useQuery({
    queryKey: ['transparency', 'qr', plantId],
    queryFn: async () => {
      const info = await unwrap(api.GET('/api/transport/qr/{id}', { params: { path: { id: plantId } } }));
      const png = await api.GET('/api/transport/qr/{id}', {
        params: { path: { id: plantId }, query: { format: 'png' } },
        parseAs: 'blob',
      });
      return { url: info.url, image: png.data ? URL.createObjectURL(png.data as unknown as Blob) : null };
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}
