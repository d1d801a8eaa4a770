import {
  createTestDatabase,
  type NatsServerHandle,
  startNatsServer,
  type TestDatabase,
  testAdminUrl,
} from '@rootline/testing';
import { canConnect } from '../../src/cluster-host.js';
import type { BenchContext } from './types.js';

/**
 * What a benchmark runs against: a private nats-server and a fresh PostgreSQL database on the server of
 * TEST_DATABASE_URL, both removed when the benchmark's scope closes, whatever way it ends.
 */
export async function startBenchInfra(ctx: BenchContext): Promise<{ nats: NatsServerHandle; db: TestDatabase }> {
  const admin = new URL(testAdminUrl());
  if (!(await canConnect(admin.hostname, Number(admin.port || 5432)))) {
    throw new Error(`PostgreSQL is unreachable at ${admin.host} (TEST_DATABASE_URL)`);
  }
  ctx.log('starting a private nats-server and a fresh database');
  const nats = await startNatsServer();
  ctx.scope.defer(() => nats.stop());
  const db = await createTestDatabase('rl_bench');
  ctx.scope.defer(() => db.drop());
  return { nats, db };
}
