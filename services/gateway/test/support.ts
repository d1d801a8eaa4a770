import { type Bus, createNatsBus, type Endpoint, type ServedService } from '@rootline/bus';
import type { BusReply, Role, SubjectDef } from '@rootline/contracts';
import { createLogger, type Logger, loadConfig } from '@rootline/host';
import { mintToken, type NatsServerHandle, startNatsServer, TEST_JWT_SECRET } from '@rootline/testing';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildGateway } from '../src/app.js';
import { GatewayConfig } from '../src/config.js';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** A private nats-server with two connections: the gateway's, and a peer that stands in for services. */
export interface TestBus {
  nats: NatsServerHandle;
  gatewayBus: Bus;
  peer: Bus;
  close(): Promise<void>;
}

export async function startTestBus(): Promise<TestBus> {
  const nats = await startNatsServer();
  const gatewayBus = await createNatsBus({ url: nats.url, name: 'gateway-under-test', log: quiet });
  const peer = await createNatsBus({ url: nats.url, name: 'test-peer', log: quiet });
  return {
    nats,
    gatewayBus,
    peer,
    close: async () => {
      await gatewayBus.close();
      await peer.close();
      await nats.stop();
    },
  };
}

/** Settings of a test gateway: a short reply timeout keeps the "service too slow" tests quick. */
export function testConfig(env: Record<string, string> = {}): GatewayConfig {
  return loadConfig(GatewayConfig, {
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    REQUEST_TIMEOUT_MS: '800',
    ...env,
  });
}

/** Builds a gateway on the test bus; it is not started, so a test may register more routes first. */
export async function testGateway(
  bus: TestBus,
  env: Record<string, string> = {},
  log: Logger = createLogger('gateway', 'silent'),
): Promise<FastifyInstance> {
  return buildGateway({ bus: bus.gatewayBus, log, config: testConfig(env) });
}

/** Serves one subject on the peer connection as the named service (an honest bus peer). */
export function serve(
  peer: Bus,
  service: string,
  def: SubjectDef,
  handler: (payload: unknown, headers: Record<string, string>) => Promise<BusReply<unknown>>,
): Promise<ServedService> {
  return serveMany(peer, service, [{ subject: def.subject, handler }]);
}

export async function serveMany(peer: Bus, service: string, endpoints: Endpoint[]): Promise<ServedService> {
  const served = await peer.serve({ name: service, version: '0.0.0-test' }, endpoints);
  return served;
}

/** Authorization header with a valid token for the role. */
export function bearer(role: Role = 'USER', sub = 'usr_test'): { authorization: string } {
  return { authorization: `Bearer ${mintToken({ role, sub })}` };
}

export interface LogEntry {
  level: string;
  args: unknown[];
}

/**
 * A logger that records what the gateway logs, for asserting that a detail reaches the log and not the
 * client. It implements the logging surface Fastify uses; child loggers share the record.
 */
export function captureLogger(): { log: Logger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) => {
      entries.push({ level, args });
    };
  const logger: FastifyBaseLogger = {
    level: 'trace',
    fatal: at('fatal'),
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    silent: () => {},
    child: () => logger,
  };
  // Only Fastify's logging surface is used by the gateway, which this object provides in full.
  return { log: logger as unknown as Logger, entries };
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
