import { fileURLToPath } from 'node:url';
import { outgoingAgent, PublicUrlSetting, type ServiceModule, withBase } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import { buildAnalyticsFromAudit } from './db/analytics-rebuild.js';
import { ensureHead } from './db/audit.repo.js';
import { inbox, outbox } from './db/schema.js';
import { sealPlainSecrets } from './db/webhooks.repo.js';
import { isSealed, sealSecret } from './domain/secret-box.js';
import {
  exportAnalytics,
  getFarmAnalytics,
  getOverview,
  getPlantAnalytics,
  getSustainability,
  getTransportAnalytics,
} from './handlers/analytics.js';
import { appendAudit, getAudit, listAudit, verifyAudit } from './handlers/audit.js';
import { getCertificate } from './handlers/certificates.js';
import { listEventHistory } from './handlers/events.js';
import { exportChunk, exportSummaryOf } from './handlers/exports.js';
import { getHealth } from './handlers/health.js';
import { getConsistencyProof, getInclusionProof, getPublicKey, getTreeHead } from './handlers/proofs.js';
import { getDashboard, getReport } from './handlers/reports.js';
import {
  createKeyChallenge,
  createSigningKey,
  deleteSigningKey,
  getSignatureStatement,
  getSigningKey,
  listSigningKeys,
  listSubjectSignatures,
  submitSignature,
  verifySignature,
} from './handlers/signatures.js';
import {
  changeWebhook,
  createWebhook,
  getWebhook,
  listOwnWebhooks,
  listWebhookDeliveries,
  redeliverWebhookDelivery,
  removeWebhook,
  testWebhook,
} from './handlers/webhooks.js';
import { loadSigningKey } from './signing-key.js';
import { onDomainEvent } from './subscribers/domain-event.js';
import { loadWebhookSecretKey } from './webhook-secret-key.js';
import { createWebhookWorker } from './webhook-worker.js';

const TransparencyConfig = withBase({
  AUDIT_SIGNING_KEY: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Ed25519 private key (PKCS#8 PEM) that signs tree heads; without it one is generated once into DATA_DIR ' +
        '(set it when replicas do not share DATA_DIR)',
    }),
  ),
  WEBHOOK_SECRET_KEY: Type.Optional(
    Type.String({
      minLength: 44,
      description:
        'AES-256 key (32 bytes, base64) that seals webhook secrets at rest; without it one is generated once into ' +
        'DATA_DIR (set it when replicas do not share DATA_DIR)',
    }),
  ),
  WEBHOOK_ALLOW_PRIVATE: Type.Boolean({
    default: false,
    description: 'Let webhooks reach private, loopback and link-local addresses (closed networks and tests only)',
  }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 100,
    maximum: 60_000,
    description: 'Wait for a receiver',
  }),
  WEBHOOK_POLL_MS: Type.Integer({
    default: 1000,
    minimum: 20,
    maximum: 60_000,
    description: 'Look for due deliveries',
  }),
  WEBHOOK_RETRY_SCALE: Type.Number({
    default: 1,
    exclusiveMinimum: 0,
    maximum: 1,
    description: 'Multiplies the retry schedule (tests shrink it)',
  }),
  WEBHOOK_CONCURRENCY: Type.Integer({
    default: 128,
    minimum: 1,
    maximum: 1024,
    description: 'Deliveries sent at once (split between four claim-send-record loops)',
  }),
  WEBHOOK_DISABLE_AFTER_HOURS: Type.Number({
    default: 72,
    exclusiveMinimum: 0,
    maximum: 8760,
    description: 'Disable a webhook (and tell its owner) whose every attempt has failed for this long',
  }),
  /**
   * Certificate QR codes open <PUBLIC_URL>/api/transport/trace/<plantId>, and EPCIS exports name their extension
   * fields under <PUBLIC_URL>/ns/epcis#; unset, the address the request came through.
   */
  PUBLIC_URL: PublicUrlSetting,
});

/** transparency: the verifiable audit log, the public event stream and history, webhooks and analytics. */
export const service: ServiceModule<typeof TransparencyConfig> = {
  name: 'transparency',
  version: '0.2.0',
  config: TransparencyConfig,
  db: {
    schema: 'transparency',
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    outbox,
    inbox,
  },
  async create(ctx) {
    const key = loadSigningKey(ctx.config);
    if (key.generatedIn && ctx.config.DATABASE_URL) {
      // Replicas on other machines would each make their own key and sign heads that others cannot match.
      ctx.log.warn({ file: key.generatedIn }, 'AUDIT_SIGNING_KEY is not set: tree heads are signed with a local key');
    }
    const { key: secretKey, generatedIn } = loadWebhookSecretKey(ctx.config);
    if (generatedIn && ctx.config.DATABASE_URL) {
      // Replicas on other machines would each make their own key and could not open each other's secrets.
      ctx.log.warn({ file: generatedIn }, 'WEBHOOK_SECRET_KEY is not set: webhook secrets are sealed with a local key');
    }
    const sealed = await sealPlainSecrets(ctx.db, isSealed, (plain) => sealSecret(secretKey, plain));
    if (sealed > 0) ctx.log.info({ webhooks: sealed }, 'webhook secrets stored in plain text are now sealed');
    await ensureHead(ctx.db, ctx.clock.now());
    const agent = outgoingAgent(ctx.config.SOCKS_PROXY_URL);
    const replayed = await buildAnalyticsFromAudit(ctx.db, ctx.clock.now());
    if (replayed > 0) ctx.log.info({ entries: replayed }, 'analytics: counters built from the audit log');
    const worker = createWebhookWorker({
      db: ctx.db,
      outbox: ctx.outbox,
      log: ctx.log,
      clock: ctx.clock,
      allowPrivate: ctx.config.WEBHOOK_ALLOW_PRIVATE,
      timeoutMs: ctx.config.WEBHOOK_TIMEOUT_MS,
      pollMs: ctx.config.WEBHOOK_POLL_MS,
      retryScale: ctx.config.WEBHOOK_RETRY_SCALE,
      concurrency: ctx.config.WEBHOOK_CONCURRENCY,
      agent,
      disableAfterMs: ctx.config.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000,
      secretKey,
      metrics: ctx.metrics,
    });
    const send = { allowPrivate: ctx.config.WEBHOOK_ALLOW_PRIVATE, timeoutMs: ctx.config.WEBHOOK_TIMEOUT_MS, agent };
    return {
      handlers: [
        listAudit(ctx),
        getAudit(ctx),
        appendAudit(ctx),
        verifyAudit(ctx),
        getTreeHead(ctx, key),
        getPublicKey(key),
        getInclusionProof(ctx),
        getConsistencyProof(ctx),
        listEventHistory(ctx),
        createWebhook(ctx, ctx.config.WEBHOOK_ALLOW_PRIVATE, secretKey),
        listOwnWebhooks(ctx),
        listWebhookDeliveries(ctx),
        removeWebhook(ctx),
        getWebhook(ctx),
        changeWebhook(ctx, ctx.config.WEBHOOK_ALLOW_PRIVATE, secretKey),
        testWebhook(ctx, send, secretKey),
        redeliverWebhookDelivery(ctx, worker),
        createKeyChallenge(ctx),
        createSigningKey(ctx),
        listSigningKeys(ctx),
        getSigningKey(ctx),
        deleteSigningKey(ctx),
        getSignatureStatement(ctx),
        submitSignature(ctx),
        listSubjectSignatures(ctx),
        verifySignature(ctx),
        getCertificate(ctx, key, ctx.config.PUBLIC_URL),
        exportChunk(ctx, ctx.config.PUBLIC_URL),
        exportSummaryOf(ctx),
        getReport(ctx),
        getDashboard(ctx),
        getHealth(ctx),
        getOverview(ctx),
        getPlantAnalytics(ctx),
        getTransportAnalytics(ctx),
        getFarmAnalytics(ctx),
        getSustainability(ctx),
        exportAnalytics(ctx),
      ],
      subscribers: [onDomainEvent(ctx, worker)],
      start: async () => worker.start(),
      stop: () => worker.stop(),
    };
  },
};
