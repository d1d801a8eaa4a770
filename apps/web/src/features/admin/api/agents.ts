import type { paths } from '@rootline/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

export type AnomalyKind = NonNullable<
  NonNullable<paths['/api/agents/lineage/anomalies']['get']['parameters']['query']>['kind']
>;
export type PatternKind = NonNullable<
  NonNullable<paths['/api/agents/transport-tracker/patterns']['get']['parameters']['query']>['kind']
>;
type LineageAction = paths['/api/agents/lineage']['post']['requestBody']['content']['application/json']['action'];
type TrackerAction =
  paths['/api/agents/transport-tracker']['post']['requestBody']['content']['application/json']['action'];

export const ANOMALY_KINDS = [
  'child-before-parent',
  'generation-jump',
  'distant-offspring',
  'orphaned-parent',
] as const satisfies readonly AnomalyKind[];
export const PATTERN_KINDS = [
  'high-carbon',
  'cold-chain-break',
  'long-detour',
  'empty-run',
] as const satisfies readonly PatternKind[];

const LINEAGE = ['agents', 'lineage'] as const;
const TRACKER = ['agents', 'transport-tracker'] as const;
/** While an agent runs its figures move on their own: look again this often. */
const WHILE_RUNNING_MS = 5000;

export function useLineageAgent() {
  return useQuery({
    queryKey: [...LINEAGE, 'status'],
    queryFn: () => unwrap(api.GET('/api/agents/lineage')),
    refetchInterval: (q) => (q.state.data?.state === 'running' ? WHILE_RUNNING_MS : false),
  });
}

export function useTrackerAgent() {
  return useQuery({
    queryKey: [...TRACKER, 'status'],
    queryFn: () => unwrap(api.GET('/api/agents/transport-tracker')),
    refetchInterval: (q) => (q.state.data?.state === 'running' ? WHILE_RUNNING_MS : false),
  });
}

/** One control action; the answer is the new status, and the findings are read again. */
export function useControlLineage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: LineageAction) => unwrap(api.POST('/api/agents/lineage', { body: { action } })),
    onSuccess: (status) => {
      client.setQueryData([...LINEAGE, 'status'], status);
      return client.invalidateQueries({ queryKey: [...LINEAGE, 'anomalies'] });
    },
  });
}

export function useControlTracker() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: TrackerAction) => unwrap(api.POST('/api/agents/transport-tracker', { body: { action } })),
    onSuccess: (status) => {
      client.setQueryData([...TRACKER, 'status'], status);
      return client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'agents' && q.queryKey[2] !== 'status' });
    },
  });
}

export function useAnomalies(kind: AnomalyKind | '', page: number, lastRunAt: string | null | undefined) {
  return useQuery({
    queryKey: [...LINEAGE, 'anomalies', kind, page, lastRunAt],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/agents/lineage/anomalies', { params: { query: { page, limit: 20, ...(kind ? { kind } : {}) } } }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function usePatterns(kind: PatternKind | '', page: number, lastRunAt: string | null | undefined) {
  return useQuery({
    queryKey: [...TRACKER, 'patterns', kind, page, lastRunAt],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/agents/transport-tracker/patterns', {
          params: { query: { page, limit: 20, ...(kind ? { kind } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useSavings(lastRunAt: string | null | undefined) {
  return useQuery({
    queryKey: [...TRACKER, 'savings', lastRunAt],
    queryFn: () => unwrap(api.GET('/api/agents/transport-tracker/savings')),
  });
}
