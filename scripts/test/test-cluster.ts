import {
  createTestDatabase,
  freePort,
  type NatsServerHandle,
  signInOverHttp,
  startNatsServer,
  TEST_ADMIN,
  TEST_ADMIN_ENV,
  TEST_JWT_SECRET,
  type TestDatabase,
} from '@rootline/testing';
import { type ClusterHandle, startCluster } from '../src/cluster-host.js';

/** A cluster-mode deployment for a test file: its own nats-server and database, every service a process. */
export interface TestCluster {
  nats: NatsServerHandle;
  db: TestDatabase;
  cluster: ClusterHandle;
  /** The first ADMIN's session (TEST_ADMIN, created from the settings at start-up). */
  token: string;
  stop(): Promise<void>;
}

/**
 * Starts a private nats-server, a fresh database and the cluster on a free port, then signs the first ADMIN in.
 * Logs are quiet and rate limits off (these tests send as fast as answers come); `env` adds or overrides settings.
 */
export async function startTestCluster(
  o: { env?: Record<string, string>; miners?: number; readyTimeoutMs?: number } = {},
): Promise<TestCluster> {
  const nats = await startNatsServer();
  const db = await createTestDatabase();
  const cluster = await startCluster({
    natsUrl: nats.url,
    databaseUrl: db.url,
    port: await freePort(),
    jwtSecret: TEST_JWT_SECRET,
    ...(o.miners ? { miners: o.miners } : {}),
    ...(o.readyTimeoutMs ? { readyTimeoutMs: o.readyTimeoutMs } : {}),
    env: {
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
      RATE_LIMIT_SESSION_PER_MINUTE: '1000000',
      RATE_LIMIT_PER_HOUR_PER_USER: '1000000',
      ...TEST_ADMIN_ENV,
      ...o.env,
    },
    output: process.env.CLUSTER_OUTPUT === 'inherit' ? 'inherit' : 'ignore',
  });
  const token = await signInOverHttp(cluster.url, TEST_ADMIN.email, TEST_ADMIN.password);
  return {
    nats,
    db,
    cluster,
    token,
    async stop() {
      await cluster.stop();
      await db.drop();
      await nats.stop();
    },
  };
}
