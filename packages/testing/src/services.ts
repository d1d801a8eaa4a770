import { type NatsServerHandle, startNatsServer } from './nats-server.js';
import { createTestDatabase, type TestDatabase } from './postgres.js';

/** A private NATS server and a fresh PostgreSQL database for one test file. */
export interface TestInfra {
  nats: NatsServerHandle;
  pg: TestDatabase;
  stop(): Promise<void>;
}

/** Starts the real infrastructure an integration test needs; `stop()` removes both. */
export async function startTestInfra(): Promise<TestInfra> {
  const [nats, pg] = await Promise.all([startNatsServer(), createTestDatabase()]);
  return {
    nats,
    pg,
    stop: async () => {
      await pg.drop();
      await nats.stop();
    },
  };
}
