import { type Bus, createNatsBus } from '@rootline/bus';
import type { Role } from '@rootline/contracts';
import { type Database, openDatabase } from '@rootline/db';
import {
  type Clock,
  createLogger,
  loadConfig,
  type RunningService,
  type ServiceModule,
  startService,
} from '@rootline/host';
import { type ApiResponse, startTestInfra, TEST_JWT_SECRET, type TestInfra } from '@rootline/testing';
import type { TObject } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { buildGateway } from '../src/app.js';
import { GatewayConfig } from '../src/config.js';
import { seedSession } from './support.js';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** The real platform for HTTP tests: private NATS, a fresh PostgreSQL database, the named services, the gateway. */
export interface TestPlatform {
  infra: TestInfra;
  database: Database;
  app: FastifyInstance;
  /** A bus connection of the test's own, to consume events or call subjects directly. */
  bus: Bus;
  services: Map<string, RunningService>;
  /**
   * A session token of account `sub` (default `usr_test`) with the role, for a live session; `name` is the account's
   * display name when this creates it (default `Test <role>`).
   */
  token(role: Role, sub?: string, name?: string): Promise<string>;
  /**
   * Calls the gateway through inject() and parses the envelope. With `role`, the call carries a session
   * token of account `sub` (default `usr_test`) with that role.
   */
  http(
    method: string,
    url: string,
    opts?: { role?: Role; sub?: string; token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
  stop(): Promise<void>;
}

/**
 * Starts the given services (each with its own bus connection, as separate processes would have) and a gateway
 * on real NATS and PostgreSQL. `env` reaches services and gateway (e.g. CHAIN_DIFFICULTY: '8' for speed).
 */
export async function startTestPlatform(
  modules: ServiceModule<TObject>[],
  env: Record<string, string> = {},
  /**
   * `metrics`: one registry for services and gateway, as embedded mode has (served at /api/metrics). `infra`: NATS
   * and a database of the test's own (e.g. on a private PostgreSQL server), stopped with the platform. `clock`: the
   * services' clock (e.g. one a test moves past a due date); the system's by default.
   */
  opts: { metrics?: Registry; infra?: TestInfra; clock?: Clock } = {},
): Promise<TestPlatform> {
  const infra = opts.infra ?? (await startTestInfra());
  const database = await openDatabase({ url: infra.pg.url, dataDir: '.' });
  const log = createLogger('test', env.LOG_LEVEL ?? 'silent');
  const buses: Bus[] = [];
  const services = new Map<string, RunningService>();
  for (const mod of modules) {
    const bus = await createNatsBus({ url: infra.nats.url, name: mod.name, log: quiet });
    buses.push(bus);
    services.set(
      mod.name,
      await startService(mod, {
        bus,
        database,
        log,
        env: { ...env },
        ...(opts.metrics ? { metrics: opts.metrics } : {}),
        ...(opts.clock ? { clock: opts.clock } : {}),
      }),
    );
  }
  const gatewayBus = await createNatsBus({ url: infra.nats.url, name: 'gateway', log: quiet });
  const bus = await createNatsBus({ url: infra.nats.url, name: 'test', log: quiet });
  buses.push(gatewayBus, bus);
  const config = loadConfig(GatewayConfig, {
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '100000',
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
    RATE_LIMIT_SESSION_PER_MINUTE: '100000',
    RATE_LIMIT_PER_HOUR_PER_USER: '100000',
    BCRYPT_COST: '4',
    ...env,
  });
  const app = await buildGateway({
    bus: gatewayBus,
    log,
    config,
    database,
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
  });
  await app.ready();

  return {
    infra,
    database,
    app,
    bus,
    services,
    token: async (role, sub = 'usr_test', name?: string) => (await seedSession(database, role, sub, 3600, name)).token,
    async http(method, url, opts = {}) {
      const token =
        opts.token ?? (opts.role ? (await seedSession(database, opts.role, opts.sub ?? 'usr_test')).token : undefined);
      const res = await app.inject({
        method: method as 'GET',
        url,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...opts.headers },
        ...(opts.body === undefined ? {} : { payload: opts.body as object }),
      });
      let body: unknown = res.body;
      try {
        body = res.json();
      } catch {
        // Not JSON: leave the text.
      }
      return { status: res.statusCode, body, headers: new Headers(res.headers as Record<string, string>) };
    },
    async stop() {
      await app.close();
      for (const s of [...services.values()].reverse()) await s.stop();
      for (const b of buses) await b.close();
      await database.close();
      await infra.stop();
    },
  };
}

/**
 * The call of tests on an organization's records: one of `tokens`' accounts calls the gateway acting for the
 * organization `organizationId()` names, or for itself when `alone`. Platform and id are read at each call, since
 * tests set them in `beforeAll`.
 */
export function actingCaller(
  platform: () => TestPlatform,
  tokens: Record<string, string>,
  organizationId: () => string,
) {
  return (sub: string, method: string, url: string, body?: unknown, alone = false) =>
    platform().http(method, url, {
      token: tokens[sub] as string,
      ...(body === undefined ? {} : { body }),
      ...(alone ? {} : { headers: { 'rootline-act-as': organizationId() } }),
    });
}
