import type { Channel } from '@rootline/contracts';
import { createPeriodic, type ServiceContext } from '@rootline/host';
import type { NotifyConfig } from '../config.js';
import { claimDue, DELIVERIES_CHANNEL, type DeliveryRow, markFailed, markSent } from '../db/deliveries.repo.js';
import { retryDelayMs } from '../domain/backoff.js';
import { notificationsCounter } from '../subscribers/dispatch.js';

/** Deliveries claimed per round; a claim lasts long enough for a slow server to answer them all. */
const BATCH = 20;
const CLAIM_MS = 120_000;

export type ChannelSend = (d: DeliveryRow) => Promise<void>;

export interface DeliverySender {
  start(): void;
  /** Looks for due deliveries now. */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * Background work that sends recorded deliveries (email, push): claims due rows (two instances never claim the
 * same one), hands each to its channel, and marks it sent or schedules a retry with back-off, giving up after
 * NOTIFY_MAX_ATTEMPTS. At least once towards the outside server (a crash between send and mark sends again, with
 * the same message id); exactly once per event and channel in the database.
 */
export function createDeliverySender(
  ctx: ServiceContext<NotifyConfig>,
  channels: Partial<Record<Channel, ChannelSend>>,
): DeliverySender {
  const { clock, log, config } = ctx;
  const sent = notificationsCounter(ctx);
  async function sendOne(d: DeliveryRow): Promise<void> {
    try {
      const send = channels[d.channel as Channel];
      if (!send) throw new Error(`no sender for channel ${d.channel}`);
      await send(d);
      await markSent(ctx.db, d.id, clock.now().toISOString());
      sent.inc({ channel: d.channel, outcome: 'sent' });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const retry = d.attempts < config.NOTIFY_MAX_ATTEMPTS;
      const delay = retryDelayMs(d.attempts, config.NOTIFY_RETRY_BASE_MS, config.NOTIFY_RETRY_MAX_MS, Math.random());
      const nextAt = retry ? new Date(clock.now().getTime() + delay).toISOString() : null;
      await markFailed(ctx.db, d.id, error.slice(0, 500), nextAt);
      sent.inc({ channel: d.channel, outcome: retry ? 'retry' : 'failed' });
      log[retry ? 'warn' : 'error'](
        { deliveryId: d.id, channel: d.channel, attempts: d.attempts, error },
        retry ? 'send failed; will retry' : 'send failed; given up',
      );
    }
  }

  async function tick(): Promise<void> {
    for (;;) {
      const now = clock.now();
      const due = await claimDue(ctx.db, now.toISOString(), new Date(now.getTime() + CLAIM_MS).toISOString(), BATCH);
      for (const d of due) await sendOne(d);
      if (due.length < BATCH) return;
    }
  }

  const rounds = createPeriodic({
    everyMs: config.NOTIFY_POLL_MS,
    log,
    what: 'delivery round',
    job: 'notify-delivery-round',
    run: tick,
    metrics: ctx.metrics,
  });
  let listening: Promise<(() => Promise<void>) | undefined> | undefined;
  return {
    start() {
      if (listening) return;
      rounds.start();
      // Recorded deliveries wake the senders at once; the rounds find retries that fall due and what a gap missed.
      listening = ctx.listen(DELIVERIES_CHANNEL, rounds.wake, rounds.wake).catch((err: unknown) => {
        log.warn({ err }, 'could not listen for new deliveries; the sender relies on its rounds');
        return undefined;
      });
    },
    wake: rounds.wake,
    async stop() {
      const unlisten = await listening;
      listening = undefined;
      await unlisten?.().catch(() => {});
      await rounds.stop();
    },
  };
}
