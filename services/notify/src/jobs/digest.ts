import type { ServiceContext } from '@rootline/host';
import { claimDigestWeek, setDigestRecipients, weekCounts } from '../db/digest.repo.js';
import { digestLines, digestWeek } from '../domain/digest.js';
import { recordNotice } from '../subscribers/dispatch.js';

export interface DigestJob {
  start(): void;
  stop(): Promise<void>;
}

/**
 * The weekly digest: every instance checks each `pollMs` whether last week's digest was made; the first to claim
 * the week records one digest per user with news that week (through the preferences, like any notice), in one
 * transaction with the claim. Another instance's claim waits and then finds the week taken, a crash rolls back
 * the claim with the digests, and the digests' unique source (`digest:<week>`) keeps even a second run from
 * adding any: once per week per user however many instances run.
 */
export function createDigestJob(ctx: ServiceContext, pollMs: number): DigestJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function tick(): Promise<void> {
    const now = ctx.clock.now();
    const week = digestWeek(now);
    const started = performance.now();
    let claimed = false;
    await ctx.db
      .transaction(async (tx) => {
        if (!(await claimDigestWeek(tx, week.key, ctx.instanceId, now.toISOString()))) return;
        claimed = true;
        const counts = await weekCounts(tx, week.from.toISOString(), week.to.toISOString());
        let recipients = 0;
        for (const [userId, byType] of counts) {
          const lines = digestLines(byType);
          if (lines.length === 0) continue;
          const params = { weekStart: week.key, lines };
          await recordNotice(
            ctx,
            tx,
            `digest:${week.key}`,
            userId,
            { name: 'weekly-digest', params },
            { week: week.key },
          );
          recipients++;
        }
        await setDigestRecipients(tx, week.key, recipients);
        ctx.log.info({ week: week.key, recipients }, 'weekly digest recorded');
      })
      .then(
        () => {
          if (claimed) ctx.metrics.run('notify-weekly-digest', 'ok', (performance.now() - started) / 1000);
        },
        (err: unknown) => {
          if (claimed) ctx.metrics.run('notify-weekly-digest', 'error', (performance.now() - started) / 1000);
          throw err;
        },
      );
  }

  function wake(): void {
    if (!timer || running) return;
    running = tick()
      .catch((err: unknown) => ctx.log.error({ err }, 'weekly digest failed'))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    start() {
      if (timer) return;
      timer = setInterval(wake, pollMs);
      timer.unref();
      wake();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
