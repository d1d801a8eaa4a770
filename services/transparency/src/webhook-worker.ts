import { newId, webhookDisabled } from '@rootline/contracts';
import type { Db, Outbox } from '@rootline/db';
import type { Clock, Logger } from '@rootline/host';
import {
  claimDue,
  disableWebhook,
  findWebhooks,
  markAnswering,
  markFailing,
  recordAttempt,
  type WebhookRow,
} from './db/webhooks.repo.js';
import { retryDelayMs, webhookMessage } from './domain/webhook-message.js';
import { type SendOptions, sendWebhook } from './webhook-sender.js';

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
}

type Due = Awaited<ReturnType<typeof claimDue>>[number];

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
  const leaseMs = o.timeoutMs * 3;

  const disable = async (hook: WebhookRow, reason: 'gone' | 'failing', failingSince: Date | null, at: Date) => {
    const disabled = await o.db.transaction(async (tx) => {
      const row = await disableWebhook(tx, hook.id, reason);
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
        { requestId: newId('req') },
      );
      return true;
    });
    if (disabled) o.log.info({ webhookId: hook.id, reason }, 'webhook disabled');
  };

  const attempt = async (d: Due, hook: WebhookRow | undefined) => {
    const now = o.clock.now();
    if (hook?.status !== 'active') {
      await recordAttempt(o.db, d.id, {
        status: 'failed',
        httpStatus: null,
        error: 'webhook disabled',
        next: null,
        at: now,
      });
      return;
    }
    const message = webhookMessage(hook.secret, d.id, Math.floor(now.getTime() / 1000), {
      event: d.kind,
      timestamp: d.occurredAt,
      data: d.data,
    });
    let status: number | null = null;
    let error: string | null = null;
    try {
      status = await sendWebhook(hook.url, message, o);
    } catch (err) {
      error = (err as Error).message.slice(0, 500);
    }
    const at = o.clock.now();
    if (status !== null && status >= 200 && status < 300) {
      await recordAttempt(o.db, d.id, { status: 'delivered', httpStatus: status, error: null, next: null, at });
      if (hook.failingSince) await markAnswering(o.db, hook.id);
      return;
    }
    if (status === 410) {
      await recordAttempt(o.db, d.id, {
        status: 'failed',
        httpStatus: status,
        error: 'receiver answered 410 Gone',
        next: null,
        at,
      });
      await disable(hook, 'gone', hook.failingSince, at);
      return;
    }
    const delay = retryDelayMs(d.attempts + 1, Math.random(), o.retryScale);
    await recordAttempt(o.db, d.id, {
      status: delay === null ? 'failed' : 'pending',
      httpStatus: status,
      error: error ?? `receiver answered ${status}`,
      next: delay === null ? null : new Date(at.getTime() + delay),
      at,
    });
    const since = await markFailing(o.db, hook.id, at);
    if (since && at.getTime() - since.getTime() >= o.disableAfterMs) await disable(hook, 'failing', since, at);
  };

  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        for (;;) {
          const due = await claimDue(o.db, o.clock.now(), leaseMs, o.concurrency);
          if (due.length === 0) break;
          // One read of the webhooks of the whole batch, not one per delivery.
          const hooks = await findWebhooks(o.db, [...new Set(due.map((d) => d.webhookId))]);
          await Promise.all(
            due.map((d) =>
              attempt(d, hooks.get(d.webhookId)).catch((err: unknown) => o.log.warn({ err }, 'webhook attempt failed')),
            ),
          );
        }
      } while (again);
    })()
      .catch((err: unknown) => o.log.warn({ err }, 'webhook worker failed'))
      .finally(() => {
        running = undefined;
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
      clearInterval(timer);
      await running;
    },
  };
}
