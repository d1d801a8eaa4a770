import { type Bus, createNatsBus } from '@rootline/bus';
import { service as chainMiner } from '@rootline/chain-miner';
import { type Database, openDatabase } from '@rootline/db';
// The gateway's own test platform: the real gateway, services and sessions on private NATS and PostgreSQL.
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { createLogger, type RunningService, type ServiceModule, startService } from '@rootline/host';
import { startTestInfra, type TestInfra } from '@rootline/testing';
import type { TObject } from '@sinclair/typebox';
import { service } from '../src/service.js';

export type { TestPlatform };

/** The plants service and the ledger it records on behind a real gateway (difficulty 8: a block in milliseconds). */
export function startPlantsPlatform(env: Record<string, string> = {}): Promise<TestPlatform> {
  return startTestPlatform([chainMiner, service], { CHAIN_DIFFICULTY: '8', ...env });
}

/** What `startPlantsWithLedger` started. */
export interface PlantsWithLedger {
  infra: TestInfra;
  database: Database;
  /** A bus connection of the test's own, to call the services and consume their events. */
  client: Bus;
  /** The chain-miner, for a test that takes the ledger down; `stop()` stops it again, which it allows. */
  miner: RunningService;
  /** Stops everything, newest first; a second call does nothing. */
  stop(): Promise<void>;
}

/**
 * The plants service and the chain-miner it records on, each with a bus connection of its own as separate processes
 * would have, on a private nats-server and a fresh PostgreSQL database. Difficulty 8, so a block is mined in
 * milliseconds. When a step fails, what was started is stopped before the error is thrown.
 */
export async function startPlantsWithLedger(): Promise<PlantsWithLedger> {
  const infra = await startTestInfra();
  const undo: (() => Promise<void>)[] = [() => infra.stop()];
  const stop = async () => {
    for (const fn of undo.splice(0).reverse()) await fn();
  };
  try {
    const log = createLogger('test', 'silent');
    const env = { CHAIN_DIFFICULTY: '8' };
    const database = await openDatabase({ url: infra.pg.url, dataDir: '.' });
    undo.push(() => database.close());
    // Each bus connection is named after its service, as the service's own process names it.
    const start = async (mod: ServiceModule<TObject>) => {
      const bus = await createNatsBus({ url: infra.nats.url, name: mod.name });
      undo.push(() => bus.close());
      const running = await startService(mod, { bus, database, log, env });
      // The host stops the service; closing its bus is the caller's part (done after, in reverse order).
      undo.push(() => running.stop());
      return running;
    };
    const miner = await start(chainMiner);
    await start(service);
    const client = await createNatsBus({ url: infra.nats.url, name: 'test-client' });
    undo.push(() => client.close());
    return { infra, database, client, miner, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
