import type { TxReceipt } from '@rootline/contracts';
import type { Logger } from '../logger.js';
import { type LedgerIntentStore, writeOfIntent } from './intents.js';
import type { LedgerWrite } from './write.js';

/** Options of `createRecoverySweep`. */
export interface RecoverySweepOptions<R> {
  intents: LedgerIntentStore;
  log: Logger;
  /** An intent this old is finished by the sweep. */
  recoverAfterMs: number;
  /** How often the sweep runs once started. */
  sweepMs: number;
  /** Most intents claimed by one pass. */
  maxBatch: number;
  /** Records a write taken from its intent row again (the row exists already). */
  rerecord: (write: LedgerWrite<R>) => Promise<TxReceipt>;
}

/**
 * The recovery sweep of a ledger recorder: finishes writes whose intents were left behind (the process died
 * between mining and storing, the ledger did not answer, or the store failed) by recording them again with the
 * same transaction id, which the ledger answers with the first receipt.
 */
export function createRecoverySweep<R>(o: RecoverySweepOptions<R>) {
  const { intents, log } = o;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<number> | undefined;

  /**
   * One pass: claims open intents older than `recoverAfterMs` and records each again. Resolves to the number
   * finished.
   */
  async function sweepOnce(): Promise<number> {
    const claimed = await intents.claimStale(o.recoverAfterMs, o.maxBatch);
    if (claimed.length === 0) return 0;
    log.info({ writes: claimed.length }, 'recovering unfinished ledger writes');
    const settled = await Promise.allSettled(claimed.map((row) => o.rerecord(writeOfIntent<R>(row))));
    const finished = settled.filter((s) => s.status === 'fulfilled').length;
    if (finished < claimed.length) {
      log.warn({ finished, left: claimed.length - finished }, 'some ledger writes are still unfinished');
    }
    return finished;
  }

  function recover(): Promise<number> {
    sweeping ??= sweepOnce()
      .catch((err: unknown) => {
        log.warn({ err }, 'ledger recovery sweep failed');
        return 0;
      })
      .finally(() => {
        sweeping = undefined;
      });
    return sweeping;
  }

  return {
    /** Runs the sweep once now (at most one at a time); resolves to the number of writes finished. */
    recover,
    /** Starts the sweep: once now, then every `sweepMs`. */
    start(): void {
      if (timer) return;
      void recover();
      timer = setInterval(() => void recover(), o.sweepMs);
      timer.unref();
    },
    /** Stops the sweep and waits for a pass in flight. */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await sweeping;
    },
  };
}
