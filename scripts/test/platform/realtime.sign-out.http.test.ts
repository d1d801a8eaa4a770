import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Bus, createNatsBus } from '@rootline/bus';
import {
  buildGateway,
  GatewayConfig,
  seedSession,
  startTestPlatform,
  type TestPlatform,
} from '@rootline/gateway/testing';
import { createLogger, loadConfig } from '@rootline/host';
import { TEST_JWT_SECRET } from '@rootline/testing';
import { service as transparency } from '@rootline/transparency';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSocket } from './ws-client.js';

// Two gateway replicas (each its own NATS connection, one database) on real NATS and PostgreSQL, real `ws` clients:
// a session ended on replica A closes its sockets on replica B.
const env = { WS_HEARTBEAT_SECONDS: '30', SSE_POLL_MS: '200' };
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

let p: TestPlatform;
let secondBus: Bus;
let b: FastifyInstance;
let dataDir: string;
let urlA: string;
let urlB: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'realtime-signout-'));
  p = await startTestPlatform([transparency], { ...env, DATA_DIR: dataDir });
  secondBus = await createNatsBus({ url: p.infra.nats.url, name: 'gateway-b', log: quiet });
  const config = loadConfig(GatewayConfig, { JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent', ...env });
  b = await buildGateway({ bus: secondBus, log: createLogger('b', 'silent'), config, database: p.database });
  await Promise.all([p.app.listen({ port: 0, host: '127.0.0.1' }), b.listen({ port: 0, host: '127.0.0.1' })]);
  urlA = `ws://127.0.0.1:${(p.app.server.address() as AddressInfo).port}/api/realtime/ws`;
  urlB = `ws://127.0.0.1:${(b.server.address() as AddressInfo).port}/api/realtime/ws`;
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await b?.close();
  await secondBus?.close();
  await p?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** A socket that remembers the close code and reason it got. */
async function open(url: string, token?: string) {
  const s = await TestSocket.open(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  sockets.push(s);
  const closed: { code?: number; reason?: string } = {};
  s.ws.on('close', (code, reason) => {
    closed.code = code;
    closed.reason = reason.toString();
  });
  return Object.assign(s, { closedWith: closed });
}

const open$ = (s: TestSocket) => s.request({ type: 'ping' }).then((f) => f.type === 'pong');

describe('sockets follow the session that opened them', () => {
  it('closes the sockets of a session signed out on another replica, with 4001, and no others', async () => {
    const { token } = await seedSession(p.database, 'USER', 'usr_rtsignout');
    const other = (await seedSession(p.database, 'USER', 'usr_rtsignout')).token;
    const onB = await open(urlB, token);
    const onA = await open(urlA, token);
    const otherSession = await open(urlB, other);

    const out = await p.http('POST', '/api/auth/signout', { token });
    expect(out.status).toBe(200);

    await expect.poll(() => onB.closed, { timeout: 10_000 }).toBe(true);
    await expect.poll(() => onA.closed, { timeout: 10_000 }).toBe(true);
    expect(onB.closedWith).toEqual({ code: 4001, reason: 'session ended' });
    expect(onA.closedWith.code).toBe(4001);
    // The same account's other session keeps its socket, and the ended token opens no new one.
    expect(await open$(otherSession)).toBe(true);
    expect(otherSession.closed).toBe(false);
    await expect(TestSocket.open(urlB, { headers: { authorization: `Bearer ${token}` } })).rejects.toMatchObject({
      status: 401,
    });
  });

  it('closes a socket opened with a ticket when the session that asked for it ends', async () => {
    const { token } = await seedSession(p.database, 'USER', 'usr_rtsoticket');
    const connect = async () =>
      (await p.http('POST', '/api/realtime/connect', { token })).body.data as { ticket: string };
    const s = await open(`${urlB}?ticket=${encodeURIComponent((await connect()).ticket)}`);
    const unused = (await connect()).ticket;

    expect((await p.http('POST', '/api/auth/signout', { token })).status).toBe(200);
    await expect.poll(() => s.closed, { timeout: 10_000 }).toBe(true);
    expect(s.closedWith.code).toBe(4001);
    // A ticket asked for before the sign-out no longer opens a socket.
    const refused = await TestSocket.open(`${urlB}?ticket=${encodeURIComponent(unused)}`).then(
      () => null,
      (err: { status?: number; body?: string }) => err,
    );
    expect(refused?.status).toBe(401);
    expect(refused?.body).toContain('session of the ticket has ended');
  });

  it('closes every socket of an account whose role an ADMIN changes, on every replica', async () => {
    const admin = (await seedSession(p.database, 'ADMIN', 'usr_rtsoadmin')).token;
    const first = (await seedSession(p.database, 'USER', 'usr_rtsorole01')).token;
    const second = (await seedSession(p.database, 'USER', 'usr_rtsorole01')).token;
    const bystander = await open(urlB, (await seedSession(p.database, 'USER', 'usr_rtsobystand')).token);
    const a = await open(urlA, first);
    const bSocket = await open(urlB, second);

    const changed = await p.http('PUT', '/api/admin/users/usr_rtsorole01/role', {
      token: admin,
      body: { role: 'GROWER' },
    });
    expect(changed.status).toBe(200);
    await expect.poll(() => a.closed && bSocket.closed, { timeout: 10_000 }).toBe(true);
    expect(a.closedWith).toEqual({ code: 4001, reason: 'sessions of the account ended' });
    expect(bSocket.closedWith.code).toBe(4001);
    expect(await open$(bystander)).toBe(true);
  });
});
