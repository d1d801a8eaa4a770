import {
  AppError,
  type AuditEntry,
  auditVerify,
  type CallContext,
  chainLedgerVerify,
  plantPrivacyDistributionGet,
  transparencyDashboardGet,
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
  retentionFacts,
  transportTotals,
  webhookCounts,
} from '../db/reports.repo.js';

const DAY_MS = 24 * 3600 * 1000;
/** Most `chain.ledger.verify` ranges (of up to 1000 blocks each) one report reads. */
const LEDGER_RANGES = 50;

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
    if (from >= to)
      throw new AppError('VALIDATION_ERROR', 'from must be before to', { field: 'from', reason: 'from-after-to' });
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
