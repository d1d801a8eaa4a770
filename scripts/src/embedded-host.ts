import { type MemoryBroker, openMemoryBroker } from '@rootline/bus';
import { openDatabase, openEventLog } from '@rootline/db';
import { buildGateway, GatewayConfig } from '@rootline/gateway';
import {
  createHostLogger,
  createMetricsRegistry,
  type Logger,
  loadConfig,
  type RunningService,
  serviceLogger,
  startService,
  startTracing,
  type Tracing,
} from '@rootline/host';
import type { FastifyInstance } from 'fastify';
import { localDataDir } from './data-dir.js';
import { localJwtSecret, localStorageSecret } from './secret.js';
import { SERVICES } from './services.js';

export interface EmbeddedOptions {
  env?: NodeJS.ProcessEnv;
  /** Where the JSON log lines go (default stdout). */
  logDestination?: { write(line: string): void };
  /** false: do not start tracing even if an OTLP endpoint is set (a process that starts it itself). */
  tracing?: false;
}

/**
 * CPU time of this process (user and system, all its threads), in milliseconds, spent in each phase marked: read at
 * `LOG_LEVEL=debug` to see where a start's time goes on a machine whose wall clock other work distorts.
 */
export function cpuPhases() {
  let last = process.cpuUsage();
  const phases: Record<string, number> = {};
  return {
    phases,
    mark(name: string) {
      const { user, system } = process.cpuUsage(last);
      phases[name] = Math.round((user + system) / 1000);
      last = process.cpuUsage();
    },
  };
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
  const cpu = cpuPhases();
  const baseEnv = opts.env ?? process.env;
  const dataDir = localDataDir(baseEnv);
  // Embedded mode always uses PGlite: a DATABASE_URL meant for the cluster must not leak in.
  const { DATABASE_URL: _ignored, ...rest } = baseEnv;
  const env: NodeJS.ProcessEnv = {
    ...rest,
    DATA_DIR: dataDir,
    JWT_SECRET: localJwtSecret(dataDir, baseEnv),
    // Uploads on local storage under DATA_DIR: the gateway serves the URLs media signs with this key.
    STORAGE_SIGNING_SECRET: localStorageSecret(dataDir, baseEnv),
  };
  const config = loadConfig(GatewayConfig, env);
  // One logger for the process; each service's lines name it once (`service`), the bus's say `component`.
  const host = createHostLogger(config.LOG_LEVEL, opts.logDestination);
  const log = serviceLogger(host, 'rootline');

  // One registry for the process: the gateway serves every service's metrics at /api/metrics.
  const metrics = createMetricsRegistry();
  // Spans are exported only when an OTLP endpoint is set; one tracer provider per process.
  const tracing: Tracing | undefined = opts.tracing === false ? undefined : await startTracing('rootline', env);
  cpu.mark('config');
  const database = await openDatabase({
    dataDir,
    pgliteCompiler: config.PGLITE_COMPILER,
    // A new database gets the services' schemas where it is created, in a process of its own (memory, ADR 199).
    migrations: SERVICES.flatMap((mod) =>
      mod.db ? [{ schema: mod.db.schema, migrationsFolder: mod.db.migrationsFolder }] : [],
    ),
  });
  cpu.mark('database');
  // The event log is kept in the same database, so events published and not yet consumed survive a restart.
  const busLog = host.child({ component: 'bus' });
  const eventLog = await openEventLog({ database, log: busLog });
  const broker = await openMemoryBroker({ store: eventLog, log: busLog });
  cpu.mark('bus');
  const running: RunningService[] = [];
  try {
    for (const mod of SERVICES) {
      running.push(
        await startService(mod, {
          bus: broker.connect(mod.name),
          database,
          log: serviceLogger(host, mod.name),
          env,
          metrics,
        }),
      );
    }
  } catch (err) {
    await Promise.all(running.map((r) => r.stop()));
    eventLog.stop();
    await database.close();
    await tracing?.shutdown();
    throw err;
  }
  cpu.mark('services');
  const gatewayBus = broker.connect('gateway');
  let app: FastifyInstance | undefined;
  let address: string;
  try {
    // The gateway keeps identity in its own schema of the same PGlite database.
    app = await buildGateway({ bus: gatewayBus, log: serviceLogger(host, 'gateway'), config, database, metrics });
    cpu.mark('gateway');
    address = await app.listen({ port: config.PORT, host: config.HOST });
    cpu.mark('listen');
  } catch (err) {
    await app?.close().catch(() => {});
    await gatewayBus.close();
    for (const r of [...running].reverse()) await r.stop();
    eventLog.stop();
    await database.close();
    await tracing?.shutdown();
    throw err;
  }
  const gateway = app;
  log.debug({ cpuMs: cpu.phases }, 'started: CPU time by phase');
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
      eventLog.stop();
      await database.close();
      await tracing?.shutdown();
    },
  };
}
