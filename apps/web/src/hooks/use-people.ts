import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../lib/api-client';

/** At most this many ids are named by one read (the API's limit). */
const MAX_IDS = 100;

/**
 * The display names of the accounts a page shows records of, read in one request for all of them (ADR 200), never
 * one per row. Answers a lookup by id; an id not (yet) known gives undefined, so callers show a fallback.
 */
export function usePeople(ids: readonly (string | null | undefined)[]) {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string' && id.length > 0))]
    .sort()
    .slice(0, MAX_IDS);
  const people = useQuery({
    queryKey: ['people', wanted],
    queryFn: () => unwrap(api.GET('/api/people', { params: { query: { ids: wanted.join(',') } } })),
    enabled: wanted.length > 0,
    staleTime: 5 * 60_000,
  });
  const byId = new Map((people.data ?? []).map((p) => [p.id, p.name]));
  return { nameOf: (id: string | null | undefined) => (id ? byId.get(id) : undefined), isPending: people.isPending };
}
