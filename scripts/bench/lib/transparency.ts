import { generateKeyPairSync } from 'node:crypto';
import { createNatsBus } from '@rootline/bus';
import { type Database, openDatabase } from '@rootline/db';
import { createLogger, type RunningService, startService } from '@rootline/host';
import { service as transparency } from '@rootline/transparency';
import type { BenchInfra } from './infra.js';
import type { BenchContext } from './types.js';

/**
 * The transparency service in the benchmark process, on the benchmark's private nats-server and database, with
 * a fresh signing key; everything is stopped with the benchmark's scope. `env` adds settings.
 */
export async function startBenchTransparency(
  ctx: BenchContext,
  infra: BenchInfra,
  env: Record<string, string> = {},
): Promise<{ database: Database; running: RunningService }> {
  const database = await openDatabase({ url: infra.db.url, dataDir: '.' });
  ctx.scope.defer(() => database.close());
  const serviceBus = await createNatsBus({ url: infra.nats.url, name: 'transparency' });
  ctx.scope.defer(() => serviceBus.close());
  const key = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const running = await startService(transparency, {
    bus: serviceBus,
    database,
    log: createLogger('bench', 'silent'),
    env: { AUDIT_SIGNING_KEY: key, ...env },
  });
  ctx.scope.defer(() => running.stop());
  return { database, running };
}
