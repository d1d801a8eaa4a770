export {
  type AgentRow,
  type AgentsTable,
  agentsTable,
  claimAgentRun,
  ensureAgentRow,
  finishAgentRun,
  moveAgentRow,
  readAgentRow,
  releaseAgentRun,
} from './agents.js';
export { type DatabaseEventLog, type EventLogOptions, openEventLog } from './event-log.js';
export { createInbox, type Inbox, type InboxOptions, type InboxTable, inboxTable } from './inbox.js';
export { anyOfTexts, insertFromJson, insertFromJsonParameter } from './json-rows.js';
export { type LedgerIntentsTable, ledgerIntentsTable } from './ledger-intents.js';
export { type MigrateOptions, migrateSchema } from './migrate.js';
export {
  createEmbeddedDatabase,
  DEFAULT_PGLITE_COMPILER,
  type OpenDatabaseOptions,
  openDatabase,
  PGLITE_COMPILERS,
  type PgliteCompiler,
} from './open.js';
export {
  createOutbox,
  type Outbox,
  type OutboxOptions,
  type OutboxTable,
  outboxTable,
  type PendingEvent,
  pendingEvent,
} from './outbox.js';
export { executePrepared, executeRows, type FixedStatement, fixedStatement, prepared } from './prepared.js';
export {
  lsnToBigInt,
  openReadRouter,
  primaryReads,
  type ReadRouter,
  type ReadRouterOptions,
  type ReadTarget,
  replicaHolds,
} from './replica.js';
export {
  claimScheduledJob,
  ensureScheduledJob,
  finishScheduledJob,
  readScheduledJob,
  releaseScheduledJob,
  type ScheduledJobRow,
  type ScheduledJobsTable,
  scheduledJobsTable,
} from './scheduled-jobs.js';
export { ANALYZE_THRESHOLD, analyzeGrownTables } from './statistics.js';
export type * from './types.js';
export { isDatabaseUnavailable } from './unavailable.js';
