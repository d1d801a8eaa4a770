import { createNatsBus } from '@rootline/bus';
import { type Database, openDatabase } from '@rootline/db';
import type { TObject } from '@sinclair/typebox';
import { BaseConfig, ConfigError, loadConfig } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { createMetricsRegistry } from './metrics.js';
import { startMetricsListener } from './metrics-listener.js';
import { type ServiceModule, startService } from './service.js';
import { startTracing } from './tracing.js';

/**
 * A signal this soon after the first is the same request arriving twice, not a second one: Ctrl-C in a terminal
 * reaches the whole process group, and a parent such as pnpm forwards it to its child as well.
 */
const REPEATED_SIGNAL_MS = 1000;

/**
 * How long a closing sequence may take before the process exits anyway (code 1, with a line saying so): a drain
 * that waits on something that never ends must not leave a process that ignores its stop. Shorter than the usual
 * 30 s an orchestrator grants before SIGKILL, so the reason is logged.
 */
export const SHUTDOWN_DEADLINE_MS = 25_000;

/**
 * Runs a closing sequence once on SIGTERM or SIGINT, then exits. A second signal (after the first has had a
 * second to arrive from everywhere it is sent) exits at once, so an operator can always stop a stuck process.
 * Without a logger (a runner that prints its own lines) only a failure is written, to stderr.
 */
export function onShutdown(
  log: Logger | undefined,
  close: () => Promise<void>,
  deadlineMs = SHUTDOWN_DEADLINE_MS,
): void {
  let closingSince: number | undefined;
  const handler = (signal: NodeJS.Signals) => {
    if (closingSince !== undefined) {
      if (performance.now() - closingSince < REPEATED_SIGNAL_MS) return;
      process.exit(1);
    }
    closingSince = performance.now();
    log?.info({ signal }, 'shutting down');
    setTimeout(() => {
      const line = `shutdown did not finish within ${deadlineMs} ms; exiting`;
      if (log) log.error(line);
      else process.stderr.write(`${line}\n`);
      process.exit(1);
    }, deadlineMs).unref();
    close().then(
      () => process.exit(0),
      (err) => {
        if (log) log.error({ err }, 'shutdown failed');
        else process.stderr.write(`shutdown failed: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}

/** Prints a start-up failure as one clear line (no stack for configuration or connection problems). */
export function exitOnStartupError(name: string, err: unknown): never {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`${name} could not start: ${message}\n`);
  if (!(err instanceof ConfigError) && process.env.LOG_LEVEL === 'debug' && err instanceof Error) {
    process.stderr.write(`${err.stack}\n`);
  }
  process.exit(1);
}

/**
 * Cluster mode: runs one service as its own process against NATS_URL and DATABASE_URL, and drains on SIGTERM
 * (in-flight requests are answered before the bus and database close). Serves its metrics and probes on
 * METRICS_PORT, and exports trace spans when an OTLP endpoint is configured.
 */
export async function runStandalone<C extends TObject>(mod: ServiceModule<C>): Promise<void> {
  try {
    const base = loadConfig(BaseConfig);
    const log = createLogger(mod.name, base.LOG_LEVEL);
    const tracing = await startTracing(mod.name);
    let database: Database | undefined;
    if (mod.db) {
      if (!base.DATABASE_URL) {
        throw new ConfigError('DATABASE_URL: required when a service runs as its own process (not set)');
      }
      database = await openDatabase({ url: base.DATABASE_URL, dataDir: base.DATA_DIR });
    }
    const bus = await createNatsBus({ url: base.NATS_URL, name: mod.name, log });
    const metrics = createMetricsRegistry();
    const running = await startService(mod, { bus, log, metrics, ...(database ? { database } : {}) });
    // A port already taken costs the metrics and probes, not the service: it logs why and goes on (an orchestrator
    // sees the probes fail).
    const listener =
      base.METRICS_PORT > 0
        ? await startMetricsListener({
            registry: metrics,
            port: base.METRICS_PORT,
            // Ready while the database answers (a service without one: once started).
            ready: async () => (database ? database.ping().then(() => true) : true),
          }).catch((err: unknown) => {
            log.error({ err, port: base.METRICS_PORT }, 'metrics listener could not start; set METRICS_PORT');
            return undefined;
          })
        : undefined;
    onShutdown(log, async () => {
      await running.stop();
      await listener?.close();
      await bus.close();
      await database?.close();
      await tracing?.shutdown();
    });
  } catch (err) {
    exitOnStartupError(mod.name, err);
  }
}
