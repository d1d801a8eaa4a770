import { performance } from 'node:perf_hooks';
import {
  AppError,
  type AuditEntry,
  auditVerify,
  type CallContext,
  type ComponentHealth,
  chainLedgerVerify,
  isAppError,
  plantPrivacyDistributionGet,
  SERVICE_NAMES,
  statusSubject,
  transparencyDashboardGet,
  transparencyHealthGet,
  transparencyReportGet,
} from '@rootline/contracts';
import { call, handle, type ServiceContext } from '@rootline/host';
import { readHead } from '../db/audit.repo.js';
import {
  auditEntriesIn,
  deliveryStats,
  eventsByKind,
  eventsSince,
  newestEntryBodies,
  outboxBacklog,
  pingDatabase,
  retentionFacts,
  transportTotals,
  webhookCounts,
} from '../db/reports.repo.js';

const DAY_MS = 24 * 3600 * 1000;
/** Most `chain.ledger.verify` ranges (of up to 1000 blocks each) one report reads. */
const LEDGER_RANGES = 50;
/** How long health waits for each service and for discovery. */
const PROBE_TIMEOUT_MS = 1000;

/** What the platform keeps and for how long (nothing is deleted yet: docs/transparency.md, Retention). */
export const RETENTION_POLICY = {
  auditLog: 'kept forever: entries are never deleted or changed (the Merkle tree and hash chain depend on every entry)',
  publicHistory: 'kept forever',
  webhookDeliveries: 'kept while the webhook exists; deleted with it',
} as const;

/** The whole chain verified range by range through `chain.ledger.verify`, up to LEDGER_RANGES ranges. */
async function verifyLedger(ctx: ServiceContext, caller: CallContext) {
  let from = 0;
  const out = {
    valid: true,
    checkedBlocks: 0,
    checkedTransactions: 0,
    tipIndex: null as number | null,
    complete: false,
    invalidBlocks: [] as { index: number; hash: string; problems: string[] }[],
  };
  for (let i = 0; i < LEDGER_RANGES; i++) {
    const r = await call(ctx.bus, chainLedgerVerify, { from, limit: 1000 }, caller, 30_000);
    out.valid &&= r.valid;
    out.checkedBlocks += r.checkedBlocks;
    out.checkedTransactions += r.checkedTransactions;
    out.tipIndex = r.tipIndex;
    out.invalidBlocks.push(...r.invalidBlocks.slice(0, 100 - out.invalidBlocks.length));
    if (r.next === null) {
      out.complete = true;
      break;
    }
    from = r.next;
  }
  return out;
}

/** transparency.report.get: the compliance report of a period (default the last 30 days). */
export const getReport = (ctx: ServiceContext) =>
  handle(transparencyReportGet, async (input, caller) => {
    const now = ctx.clock.now();
    const to = input.to ? new Date(input.to) : now;
    const from = input.from ? new Date(input.from) : new Date(to.getTime() - 30 * DAY_MS);
    if (from >= to) throw new AppError('VALIDATION_ERROR', 'from must be before to', { field: 'from' });
    const [fromIso, toIso] = [from.toISOString(), to.toISOString()];
    const [audit, entries, ledger, deliveries, hooks, privacy, byKind, retention] = await Promise.all([
      // The service's own verification, asked over the bus like any caller would.
      call(ctx.bus, auditVerify, {}, caller, 60_000),
      auditEntriesIn(ctx.db, fromIso, toIso),
      verifyLedger(ctx, caller),
      deliveryStats(ctx.db, from, to),
      webhookCounts(ctx.db),
      call(ctx.bus, plantPrivacyDistributionGet, { from: fromIso, to: toIso }, caller),
      eventsByKind(ctx.db, fromIso, toIso),
      retentionFacts(ctx.db),
    ]);
    const finished = deliveries.delivered + deliveries.failed;
    return {
      period: { from: fromIso, to: toIso },
      generatedAt: now.toISOString(),
      auditLog: {
        valid: audit.valid,
        treeSize: audit.treeSize,
        rootHash: audit.rootHash,
        firstInvalidIndex: audit.firstInvalidIndex,
        entriesInPeriod: entries.entries,
        adminActionsInPeriod: entries.admin,
      },
      ledger,
      webhooks: {
        ...deliveries,
        successRate: finished > 0 ? deliveries.delivered / finished : null,
        webhooksActive: hooks.active,
        webhooksDisabled: hooks.disabled,
      },
      privacy,
      events: { total: byKind.reduce((n, k) => n + k.count, 0), byKind },
      retention: {
        auditLog: {
          policy: RETENTION_POLICY.auditLog,
          oldestOccurredAt: retention.audit.oldest,
          entries: retention.audit.entries,
        },
        publicHistory: {
          policy: RETENTION_POLICY.publicHistory,
          oldestOccurredAt: retention.history.oldest,
          events: retention.history.events,
        },
        webhookDeliveries: {
          policy: RETENTION_POLICY.webhookDeliveries,
          oldestCreatedAt: retention.deliveries.oldest,
          deliveries: retention.deliveries.deliveries,
        },
      },
    };
  });

/** transparency.dashboard.get: platform metrics, aggregates only. */
export const getDashboard = (ctx: ServiceContext) =>
  handle(transparencyDashboardGet, async () => {
    const now = ctx.clock.now();
    const ago = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
    const [head, [newest], byKind, since, plants30d, transport, hooks, deliveries] = await Promise.all([
      readHead(ctx.db),
      newestEntryBodies(ctx.db, 1),
      eventsByKind(ctx.db),
      eventsSince(ctx.db, { last24h: ago(1), last7d: ago(7) }),
      eventsByKind(ctx.db, ago(30)),
      transportTotals(ctx.db),
      webhookCounts(ctx.db),
      deliveryStats(ctx.db),
    ]);
    const countOf = (rows: { kind: string; count: number }[], kind: string) =>
      rows.find((r) => r.kind === kind)?.count ?? 0;
    return {
      generatedAt: now.toISOString(),
      auditLog: {
        entries: head.size,
        rootHash: head.rootHash,
        lastRecordedAt: newest ? (JSON.parse(newest) as AuditEntry).recordedAt : null,
      },
      events: {
        total: byKind.reduce((n, k) => n + k.count, 0),
        last24h: since.last24h ?? 0,
        last7d: since.last7d ?? 0,
        byKind,
      },
      plants: { registered: countOf(byKind, 'plant.registered'), last30d: countOf(plants30d, 'plant.registered') },
      transport,
      webhooks: {
        active: hooks.active,
        delivered: deliveries.delivered,
        pending: deliveries.pending,
        failed: deliveries.failed,
      },
    };
  });

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
