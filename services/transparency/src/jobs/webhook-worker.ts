import { newId, webhookDisabled } from '@rootline/contracts';
import type { Db, Outbox } from '@rootline/db';
import type { Clock, Logger, ServiceMetrics } from '@rootline/host';
import { type SendOptions, sendWebhook } from '../adapters/webhook-sender.js';
import {
  type AttemptRecord,
  claimDue,
  disableWebhook,
  findWebhooks,
  markAnswering,
  markFailing,
  recordAttempts,
  type WebhookRow,
} from '../db/webhooks.repo.js';
import { openSecret, type SecretKeyring } from '../domain/secret-box.js';
import { retryDelayMs, webhookMessage } from '../domain/webhook-message.js';

export interface WebhookWorkerOptions extends SendOptions {
  db: Db;
  outbox: Outbox;
  log: Logger;
  clock: Clock;
  pollMs: number;
  /** Multiplies the retry schedule (1 in production; tests shrink it). */
  retryScale: number;
  /** Deliveries sent at once. */
  concurrency: number;
  /** A webhook whose every attempt failed for this long is disabled and its owner told. */
  disableAfterMs: number;
  /** The AES-256 key that opens the webhooks' stored secrets. */
  secretKey: SecretKeyring;
  /** Where attempts are counted by outcome with their latency (`webhook_delivery_duration_seconds`). */
  metrics?: ServiceMetrics;
}

/** An attempt's outcome as the metrics name it: delivered, to be retried, failed for good, or gone (410). */
function outcomeOf(r: AttemptRecord & { gone?: boolean }): 'delivered' | 'retry' | 'failed' | 'gone' {
  if (r.gone) return 'gone';
  if (r.status === 'delivered') return 'delivered';
  return r.status === 'pending' ? 'retry' : 'failed';
}

type Due = Awaited<ReturnType<typeof claimDue>>[number];

/** Claim-send-record loops run side by side; `concurrency` deliveries are split between them. */
const LANES = 4;

/**
 * Sends pending deliveries: claims due rows (with a lease, so replicas share the work), POSTs each, and records
 * the outcome. 2xx delivers; 410 disables the webhook; anything else, a timeout or a refused address is retried
 * on the schedule until the attempts are spent. A webhook that has failed without a success for
 * `disableAfterMs` is disabled; a disabling publishes `evt.transparency.webhook.disabled` for its owner.
 */
export function createWebhookWorker(o: WebhookWorkerOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  // Retries this worker scheduled, earliest first, and the timer that wakes it for the earliest: a retry is sent when
  // it is due, not up to `pollMs` later at the next poll (the poll stays, for retries scheduled elsewhere).
  const retriesAt: number[] = [];
  let wake: { at: number; timer: NodeJS.Timeout } | undefined;
  let stopped = false;
  const leaseMs = o.timeoutMs * 3;
  const lanes = Math.min(LANES, o.concurrency);
  const batchSize = Math.ceil(o.concurrency / lanes);
  const deliveries = o.metrics?.histogram({
    name: 'webhook_delivery_duration_seconds',
    help: 'Webhook delivery attempts by outcome (delivered, retry, failed, gone), with the time each took',
    labelNames: ['outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  });

  const disable = async (hook: WebhookRow, reason: 'gone' | 'failing', failingSince: Date | null, at: Date) => {
    const disabled = await o.db.transaction(async (tx) => {
      const row = await disableWebhook(tx, hook.id, reason, {
        url: hook.url,
        failingSince: reason === 'failing' ? failingSince : null,
      });
      if (!row) return false;
      await o.outbox.enqueue(
        tx,
        webhookDisabled,
        {
          webhookId: hook.id,
          ownerId: hook.ownerId,
          url: hook.url,
          reason,
          failingSince: failingSince?.toISOString() ?? null,
          disabledAt: at.toISOString(),
        },
        { requestId: newId('req', o.clock.now().getTime()) },
      );
      return true;
    });
    if (disabled) o.log.info({ webhookId: hook.id, reason }, 'webhook disabled');
  };

  /** Sends one delivery and answers what to record; nothing is written here. */
  const attempt = async (d: Due, hook: WebhookRow | undefined): Promise<AttemptRecord & { gone?: boolean }> => {
    const now = o.clock.now();
    if (hook?.status !== 'active') {
      return { id: d.id, status: 'failed', httpStatus: null, error: 'webhook disabled', next: null, at: now };
    }
    let status: number | null = null;
    let error: string | null = null;
    try {
      // A secret that cannot be opened (another key) fails the attempt like an unreachable receiver.
      const message = webhookMessage(openSecret(o.secretKey, hook.secret), d.id, Math.floor(now.getTime() / 1000), {
        event: d.kind,
        timestamp: d.occurredAt,
        data: d.data,
      });
      status = await sendWebhook(hook.url, message, o);
    } catch (err) {
      error = (err as Error).message.slice(0, 500);
    }
    const at = o.clock.now();
    if (status !== null && status >= 200 && status < 300) {
      return { id: d.id, status: 'delivered', httpStatus: status, error: null, next: null, at };
    }
    if (status === 410) {
      const error = 'receiver answered 410 Gone';
      return { id: d.id, status: 'failed', httpStatus: status, error, next: null, at, gone: true };
    }
    const delay = retryDelayMs(d.attempts + 1, Math.random(), o.retryScale);
    return {
      id: d.id,
      status: delay === null ? 'failed' : 'pending',
      httpStatus: status,
      error: error ?? `receiver answered ${status}`,
      next: delay === null ? null : new Date(at.getTime() + delay),
      at,
    };
  };

  /** After a batch is recorded: the failure clock of each webhook, and disabling (410, or failing for too long). */
  const followUp = async (hook: WebhookRow, outcomes: (AttemptRecord & { gone?: boolean })[]) => {
    const gone = outcomes.find((r) => r.gone);
    if (gone) return disable(hook, 'gone', hook.failingSince, gone.at);
    const failed = outcomes.filter((r) => r.status !== 'delivered');
    if (failed.length < outcomes.length) {
      if (hook.failingSince) await markAnswering(o.db, hook.id);
      return;
    }
    const at = failed[failed.length - 1]!.at;
    const since = await markFailing(o.db, hook.id, at);
    if (since && at.getTime() - since.getTime() >= o.disableAfterMs) await disable(hook, 'failing', since, at);
  };

  /**
   * One lane: claims a batch, sends it, records it in one statement; until nothing is due. `claimed` hears whether
   * its first claim found anything.
   */
  const lane = async (claimed?: (found: boolean) => void) => {
    for (;;) {
      const due = await claimDue(o.db, o.clock.now(), leaseMs, batchSize);
      claimed?.(due.length > 0);
      claimed = undefined;
      if (due.length === 0) return;
      // One read of the webhooks of the whole batch, not one per delivery.
      const hooks = await findWebhooks(o.db, [...new Set(due.map((d) => d.webhookId))]);
      const outcomes = await Promise.all(
        due.map((d) => {
          const started = performance.now();
          return attempt(d, hooks.get(d.webhookId)).then(
            (r) => {
              deliveries?.observe({ outcome: outcomeOf(r) }, (performance.now() - started) / 1000);
              return r;
            },
            (err: unknown) => {
              o.log.warn({ err }, 'webhook attempt failed');
              return undefined;
            },
          );
        }),
      );
      const done = outcomes.filter((r) => r !== undefined);
      await recordAttempts(o.db, done);
      scheduleRetries(done.flatMap((r) => (r.status === 'pending' && r.next ? [r.next.getTime()] : [])));
      const byHook = new Map<string, typeof done>();
      due.forEach((d, i) => {
        const r = outcomes[i];
        if (!r || !hooks.get(d.webhookId) || hooks.get(d.webhookId)?.status !== 'active') return;
        byHook.set(d.webhookId, [...(byHook.get(d.webhookId) ?? []), r]);
      });
      for (const [id, rs] of byHook) {
        await followUp(hooks.get(id)!, rs).catch((err: unknown) => o.log.warn({ err }, 'webhook follow-up failed'));
      }
    }
  };

  /** Arms the timer for the earliest retry ahead (at once if it is due); a wake-up sends every retry then due. */
  const armWake = () => {
    const next = retriesAt[0];
    if (stopped || next === undefined || (wake && wake.at <= next)) return;
    if (wake) clearTimeout(wake.timer);
    const timer = setTimeout(
      () => {
        wake = undefined;
        const now = o.clock.now().getTime();
        while (retriesAt.length > 0 && retriesAt[0]! <= now) retriesAt.shift();
        void run();
      },
      Math.max(0, next - o.clock.now().getTime()),
    );
    timer.unref();
    wake = { at: next, timer };
  };

  /** Remembers when retries are due (kept sorted: a binary search for each). */
  const scheduleRetries = (times: number[]) => {
    for (const t of times) {
      let lo = 0;
      let hi = retriesAt.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (retriesAt[mid]! <= t) lo = mid + 1;
        else hi = mid;
      }
      retriesAt.splice(lo, 0, t);
    }
    armWake();
  };

  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        // Lanes share the work through the claims, so a slow receiver holds up only its own lane's batch. One lane
        // looks first and the others join once it found work: at rest a poll is one statement, not one a lane.
        let others: Promise<unknown> | undefined;
        await lane((found) => {
          if (found && lanes > 1) others = Promise.all(Array.from({ length: lanes - 1 }, () => lane()));
        });
        await others;
      } while (again);
    })()
      .catch((err: unknown) => o.log.warn({ err }, 'webhook worker failed'))
      .finally(() => {
        running = undefined;
        armWake();
      });
    return running;
  };

  return {
    /** Looks for due deliveries now (after new ones were committed). */
    kick: () => void run(),
    start() {
      timer = setInterval(() => void run(), o.pollMs);
      void run();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (wake) clearTimeout(wake.timer);
      await running;
    },
  };
}
