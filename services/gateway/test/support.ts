import { type Bus, createNatsBus, type DeliveredEvent, type Endpoint, type ServedService } from '@rootline/bus';
import {
  type BusReply,
  type EventDef,
  emailLinkIssue,
  newId,
  type PayloadOf,
  type ReplyOf,
  type Role,
  type SubjectDef,
} from '@rootline/contracts';
import type { OrgRole } from '@rootline/contracts/organizations';
import { type Database, openDatabase } from '@rootline/db';
import { call, createLogger, type Logger, loadConfig } from '@rootline/host';
import {
  createTestDatabase,
  mintToken,
  type NatsServerHandle,
  startNatsServer,
  TEST_JWT_SECRET,
  type TestDatabase,
} from '@rootline/testing';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildGateway } from '../src/app.js';
import { GatewayConfig } from '../src/config.js';
import { migrateIdentity } from '../src/identity/db/migrate.js';
import { organizationMembers, organizations, sessions, users } from '../src/identity/db/schema.js';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * A private nats-server with two connections (the gateway's, and a peer that stands in for services) and a
 * fresh PostgreSQL database for the gateway's identity schema.
 */
export interface TestBus {
  nats: NatsServerHandle;
  gatewayBus: Bus;
  peer: Bus;
  pg: TestDatabase;
  database: Database;
  /** Authorization header of a real session of account `sub` with the role (created on the spot). */
  bearer(role?: Role, sub?: string): Promise<{ authorization: string }>;
  close(): Promise<void>;
}

export async function startTestBus(): Promise<TestBus> {
  const [nats, pg] = await Promise.all([startNatsServer(), createTestDatabase()]);
  const database = await openDatabase({ url: pg.url, dataDir: '.' });
  const gatewayBus = await createNatsBus({ url: nats.url, name: 'gateway-under-test', log: quiet });
  const peer = await createNatsBus({ url: nats.url, name: 'test-peer', log: quiet });
  return {
    nats,
    gatewayBus,
    peer,
    pg,
    database,
    bearer: async (role = 'USER', sub = 'usr_test') => {
      const { token } = await seedSession(database, role, sub);
      return { authorization: `Bearer ${token}` };
    },
    close: async () => {
      await gatewayBus.close();
      await peer.close();
      await database.close();
      await pg.drop();
      await nats.stop();
    },
  };
}

const migrated = new WeakMap<Database, Promise<void>>();

/**
 * Creates (or updates) account `sub` with the role and starts a live session for it; returns a session
 * token as the gateway issues them. Calling it again for the same `sub` changes its role, which applies to
 * its earlier sessions too (the role is read from the account on every request).
 */
/** The gateway's identity schema migrated in `database`, once. */
function identityReady(database: Database): Promise<void> {
  let ready = migrated.get(database);
  if (!ready) {
    ready = migrateIdentity(database);
    migrated.set(database, ready);
  }
  return ready;
}

export async function seedSession(
  database: Database,
  role: Role = 'USER',
  sub = 'usr_test',
  expiresInSeconds = 3600,
  // The account's display name when this call creates it: what records naming the account carry.
  name = `Test ${role}`,
): Promise<{ token: string; sessionId: string }> {
  await identityReady(database);
  // Tests seed the same account concurrently: an upsert on the id alone would still fail when two inserts race
  // on the unique email (ON CONFLICT handles only its target), so insert-if-absent on any key, then set the role.
  await database.db
    .insert(users)
    .values({ id: sub, email: `${sub.toLowerCase()}@test.rootline.example`, name, role })
    .onConflictDoNothing();
  await database.db.update(users).set({ role }).where(eq(users.id, sub));
  const sessionId = newId('ses', Date.now());
  await database.db.insert(sessions).values({
    id: sessionId,
    userId: sub,
    method: 'password',
    expiresAt: new Date(Date.now() + expiresInSeconds * 1000),
  });
  return { token: mintToken({ role, sub, sid: sessionId, expiresInSeconds }), sessionId };
}

/**
 * An organization with the given members and their roles, written straight to the gateway's tables (each member's
 * account seeded as a USER with a session of its own first, by `seedSession`, if it is not there yet). Answers its id.
 */
export async function seedOrganization(
  database: Database,
  name: string,
  members: Record<string, OrgRole>,
): Promise<string> {
  await identityReady(database);
  const id = newId('org', Date.now());
  const creator = Object.keys(members)[0] ?? 'usr_test';
  for (const userId of Object.keys(members)) {
    await database.db
      .insert(users)
      .values({
        id: userId,
        email: `${userId.toLowerCase()}@test.rootline.example`,
        name: `Test ${userId}`,
        role: 'USER',
      })
      .onConflictDoNothing();
  }
  await database.db.insert(organizations).values({ id, name, kind: 'co-op', privacyLevel: 'city', createdBy: creator });
  for (const [userId, role] of Object.entries(members)) {
    await database.db.insert(organizationMembers).values({ organizationId: id, userId, role });
  }
  return id;
}

/** Settings of a test gateway: a short reply timeout keeps the "service too slow" tests quick. */
export function testConfig(env: Record<string, string> = {}): GatewayConfig {
  return loadConfig(GatewayConfig, {
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    REQUEST_TIMEOUT_MS: '800',
    // Cost 12 (the default, proven in its own test) takes ~230 ms a hash; 4 keeps the suite quick.
    BCRYPT_COST: '4',
    ...env,
  });
}

/** Builds a gateway on the test bus; it is not started, so a test may register more routes first. */
export async function testGateway(
  bus: TestBus,
  env: Record<string, string> = {},
  log: Logger = createLogger('gateway', 'silent'),
): Promise<FastifyInstance> {
  return buildGateway({ bus: bus.gatewayBus, log, config: testConfig(env), database: bus.database });
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

/**
 * What the sender of link emails does with a link request: asks the gateway for the link's secret (the
 * event names only the link). Each call mints a new secret.
 */
export function emailLink(peer: Bus, request: { linkId: string }): Promise<ReplyOf<typeof emailLinkIssue>> {
  return call(peer, emailLinkIssue, { linkId: request.linkId }, { requestId: newId('req', Date.now()) });
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Events of one kind as a test sees them, in arrival order. */
export interface EventLog<E extends EventDef> {
  payloads: PayloadOf<E>[];
  events: DeliveredEvent[];
  /** Resolves with the first payload (already received or arriving within the timeout) that matches. */
  next(match: (p: PayloadOf<E>) => boolean, timeoutMs?: number): Promise<PayloadOf<E>>;
  stop(): Promise<void>;
}

let consumers = 0;

/** Consumes an event from the durable stream with a consumer of the test's own. */
export async function collectEvents<E extends EventDef>(bus: Bus, def: E): Promise<EventLog<E>> {
  const events: DeliveredEvent[] = [];
  const payloads: PayloadOf<E>[] = [];
  consumers += 1;
  const sub = await bus.consume({
    durable: `test-${process.pid}-${consumers}`,
    subject: def.subject,
    handler: async (e) => {
      events.push(e);
      payloads.push(e.payload as PayloadOf<E>);
    },
  });
  return {
    payloads,
    events,
    async next(match, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = payloads.find(match);
        if (found) return found;
        await sleep(20);
      }
      throw new Error(`no ${def.subject} event matched within ${timeoutMs} ms`);
    },
    stop: () => sub.stop(),
  };
}
