// One gateway replica for the WebSocket fan-out benchmark: NATS_URL, DATABASE_URL, PORT and JWT_SECRET from the
// environment; answers "ready" over IPC once it listens.
import { createNatsBus } from '@rootline/bus';
import { openDatabase } from '@rootline/db';
import { buildGateway, GatewayConfig } from '@rootline/gateway';
import { createLogger, loadConfig } from '@rootline/host';

const config = loadConfig(GatewayConfig, process.env);
const log = createLogger('gateway', config.LOG_LEVEL);
const bus = await createNatsBus({ url: config.NATS_URL, name: `gateway-${config.PORT}` });
const database = await openDatabase({ url: config.DATABASE_URL!, dataDir: config.DATA_DIR });
const app = await buildGateway({ bus, log, config, database });
await app.listen({ port: config.PORT, host: '127.0.0.1' });
process.send?.('ready');
process.once('SIGTERM', async () => {
  await app.close();
  await bus.close();
  await database.close();
  process.exit(0);
});
