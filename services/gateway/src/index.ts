import { createNatsBus } from '@rootline/bus';
import { createLogger, exitOnStartupError, loadConfig, onShutdown } from '@rootline/host';
import { buildGateway } from './app.js';
import { GatewayConfig } from './config.js';

// Start-up only: read settings, connect to the bus, build the gateway, listen; drain on SIGTERM.
try {
  const config = loadConfig(GatewayConfig);
  const log = createLogger('gateway', config.LOG_LEVEL);
  const bus = await createNatsBus({ url: config.NATS_URL, name: 'gateway' });
  const app = await buildGateway({ bus, log, config });
  await app.listen({ port: config.PORT, host: config.HOST });
  onShutdown(log, async () => {
    await app.close();
    await bus.close();
  });
} catch (err) {
  exitOnStartupError('gateway', err);
}
