import type { Bus } from '@rootline/bus';
import {
  type CallContext,
  type ErrorBody,
  isAppError,
  type ReplyOf,
  SERVICE_NAMES,
  type ServiceName,
  statusSubject,
} from '@rootline/contracts';
import { call } from '@rootline/host';

/** How long readiness and metrics wait for one service's status reply. */
export const STATUS_TIMEOUT_MS = 1_000;

export type ServiceStatus = ReplyOf<ReturnType<typeof statusSubject>>;

/** One service's answer to `<service>.ops.status`, or why there was none. */
export type StatusProbe =
  | { service: ServiceName; status: ServiceStatus; error: null }
  | { service: ServiceName; status: null; error: ErrorBody };

/** Asks every back-end service for its status, all at once, each with a short timeout. */
export async function probeServices(bus: Bus, ctx: CallContext, timeoutMs = STATUS_TIMEOUT_MS): Promise<StatusProbe[]> {
  return Promise.all(
    SERVICE_NAMES.map(async (service): Promise<StatusProbe> => {
      try {
        const status = await call(bus, statusSubject(service), {}, ctx, timeoutMs);
        return { service, status, error: null };
      } catch (err) {
        const error: ErrorBody = isAppError(err) ? err.toBody() : { code: 'INTERNAL', message: String(err) };
        return { service, status: null, error };
      }
    }),
  );
}
