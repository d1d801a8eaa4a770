/**
 * What other services' tests use to run the gateway in front of them (`@rootline/gateway/testing`, resolved under
 * the `development` condition only): a platform of real NATS, PostgreSQL and the gateway, signed-in sessions and
 * event collectors.
 */
export { startTestPlatform, type TestPlatform } from './platform.js';
export { collectEvents, type EventLog, seedSession } from './support.js';
