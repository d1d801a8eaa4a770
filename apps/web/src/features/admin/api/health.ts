import type { paths } from '@rootline/sdk';
import { RootlineError } from '@rootline/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

/** The platform's components as the transparency service measures them: each service, database, bus, outbox. */
export type ComponentHealth =
  paths['/api/transparency/health']['get']['responses'][200]['content']['application/json']['data'];
export type ServiceHealth = ComponentHealth['services'][number];

export const HEALTH_KEYS = {
  readiness: ['admin', 'health'] as const,
  services: ['admin', 'health', 'services'] as const,
};

/** One back-end component as the readiness probe reports it. */
export interface Component {
  service: string;
  state: 'ready' | 'missing' | 'failing';
  version?: string;
  database?: string;
  reason?: string;
}

export interface Readiness {
  live: boolean;
  ready: boolean;
  message?: string;
  components: Component[];
  checkedAt: Date;
}

/**
 * Liveness and readiness, read as a list of components. Not ready is an answer, not a failure: the 503's
 * `details` name the services that are not running and those failing, with why.
 */
export function useReadiness() {
  return useQuery({
    queryKey: HEALTH_KEYS.readiness,
    queryFn: async (): Promise<Readiness> => {
      const live = await unwrap(api.GET('/api/health/live')).then(
        () => true,
        () => false,
      );
      try {
        const ready = await unwrap(api.GET('/api/health/ready'));
        const components = ready.services.map(
          (s): Component => ({ service: s.service, state: 'ready', version: s.version, database: s.database }),
        );
        return { live, ready: true, components, checkedAt: new Date() };
      } catch (err) {
        if (!(err instanceof RootlineError) || err.code !== 'UNAVAILABLE') throw err;
        const details = (err.details ?? {}) as {
          missing?: string[];
          failing?: { service: string; reason: string }[];
        };
        const components = [
          ...(details.missing ?? []).map((service): Component => ({ service, state: 'missing' })),
          ...(details.failing ?? []).map(
            (f): Component => ({ service: f.service, state: 'failing', reason: f.reason }),
          ),
        ];
        return { live, ready: false, message: err.message, components, checkedAt: new Date() };
      }
    },
    refetchInterval: 30_000,
  });
}

/**
 * Each back-end service found by discovery (instances, round trip, version, database, outbox backlog), with the
 * database, the bus, the transparency outbox and the audit consumer's delay (ADMIN only).
 */
export function useComponentHealth() {
  return useQuery({
    queryKey: HEALTH_KEYS.services,
    queryFn: () => unwrap(api.GET('/api/transparency/health')),
    refetchInterval: 30_000,
  });
}

/** Checks every health view again: the readiness and the services (their keys share the readiness prefix). */
export function useRecheckHealth() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: HEALTH_KEYS.readiness });
}
