import { type Static, Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';
import { defineSubject } from './define.js';
import { PlantPrivacyDistribution } from './plants-privacy.js';
import { TransparencyInstant } from './transparency-exports.js';

const Count = Type.Integer({ minimum: 0 });

/** The compliance report of a period. */
export const ComplianceReport = Type.Object({
  period: Type.Object({ from: Timestamp, to: Timestamp }),
  generatedAt: Timestamp,
  auditLog: Type.Object({
    valid: Type.Boolean({ description: 'Every entry, the hash chain and the Merkle root re-verified' }),
    treeSize: Count,
    rootHash: Type.String(),
    firstInvalidIndex: Type.Union([Count, Type.Null()]),
    entriesInPeriod: Count,
    adminActionsInPeriod: Count,
  }),
  ledger: Type.Object({
    valid: Type.Boolean({ description: 'Every block checked passed every check' }),
    checkedBlocks: Count,
    checkedTransactions: Count,
    tipIndex: Type.Union([Count, Type.Null()]),
    complete: Type.Boolean({
      description: 'The whole chain was checked (false when it is longer than one report reads)',
    }),
    invalidBlocks: Type.Array(Type.Object({ index: Count, hash: Type.String(), problems: Type.Array(Type.String()) })),
  }),
  webhooks: Type.Object({
    deliveries: Count,
    delivered: Count,
    pending: Count,
    failed: Count,
    successRate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
      description: 'delivered / (delivered + failed); null when none has finished',
    }),
    averageAttempts: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
    webhooksActive: Count,
    webhooksDisabled: Count,
  }),
  privacy: PlantPrivacyDistribution,
  events: Type.Object({
    total: Count,
    byKind: Type.Array(Type.Object({ kind: Type.String(), count: Count })),
  }),
  retention: Type.Object({
    auditLog: Type.Object({
      policy: Type.String(),
      oldestOccurredAt: Type.Union([Timestamp, Type.Null()]),
      entries: Count,
    }),
    publicHistory: Type.Object({
      policy: Type.String(),
      oldestOccurredAt: Type.Union([Timestamp, Type.Null()]),
      events: Count,
    }),
    webhookDeliveries: Type.Object({
      policy: Type.String(),
      oldestCreatedAt: Type.Union([Timestamp, Type.Null()]),
      deliveries: Count,
    }),
  }),
});
export type ComplianceReport = Static<typeof ComplianceReport>;

export const transparencyReportGet = defineSubject({
  subject: 'transparency.report.get',
  request: Type.Object({
    from: Type.Optional(
      TransparencyInstant(
        'Start of the period, inclusive (default 30 days before `to`); must be before `to` (else 400 VALIDATION_ERROR)',
      ),
    ),
    to: Type.Optional(TransparencyInstant('End of the period, exclusive (default now)')),
  }),
  reply: ComplianceReport,
  summary: 'Compliance report of a period: ledger and audit integrity, webhooks, privacy levels, retention',
});

/** Platform metrics: aggregates only, nothing about a person. */
export const TransparencyDashboard = Type.Object(
  {
    generatedAt: Timestamp,
    auditLog: Type.Object({
      entries: Count,
      rootHash: Type.String(),
      lastRecordedAt: Type.Union([Timestamp, Type.Null()]),
    }),
    events: Type.Object({
      total: Count,
      last24h: Count,
      last7d: Count,
      byKind: Type.Array(Type.Object({ kind: Type.String(), count: Count })),
    }),
    plants: Type.Object({ registered: Count, last30d: Count }),
    transport: Type.Object({
      events: Count,
      distanceKm: Type.Number({ minimum: 0 }),
      kgCo2e: Type.Number({ minimum: 0 }),
    }),
    webhooks: Type.Object({ active: Count, delivered: Count, pending: Count, failed: Count }),
  },
  {
    examples: [
      {
        generatedAt: '2026-11-23T08:00:00.000Z',
        auditLog: {
          entries: 48210,
          rootHash: '1d2c3b4a59687766554433221100ffeeddccbbaa99887766554433221100ffee',
          lastRecordedAt: '2026-11-23T07:59:58.120Z',
        },
        events: {
          total: 20114,
          last24h: 312,
          last7d: 2240,
          byKind: [
            { kind: 'plant.registered', count: 9120 },
            { kind: 'transport.completed', count: 10994 },
          ],
        },
        plants: { registered: 9120, last30d: 1450 },
        transport: { events: 10994, distanceKm: 182340.5, kgCo2e: 9120.25 },
        webhooks: { active: 38, delivered: 51230, pending: 4, failed: 12 },
      },
    ],
  },
);
export type TransparencyDashboard = Static<typeof TransparencyDashboard>;

export const transparencyDashboardGet = defineSubject({
  subject: 'transparency.dashboard.get',
  request: Type.Object({}),
  reply: TransparencyDashboard,
  summary: 'Platform metrics from the event history and the audit log',
});

const Status = Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')]);

export const ComponentHealth = Type.Object({
  status: Status,
  checkedAt: Timestamp,
  services: Type.Array(
    Type.Object({
      service: Type.String(),
      status: Status,
      instances: Count,
      latencyMs: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
        description: 'Round trip of its status request; null when it did not answer',
      }),
      version: Type.Union([Type.String(), Type.Null()]),
      database: Type.Union([Type.Literal('ok'), Type.Literal('error'), Type.Literal('none'), Type.Null()]),
      outboxBacklog: Type.Union([Count, Type.Null()], { description: 'Events committed, not yet published' }),
      error: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  database: Type.Object({ status: Status, latencyMs: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]) }),
  bus: Type.Object({
    status: Status,
    latencyMs: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
      description: 'Time for the service discovery ($SRV.PING) to answer',
    }),
    instances: Count,
  }),
  outbox: Type.Object({
    backlog: Count,
    oldestPendingSeconds: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
      description: "Age of the transparency service's oldest unpublished event",
    }),
  }),
  consumer: Type.Object({
    name: Type.String(),
    lastRecordedAt: Type.Union([Timestamp, Type.Null()]),
    lastDelaySeconds: Type.Union([Type.Number(), Type.Null()], {
      description: 'recordedAt − occurredAt of the newest audit entry: how far behind the stream it was recorded',
    }),
    maxDelaySeconds: Type.Union([Type.Number(), Type.Null()], {
      description: 'The largest delay of the last 100 entries',
    }),
  }),
});
export type ComponentHealth = Static<typeof ComponentHealth>;

export const transparencyHealthGet = defineSubject({
  subject: 'transparency.health.get',
  request: Type.Object({}),
  reply: ComponentHealth,
  summary: 'Health of every component: services, database, bus, outbox and consumer lag',
});
