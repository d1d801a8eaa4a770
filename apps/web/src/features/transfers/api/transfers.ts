import type { components } from '@rootline/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useActingAs } from '../../../lib/acting-as';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

export type Transfer = components['schemas']['OwnershipTransfer'];
export type OwnershipChange = components['schemas']['OwnershipChange'];
export type TransferStatus = Transfer['status'];
export type TransferSubjectType = Transfer['subjectType'];

const TRANSFERS = ['transfers'] as const;

/** The transfers to or from the caller, or the organization the tab acts for (the key follows the choice). */
export function useTransfers(filter: {
  direction: 'incoming' | 'outgoing';
  status?: TransferStatus;
  subjectId?: string;
}) {
  const acting = useActingAs();
  return useQuery({
    queryKey: [...TRANSFERS, acting, filter],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/transfers', {
          params: {
            query: {
              direction: filter.direction,
              ...(filter.status ? { status: filter.status } : {}),
              ...(filter.subjectId ? { subjectId: filter.subjectId } : {}),
              limit: 50,
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** The accepted transfers of a plant or a seed lot, oldest first (public). */
export function useOwnershipHistory(subjectType: TransferSubjectType, subjectId: string) {
  return useQuery({
    queryKey: subjectType === 'seed-lot' ? ['seed-lots', 'ownership', subjectId] : ['plants', 'ownership', subjectId],
    queryFn: () =>
      subjectType === 'seed-lot'
        ? unwrap(api.GET('/api/seed-lots/{seedLotId}/ownership', { params: { path: { seedLotId: subjectId } } }))
        : unwrap(api.GET('/api/plants/ownership/{plantId}', { params: { path: { plantId: subjectId } } })),
  });
}

/** After a transfer changes: the lists, the plant or seed lot (its owner) and its history are asked again. */
function useRefresh() {
  const client = useQueryClient();
  return (t: Transfer) => {
    void client.invalidateQueries({ queryKey: TRANSFERS });
    if (t.subjectType === 'seed-lot') {
      void client.invalidateQueries({ queryKey: ['seed-lots'] });
      return;
    }
    void client.invalidateQueries({ queryKey: ['plants', 'plant', t.subjectId] });
    void client.invalidateQueries({ queryKey: ['plants', 'ownership', t.subjectId] });
  };
}

export function useProposeTransfer() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: { subjectType: TransferSubjectType; subjectId: string; to: string; message?: string }) =>
      unwrap(
        api.POST('/api/transfers', {
          body: {
            subjectType: body.subjectType,
            subjectId: body.subjectId,
            to: { id: body.to },
            ...(body.message ? { message: body.message } : {}),
          },
        }),
      ),
    onSuccess: refresh,
  });
}

/** Accept, decline or cancel a pending transfer. */
export function useAnswerTransfer() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ transferId, answer }: { transferId: string; answer: 'accept' | 'decline' | 'cancel' }) => {
      const params = { params: { path: { transferId } } };
      if (answer === 'accept') return unwrap(api.POST('/api/transfers/{transferId}/accept', params));
      if (answer === 'decline') return unwrap(api.POST('/api/transfers/{transferId}/decline', params));
      return unwrap(api.POST('/api/transfers/{transferId}/cancel', params));
    },
    onSuccess: refresh,
  });
}
