import { AppError, type CallContext, notifyRecipientList } from '@rootline/contracts';
import { call, type ServiceContext } from '@rootline/host';
import { upsertRecipientIfNewer } from '../db/recipients.repo.js';

const PAGE = 500;
const system: CallContext = { requestId: 'notify-recipient-sync' };

/**
 * Learns every account the gateway has (accounts made before notify first ran never sent it an account event):
 * pages through `gateway.recipient.list` in id order and records each recipient unless notify already holds a
 * newer copy from an event. Runs in the background at start and retries until the gateway answers once.
 */
export function createRecipientSync(ctx: ServiceContext, retryMs: number) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const once = async (): Promise<number> => {
    let after: string | undefined;
    let count = 0;
    for (;;) {
      const page = await call(ctx.bus, notifyRecipientList, { limit: PAGE, ...(after ? { after } : {}) }, system);
      for (const r of page.items) await upsertRecipientIfNewer(ctx.db, r);
      count += page.items.length;
      if (page.items.length < PAGE || stopped) return count;
      after = page.items[page.items.length - 1]!.userId;
    }
  };

  const attempt = () => {
    running = once()
      .then((count) => ctx.log.info({ count }, 'recipients resynchronised from the gateway'))
      .catch((err: unknown) => {
        // The gateway not up yet is the usual case at start (services start before it): no stack for that.
        if (err instanceof AppError && err.code === 'UNAVAILABLE') {
          ctx.log.info({ retryMs }, 'waiting for the gateway to resynchronise recipients');
        } else ctx.log.warn({ err }, 'recipient resynchronisation failed; retrying');
        if (!stopped) timer = setTimeout(attempt, retryMs);
      });
  };

  return {
    start() {
      attempt();
    },
    /** Resolves once the current pass ended (tests, and an orderly stop). */
    async settled() {
      await running;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
