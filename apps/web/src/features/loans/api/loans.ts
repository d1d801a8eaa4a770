import type { components, paths } from '@rootline/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

export type SeedLoan = components['schemas']['SeedLoan'];
type LendBody = NonNullable<
  paths['/api/seed-lots/{seedLotId}/loans']['post']['requestBody']
>['content']['application/json'];
type ReturnBody = NonNullable<
  paths['/api/loans/{loanId}/return']['post']['requestBody']
>['content']['application/json'];
type ListQuery = NonNullable<paths['/api/loans']['get']['parameters']['query']>;
export type LoanStatus = SeedLoan['status'];
export type LoanRole = NonNullable<ListQuery['role']>;

export const LOAN_SEASONS = ['spring', 'summer', 'autumn', 'winter'] as const;
export const LOAN_STATUSES = ['open', 'overdue', 'returned'] as const satisfies readonly LoanStatus[];

const LOANS = ['loans'] as const;

export interface LoanFilter {
  role: LoanRole;
  status: LoanStatus | '';
  page: number;
}

/** A page of the loans lent (by the person or the organization the tab acts for) or borrowed (by the person). */
export function useLoans(filter: LoanFilter) {
  const query: ListQuery = { role: filter.role, page: filter.page, limit: 20 };
  if (filter.status) query.status = filter.status;
  return useQuery({
    queryKey: [...LOANS, 'list', query],
    queryFn: () => unwrapPage(api.GET('/api/loans', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

export function useLend(seedLotId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<LendBody, 'callerName'>) =>
      unwrap(
        api.POST('/api/seed-lots/{seedLotId}/loans', {
          params: { path: { seedLotId } },
          body,
          headers: { 'Idempotency-Key': crypto.randomUUID() },
        }),
      ),
    onSuccess: () => {
      client.invalidateQueries({ queryKey: LOANS });
      client.invalidateQueries({ queryKey: ['seed-lots'] });
    },
  });
}

export function useReturnLoan(loanId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<ReturnBody, 'callerName'>) =>
      unwrap(
        api.POST('/api/loans/{loanId}/return', {
          params: { path: { loanId } },
          body,
          headers: { 'Idempotency-Key': crypto.randomUUID() },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: LOANS }),
  });
}
