import { createMemoryBroker, type MemoryBroker } from '@rootline/bus';
import { openDatabase } from '@rootline/db';
import { buildGateway, GatewayConfig } from '@rootline/gateway';
import { createLogger, type Logger, loadConfig, type RunningService, startService } from '@rootline/host';
import type { FastifyInstance } from 'fastify';
import { localDataDir } from './data-dir.js';
import { localJwtSecret } from './secret.js';
import { SERVICES } from './services.js';

export interface EmbeddedOptions {
  env?: NodeJS.ProcessEnv;
}

export interface EmbeddedHandle {
  url: string;
  app: FastifyInstance;
  /** The in-process broker, for tools and tests that join the bus. */
  broker: MemoryBroker;
  log: Logger;
  stop(): Promise<void>;
}

/**
 * Embedded mode: the gateway and every service in this one process, on the in-process bus and one PGlite
 * database under DATA_DIR (each service in its own schema). The services' code is the same as in cluster mode.
 */
export async function startEmbedded(opts: EmbeddedOptions = {}): Promise<EmbeddedHandle> {
  const baseEnv = opts.env ?? process.env;
  const dataDir = localDataDir(baseEnv);
  // Embedded mode always uses PGlite: a DATABASE_URL meant for the cluster must not leak in.
  const { DATABASE_URL: _ignored, ...rest } = baseEnv;
  const env: NodeJS.ProcessEnv = { ...rest, DATA_DIR: dataDir, JWT_SECRET: localJwtSecret(dataDir, baseEnv) };
  const config = loadConfig(GatewayConfig, env);
  const log = createLogger('rootline', config.LOG_LEVEL);

  const database = await openDatabase({ dataDir });
  const broker = createMemoryBroker();
  const running: RunningService[] = [];
  try {
    for (const mod of SERVICES) {
      running.push(
        await startService(mod, {
          bus: broker.connect(mod.name),
          database,
          log: log.child({ service: mod.name }),
          env,
        }),
      );
    }
  } catch (err) {
    await Promise.all(running.map((r) => r.stop()));
    await database.close();
    throw err;
  }
  const gatewayBus = broker.connect('gateway');
  let app: FastifyInstance | undefined;
  let address: string;
  try {
    // The gateway keeps identity in its own schema of the same PGlite database.
    app = await buildGateway({ bus: gatewayBus, log: log.child({ service: 'gateway' }), config, database });
    address = await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    await app?.close().catch(() => {});
    await gatewayBus.close();
    for (const r of [...running].reverse()) await r.stop();
    await database.close();
    throw err;
  }
  const gateway = app;
  const url = address.replace('[::]', 'localhost').replace('0.0.0.0', 'localhost');

  return {
    url,
    app: gateway,
    broker,
    log,
    stop: async () => {
      await gateway.close();
      await gatewayBus.close();
      for (const r of [...running].reverse()) await r.stop();
      await database.close();
    },
  };
}
