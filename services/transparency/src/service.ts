import { fileURLToPath } from 'node:url';
import { consistencyRanges } from '@rootline/domain';
import { ConfigError, outgoingAgent, type ServiceModule } from '@rootline/host';
import { establishSigningKey } from './adapters/platform-keys.js';
import { loadWebhookKeyring } from './adapters/webhook-secret-key.js';
import { witnessKey } from './adapters/witness-key.js';
import { TransparencyConfig } from './config.js';
import { buildAnalyticsFromAudit } from './db/analytics-rebuild.js';
import { ensureHead } from './db/audit.repo.js';
import { inbox, outbox } from './db/schema.js';
import { resealSecrets, sealedSecretKeys } from './db/webhooks.repo.js';
import { parsePeers, withPeerLogs, withPeerWitnesses } from './domain/peers.js';
import { isSealedUnderCurrent, openSecret, sealSecret } from './domain/secret-box.js';
import { parseFollowedLogs, parseWitnessPeers } from './domain/witness-config.js';
import {
  exportAnalytics,
  getFarmAnalytics,
  getOverview,
  getPlantAnalytics,
  getSustainability,
  getTransportAnalytics,
} from './handlers/analytics.js';
import { appendAudit, getAudit, getPublicAudit, listAudit, verifyAudit } from './handlers/audit.js';
import { getCertificate, getRevocationList, revokeCertificate } from './handlers/certificates.js';
import { listEventHistory } from './handlers/events.js';
import { exportChunk, exportSummaryOf } from './handlers/exports.js';
import {
  clearPeerFork,
  getPeerBundle,
  listPeers,
  verifyPeerPlant,
  verifyPeerTransaction,
} from './handlers/federation.js';
import { getHealth } from './handlers/health.js';
import { renderLabels } from './handlers/labels.js';
import { getPlantProofBundle, getTxProofBundle } from './handlers/proof-bundles.js';
import {
  getCheckpoint,
  getConsistencyProof,
  getInclusionProof,
  getPlatformKeys,
  getPublicKey,
  getTreeHead,
  hashesOf,
} from './handlers/proofs.js';
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
import { getLogTile } from './handlers/tiles.js';
import {
  changeWebhook,
  createSubscriptionWebhook,
  createWebhook,
  getWebhook,
  listOwnWebhooks,
  listWebhookDeliveries,
  redeliverWebhookDelivery,
  removeWebhook,
  testWebhook,
} from './handlers/webhooks.js';
import { addCheckpoint, getWitness } from './handlers/witness.js';
import { createPeerMirror } from './jobs/peer-mirror.js';
import { createWebhookWorker } from './jobs/webhook-worker.js';
import { createWitnessRequester } from './jobs/witness-requester.js';
import { onDomainEvent } from './subscribers/domain-event.js';
import { onEpcisSubscriptionMatched } from './subscribers/epcis-subscription.js';

/** Where the gateway serves the log as tiles; the default origin names it, as c2sp.org/tlog-tiles recommends. */
const TILES_PATH = '/api/transparency/log';

/** The checkpoint origin (and note key name): AUDIT_LOG_ORIGIN, else PUBLIC_URL's host and path + the tiles path. */
export function logOrigin(config: { AUDIT_LOG_ORIGIN?: string | undefined; PUBLIC_URL?: string | undefined }): string {
  if (config.AUDIT_LOG_ORIGIN) return config.AUDIT_LOG_ORIGIN;
  if (!config.PUBLIC_URL) return `rootline.localhost${TILES_PATH}`;
  const url = new URL(config.PUBLIC_URL);
  return `${url.host}${url.pathname.replace(/\/$/, '')}${TILES_PATH}`;
}

/** Where the gateway serves the witness (c2sp.org/tlog-witness submission prefix). */
const WITNESS_PATH = '/api/transparency/witness';

/** The witness's key name: WITNESS_NAME, else PUBLIC_URL's host and path + the witness path. */
export function witnessName(config: { WITNESS_NAME?: string | undefined; PUBLIC_URL?: string | undefined }): string {
  if (config.WITNESS_NAME) return config.WITNESS_NAME;
  if (!config.PUBLIC_URL) return `rootline.localhost${WITNESS_PATH}`;
  const url = new URL(config.PUBLIC_URL);
  return `${url.host}${url.pathname.replace(/\/$/, '')}${WITNESS_PATH}`;
}

/** A setting parsed at start; a bad one stops the start with its name and reason. */
function setting<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

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
    await ensureHead(ctx.db, ctx.clock.now());
    const key = await establishSigningKey(ctx, ctx.config);
    if (key.from && ctx.config.DATABASE_URL) {
      // Replicas on other machines would each make their own key and sign heads that others cannot match.
      ctx.log.warn({ file: key.from }, 'AUDIT_SIGNING_KEY is not set: tree heads are signed with a local key');
    }
    const origin = logOrigin(ctx.config);
    const { ring: secretKey, generatedIn } = loadWebhookKeyring(ctx.config, await sealedSecretKeys(ctx.db));
    if (generatedIn && ctx.config.DATABASE_URL) {
      // Replicas on other machines would each make their own key and could not open each other's secrets.
      ctx.log.warn({ file: generatedIn }, 'WEBHOOK_SECRET_KEY is not set: webhook secrets are sealed with a local key');
    }
    // Plain secrets, the v1 form and secrets under an earlier key are all brought under the current key.
    const { resealed, unreadable } = await resealSecrets(ctx.db, secretKey.current.id, (stored) =>
      isSealedUnderCurrent(secretKey, stored) ? stored : sealSecret(secretKey, openSecret(secretKey, stored)),
    );
    if (resealed > 0) ctx.log.info({ webhooks: resealed, keyId: secretKey.current.id }, 'webhook secrets re-sealed');
    if (unreadable.length > 0) {
      throw new ConfigError(
        `WEBHOOK_SECRET_KEY: ${unreadable.length} webhook secret(s) cannot be opened with WEBHOOK_SECRET_KEY ` +
          `(key id ${secretKey.current.id}) or WEBHOOK_SECRET_KEYS_PREVIOUS: ${unreadable[0]?.error}. ` +
          'Set the key they were sealed with (after a rotation, list the old key in WEBHOOK_SECRET_KEYS_PREVIOUS)',
      );
    }
    const agent = outgoingAgent(ctx.config.SOCKS_PROXY_URL);
    // A peer is a log this node witnesses and mirrors, and a witness it asks: one setting, three roles.
    const nodes = setting(() => parsePeers(ctx.config.PEERS));
    const peers = withPeerWitnesses(
      setting(() => parseWitnessPeers(ctx.config.AUDIT_WITNESSES)),
      nodes,
    );
    const witness = {
      name: witnessName(ctx.config),
      ...witnessKey(ctx.config),
      logs: withPeerLogs(
        setting(() => parseFollowedLogs(ctx.config.WITNESS_LOGS)),
        nodes,
      ),
    };
    const mirror = createPeerMirror({
      db: ctx.db,
      log: ctx.log,
      clock: ctx.clock,
      peers: nodes,
      pollMs: ctx.config.PEER_POLL_MS,
      timeoutMs: ctx.config.PEER_TIMEOUT_MS,
      agent,
    });
    const requester = createWitnessRequester({
      db: ctx.db,
      log: ctx.log,
      clock: ctx.clock,
      key,
      origin,
      peers,
      proof: async (first, second) =>
        (await hashesOf(ctx, consistencyRanges(first, second))).map((h) => Buffer.from(h, 'hex')),
      pollMs: ctx.config.AUDIT_WITNESS_POLL_MS,
      timeoutMs: ctx.config.AUDIT_WITNESS_TIMEOUT_MS,
      agent,
    });
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
        getPublicAudit(ctx),
        getCheckpoint(ctx, key, origin),
        getPlatformKeys(ctx, origin),
        getPlantProofBundle(ctx, key, origin),
        getTxProofBundle(ctx, key, origin),
        getLogTile(ctx),
        addCheckpoint(ctx, witness),
        getWitness(ctx, witness),
        listPeers(ctx, nodes),
        getPeerBundle(ctx, nodes, mirror),
        verifyPeerPlant(ctx, nodes, mirror),
        verifyPeerTransaction(ctx, nodes, mirror),
        clearPeerFork(ctx, nodes),
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
        createSubscriptionWebhook(ctx, ctx.config.WEBHOOK_ALLOW_PRIVATE, secretKey),
        createKeyChallenge(ctx),
        createSigningKey(ctx),
        listSigningKeys(ctx),
        getSigningKey(ctx),
        deleteSigningKey(ctx),
        getSignatureStatement(ctx),
        submitSignature(ctx),
        listSubjectSignatures(ctx),
        verifySignature(ctx),
        getCertificate(ctx, key, ctx.config.PUBLIC_URL, ctx.config.GS1_COMPANY_PREFIX),
        revokeCertificate(ctx),
        renderLabels(ctx, ctx.config.PUBLIC_URL, ctx.config.GS1_COMPANY_PREFIX),
        getRevocationList(ctx, key, origin),
        exportChunk(ctx, ctx.config.PUBLIC_URL, ctx.config.GS1_COMPANY_PREFIX),
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
      subscribers: [onDomainEvent(ctx, worker), onEpcisSubscriptionMatched(ctx, worker)],
      start: async () => {
        await worker.start();
        await requester.start();
        await mirror.start();
      },
      stop: async () => {
        await mirror.stop();
        await requester.stop();
        await worker.stop();
      },
    };
  },
};
