import { type Bus, createNatsBus } from '@rootline/bus';
import { service as chainMiner } from '@rootline/chain-miner';
import type { Role } from '@rootline/contracts';
import { type Database, openDatabase } from '@rootline/db';
import { buildGateway, GatewayConfig } from '@rootline/gateway';
import { seedSession } from '@rootline/gateway/testing';
import {
  type Clock,
  createLogger,
  loadConfig,
  type RunningService,
  type ServiceModule,
  startService,
} from '@rootline/host';
import { service as plants } from '@rootline/plants';
import { type Storage, storageFromConfig } from '@rootline/storage';
import { startTestInfra, TEST_JWT_SECRET } from '@rootline/testing';
import type { TObject } from '@sinclair/typebox';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { MediaConfig } from '../src/config.js';
import { service as media } from '../src/service.js';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** A clock the test moves forward (the media replicas' time: expiry and purge). */
export interface TestClock extends Clock {
  advance(ms: number): void;
}

export function testClock(): TestClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
  };
}

export interface MediaPlatform {
  database: Database;
  app: FastifyInstance;
  /** The storage as media sees it, to look at what is stored. */
  storage: Storage;
  clock: TestClock;
  /** A bus connection of the test's own, to consume events. */
  bus: Bus;
  token(role: Role, sub?: string, name?: string): Promise<string>;
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  /** Every stored key and the number of file rows: what a refused upload must leave unchanged. */
  stored(): Promise<{ keys: string[]; rows: number }>;
  stop(): Promise<void>;
}

/**
 * The gateway, two media replicas (sharing the database, the bus and `clock`), plants and the chain-miner on a
 * private NATS and a fresh PostgreSQL database. `env` reaches all of them (storage settings first of all); `more`
 * services start too (those that own the records files are attached to: demand's listings, farm's farms).
 */
export async function startMediaPlatform(
  env: Record<string, string>,
  more: ServiceModule<TObject>[] = [],
): Promise<MediaPlatform> {
  const infra = await startTestInfra();
  const database = await openDatabase({ url: infra.pg.url, dataDir: '.' });
  const log = createLogger('test', 'silent');
  const clock = testClock();
  const buses: Bus[] = [];
  const running: RunningService[] = [];
  const allEnv = { CHAIN_DIFFICULTY: '8', MEDIA_JOB_POLL_MS: '100', ...env };
  const start = async (mod: ServiceModule<TObject>, withClock?: Clock) => {
    const bus = await createNatsBus({ url: infra.nats.url, name: mod.name, log: quiet });
    buses.push(bus);
    running.push(
      await startService(mod, { bus, database, log, env: { ...allEnv }, ...(withClock ? { clock: withClock } : {}) }),
    );
  };
  await start(chainMiner as unknown as ServiceModule<TObject>);
  await start(plants as unknown as ServiceModule<TObject>);
  for (const mod of more) await start(mod);
  await start(media as unknown as ServiceModule<TObject>, clock);
  await start(media as unknown as ServiceModule<TObject>, clock);
  const gatewayBus = await createNatsBus({ url: infra.nats.url, name: 'gateway', log: quiet });
  buses.push(gatewayBus);
  const config = loadConfig(GatewayConfig, {
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '100000',
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
    RATE_LIMIT_SESSION_PER_MINUTE: '100000',
    RATE_LIMIT_PER_HOUR_PER_USER: '100000',
    BCRYPT_COST: '4',
    ...allEnv,
  });
  const bus = await createNatsBus({ url: infra.nats.url, name: 'test', log: quiet });
  buses.push(bus);
  const app = await buildGateway({ bus: gatewayBus, log, config, database });
  await app.ready();
  const storage = storageFromConfig(loadConfig(MediaConfig, allEnv), () => clock.now().getTime());

  return {
    database,
    app,
    storage,
    clock,
    bus,
    token: async (role, sub = 'usr_test', name?: string) =>
      (await seedSession(database, role, sub, undefined, name)).token,
    inject: (opts) => app.inject(opts),
    async stored() {
      const rows = (await database.db.execute('select count(*)::int as n from media.files')) as unknown as {
        n: number;
      }[];
      return { keys: await storage.list(''), rows: rows[0]?.n ?? 0 };
    },
    async stop() {
      await app.close();
      for (const s of running.reverse()) await s.stop();
      for (const b of buses) await b.close();
      await storage.close();
      await database.close();
      await infra.stop();
    },
  };
}
