import { createNatsBus } from '@rootline/bus';
import { openDatabase } from '@rootline/db';
import { createLogger, exitOnStartupError, loadConfig, onShutdown, startTracing } from '@rootline/host';
import { buildGateway } from './app.js';
import { assertClusterSettings, GatewayConfig } from './config.js';

// Start-up only: read settings, connect to the bus and the database, build the gateway (its start-up applies
// the identity migrations), listen; drain on SIGTERM.
try {
  const config = loadConfig(GatewayConfig);
  const log = createLogger('gateway', config.LOG_LEVEL);
  // Spans are exported only when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT).
  const tracing = await startTracing('gateway');
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL is required: the gateway keeps accounts and sessions');
  assertClusterSettings(config);
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, log });
  const bus = await createNatsBus({ url: config.NATS_URL, name: 'gateway', log });
  const app = await buildGateway({ bus, log, config, database });
  await app.listen({ port: config.PORT, host: config.HOST });
  onShutdown(log, async () => {
    await app.close();
    await bus.close();
    await database.close();
    await tracing?.shutdown();
  });
} catch (err) {
  exitOnStartupError('gateway', err);
}
