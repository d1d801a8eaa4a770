import type { LedgerIntentsTable } from '@rootline/db';
import { type TObject, Type } from '@sinclair/typebox';
import type { SQL } from 'drizzle-orm';
import { BaseConfig } from '../config.js';
import { createLedgerRecorder, type LedgerRecorder, type LedgerRecorderOptions } from './recorder.js';
import type { Recorded } from './write.js';

/**
 * A service's ledger, as its module declares it (`ServiceModule.ledger`): the intents table in its schema and how
 * it stores what a receipt confirms. The host builds the recorder (`ctx.ledger`), adds the
 * `LEDGER_RECOVER_AFTER_SECONDS` setting, starts and stops the recovery sweep, and reports the intent counts in the
 * service's status and metrics.
 */
export interface ServiceLedger<R> {
  /** The service's `ledger_intents` table (`ledgerIntentsTable(schema)`). */
  intents: LedgerIntentsTable;
  /** The statements that store recorded writes (see `LedgerRecorderOptions.store`). */
  store(recorded: readonly Recorded<R>[]): SQL[];
}

/** Declares a service's ledger; the record type `R` is what its handlers record and its `store` writes. */
export function serviceLedger<R>(ledger: ServiceLedger<R>): ServiceLedger<R> {
  return ledger;
}

/** The settings a service with a ledger reads, before its own. */
export const LedgerSettings = {
  LEDGER_RECOVER_AFTER_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 30,
    description:
      'Age at which an unfinished ledger write is finished by the recovery sweep (above the request timeout)',
  }),
};

/** The settings schema of a service: its own (or the base), with the ledger's setting when it declares a ledger. */
export function serviceSettings(mod: { config?: TObject; ledger?: unknown }): TObject {
  const config = mod.config ?? BaseConfig;
  if (!mod.ledger) return config;
  const base = Object.fromEntries(Object.entries(config.properties).filter(([name]) => name in BaseConfig.properties));
  return Type.Object({ ...base, ...LedgerSettings, ...config.properties });
}

/** Default time between two passes of the recovery sweep. */
const SWEEP_MS = 5000;

/**
 * The recorder of a declared ledger; the host builds the service's with the service's dependencies and
 * `LEDGER_RECOVER_AFTER_SECONDS`. The sweep runs every 5 s, or every `recoverAfterMs` if that is shorter.
 */
export function ledgerRecorderOf<R>(
  ledger: ServiceLedger<R>,
  deps: Omit<LedgerRecorderOptions<R>, 'store' | 'intents'>,
): LedgerRecorder<R> {
  return createLedgerRecorder<R>({
    ...deps,
    store: ledger.store,
    intents: ledger.intents,
    sweepMs: deps.sweepMs ?? Math.min(SWEEP_MS, deps.recoverAfterMs ?? SWEEP_MS),
  });
}
