import { type paths, RootlineError } from '@rootline/sdk';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

export type PublicEventKind = NonNullable<
  paths['/api/transparency/webhooks']['post']['requestBody']
>['content']['application/json']['events'][number];

/** The network's aggregates (`/api/transparency/dashboard`). */
export function useDashboard() {
  return useQuery({
    queryKey: ['transparency', 'dashboard'],
    queryFn: () => unwrap(api.GET('/api/transparency/dashboard')),
  });
}

/** The counts `GET /api/transparency/export?format=summary` answers. */
export interface EventSummary {
  total: number;
  byKind: { kind: string; count: number }[];
  byDay: { day: string; count: number }[];
}

/** Public events per day and kind since `from` (the export's summary). */
export function useEventSummary(from: string) {
  return useQuery({
    queryKey: ['transparency', 'summary', from],
    queryFn: async () => {
      // `summary` answers in the envelope; the other formats are files (the type covers every format).
      const result = await api.GET('/api/transparency/export', { params: { query: { format: 'summary', from } } });
      const body = result.data as { data?: EventSummary } | undefined;
      if (!body?.data) throw RootlineError.from(result);
      return body.data;
    },
  });
}

/** The newest public events: the history's last page (it is ordered oldest first). */
export function useRecentEvents(limit = 15) {
  return useQuery({
    queryKey: ['transparency', 'recent-events', limit],
    queryFn: async () => {
      const first = await unwrapPage(api.GET('/api/transparency/events/history', { params: { query: { limit } } }));
      const last = Math.max(1, first.pagination.totalPages);
      const page =
        last === 1
          ? first
          : await unwrapPage(api.GET('/api/transparency/events/history', { params: { query: { limit, page: last } } }));
      return [...page.items].reverse();
    },
  });
}
