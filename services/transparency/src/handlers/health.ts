import { performance } from 'node:perf_hooks';
import {
  type AuditEntry,
  type ComponentHealth,
  isAppError,
  SERVICE_NAMES,
  statusSubject,
  transparencyHealthGet,
} from '@rootline/contracts';
import { call, handle, type ServiceContext } from '@rootline/host';
import { newestEntryBodies, outboxBacklog, pingDatabase } from '../db/reports.repo.js';

/** How long health waits for each service and for discovery. */
const PROBE_TIMEOUT_MS = 1000;

/** Milliseconds of `fn`, or the error it threw. Latency is a duration: the monotonic clock, not the service clock. */
async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T } | { ms: null; error: unknown }> {
  const start = performance.now();
  try {
    const value = await fn();
    return { ms: Math.round((performance.now() - start) * 10) / 10, value };
  } catch (error) {
    return { ms: null, error };
  }
}

const worst = (statuses: ComponentHealth['status'][]): ComponentHealth['status'] =>
  statuses.includes('down') ? 'down' : statuses.includes('degraded') ? 'degraded' : 'ok';

/** transparency.health.get: every service (status request with its latency), database, bus, outbox, consumer. */
export const getHealth = (ctx: ServiceContext) =>
  handle(transparencyHealthGet, async (_input, caller) => {
    const now = ctx.clock.now();
    const [discovered, probes, db, backlog, bodies] = await Promise.all([
      timed(() => ctx.bus.discover(PROBE_TIMEOUT_MS)),
      Promise.all(SERVICE_NAMES.map((s) => timed(() => call(ctx.bus, statusSubject(s), {}, caller, PROBE_TIMEOUT_MS)))),
      timed(() => pingDatabase(ctx.db, () => performance.now())),
      outboxBacklog(ctx.db),
      newestEntryBodies(ctx.db, 100),
    ]);
    const instances = 'value' in discovered ? discovered.value : [];
    const services = SERVICE_NAMES.map((service, i) => {
      const probe = probes[i]!;
      const count = instances.filter((d) => d.name === service).length;
      if (!('value' in probe)) {
        const message = isAppError(probe.error) ? probe.error.message : 'no answer';
        return {
          service,
          status: 'down' as const,
          instances: count,
          latencyMs: null,
          version: null,
          database: null,
          outboxBacklog: null,
          error: message,
        };
      }
      const s = probe.value;
      return {
        service,
        status: s.database === 'error' ? ('degraded' as const) : ('ok' as const),
        instances: count,
        latencyMs: probe.ms,
        version: s.version,
        database: s.database,
        outboxBacklog: s.outboxBacklog,
        error: null,
      };
    });
    const delays = bodies.map((b) => {
      const e = JSON.parse(b) as AuditEntry;
      return (Date.parse(e.recordedAt) - Date.parse(e.occurredAt)) / 1000;
    });
    const newest = bodies[0] ? (JSON.parse(bodies[0]) as AuditEntry) : null;
    const database = { status: db.ms === null ? ('down' as const) : ('ok' as const), latencyMs: db.ms };
    const bus = {
      status: discovered.ms === null ? ('down' as const) : ('ok' as const),
      latencyMs: discovered.ms,
      instances: instances.length,
    };
    return {
      status: worst([...services.map((s) => s.status), database.status, bus.status]),
      checkedAt: now.toISOString(),
      services,
      database,
      bus,
      outbox: {
        backlog: backlog.backlog,
        oldestPendingSeconds: backlog.oldest ? Math.max(0, (now.getTime() - backlog.oldest.getTime()) / 1000) : null,
      },
      consumer: {
        name: 'transparency-audit-log',
        lastRecordedAt: newest?.recordedAt ?? null,
        lastDelaySeconds: delays[0] ?? null,
        maxDelaySeconds: delays.length > 0 ? Math.max(...delays) : null,
      },
    };
  });
