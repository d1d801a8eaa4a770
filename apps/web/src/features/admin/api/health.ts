import { RootlineError } from '@rootline/sdk';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

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
    queryKey: ['admin', 'health'],
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
