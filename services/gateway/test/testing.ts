/**
 * What other services' tests use to run the gateway in front of them (`@rootline/gateway/testing`, resolved under
 * the `development` condition only): a platform of real NATS, PostgreSQL and the gateway, signed-in sessions, event
 * collectors, events published as their owning service would, and ledger reads through the public chain API; and the
 * gateway's builder and settings, for a test that assembles its own (embedded mode).
 */
export { buildGateway } from '../src/app.js';
export { GatewayConfig } from '../src/config.js';
export { openStoredAnswer } from '../src/plugins/idempotency.js';
export { type GatewayReader, ledgerTransaction, ledgerTransactions } from './ledger.js';
export { publishEvent } from './notify-support.js';
export { actingCaller, startTestPlatform, type TestPlatform } from './platform.js';
export {
  collectEvents,
  type EventLog,
  seedOrganization,
  seedSession,
  serve,
  startTestBus,
  type TestBus,
  testConfig,
  testGateway,
} from './support.js';
