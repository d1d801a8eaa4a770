import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Bus, createNatsBus } from '@rootline/bus';
import { farmGet, plantGet, plantRegistered, realtimePublished } from '@rootline/contracts';
import {
  buildGateway,
  GatewayConfig,
  publishEvent,
  serve,
  startTestPlatform,
  type TestPlatform,
} from '@rootline/gateway/testing';
import { createLogger, loadConfig } from '@rootline/host';
import { service as notify } from '@rootline/notify';
import { TEST_JWT_SECRET } from '@rootline/testing';
import { service as transparency } from '@rootline/transparency';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientOptions } from 'ws';
import { TestSocket } from './ws-client.js';

// Two gateway replicas (each its own NATS connection, one database), the transparency service (public events) and
// notify (in-app notifications), all on real NATS and PostgreSQL; plants and farm answer as honest bus peers.
const env = {
  WS_HEARTBEAT_SECONDS: '1',
  WS_MAX_BUFFERED_BYTES: '65536',
  SSE_POLL_MS: '200',
  NOTIFY_POLL_MS: '50',
};
const PLANT = 'plt_0123456789rt';
const OTHER_PLANT = 'plt_9876543210rt';
const FARM = 'frm_rtfarm0001';
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

let p: TestPlatform;
let secondBus: Bus;
let b: FastifyInstance;
let dataDir: string;
let urlA: string;
let urlB: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'realtime-'));
  p = await startTestPlatform([transparency, notify], { ...env, DATA_DIR: dataDir });
  secondBus = await createNatsBus({ url: p.infra.nats.url, name: 'gateway-b', log: quiet });
  const config = loadConfig(GatewayConfig, { JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent', ...env });
  b = await buildGateway({ bus: secondBus, log: createLogger('b', 'silent'), config, database: p.database });
  await Promise.all([p.app.listen({ port: 0, host: '127.0.0.1' }), b.listen({ port: 0, host: '127.0.0.1' })]);
  urlA = `ws://127.0.0.1:${(p.app.server.address() as AddressInfo).port}/api/realtime/ws`;
  urlB = `ws://127.0.0.1:${(b.server.address() as AddressInfo).port}/api/realtime/ws`;
  await serve(p.bus, 'plants', plantGet, async (payload) => {
    const { plantId } = payload as { plantId: string };
    return [PLANT, OTHER_PLANT].includes(plantId)
      ? { ok: true, data: { id: plantId, commonName: 'Tomato', ownerId: 'usr_rtowner' } }
      : { ok: false, error: { code: 'NOT_FOUND', message: `Plant ${plantId} not found` } };
  });
  await serve(p.bus, 'farm', farmGet, async (payload) => {
    const { farmId } = payload as { farmId: string };
    return farmId === FARM
      ? { ok: true, data: { id: FARM, name: 'North', ownerId: 'usr_rtfarmer' } }
      : { ok: false, error: { code: 'NOT_FOUND', message: `Farm ${farmId} not found` } };
  });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await b?.close();
  await secondBus?.close();
  await p?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function connect(url: string, sub: string, role: 'USER' | 'FARM_MANAGER' | 'ADMIN' = 'USER') {
  const token = await p.token(role, sub);
  const s = await TestSocket.open(url, { headers: { authorization: `Bearer ${token}` } });
  sockets.push(s);
  return s;
}

const refusal = (url: string, opts: ClientOptions = {}) =>
  TestSocket.open(url, opts).then(
    () => null,
    (err: { status?: number; body?: string }) => err,
  );

describe('opening a socket', () => {
  it('greets a signed-in caller with its own user room joined', async () => {
    const s = await connect(urlA, 'usr_rtgreet');
    const welcome = s.frames.find((f) => f.type === 'welcome')!;
    expect(welcome).toMatchObject({ userId: 'usr_rtgreet', rooms: ['user:usr_rtgreet'], heartbeatSeconds: 1 });
    expect(await s.request({ type: 'ping' })).toMatchObject({ type: 'pong' });
  });

  it('refuses an upgrade without credentials, or with a bad token, with 401 and the envelope', async () => {
    const none = await refusal(urlA);
    expect(none?.status).toBe(401);
    expect(JSON.parse(none?.body ?? '{}')).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    const bad = await refusal(urlB, { headers: { authorization: 'Bearer not-a-token' } });
    expect(bad?.status).toBe(401);
  });

  it('opens with a ticket from POST /api/realtime/connect, on another replica too', async () => {
    const res = await p.http('POST', '/api/realtime/connect', { role: 'USER', sub: 'usr_rtticket' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      rooms: ['network', 'user:usr_rtticket'],
      fallback: '/api/transparency/events',
    });
    expect(res.body.data.url).toMatch(/^ws:\/\/.+\/api\/realtime\/ws\?ticket=/);
    const s = await TestSocket.open(`${urlB}?ticket=${encodeURIComponent(res.body.data.ticket)}`);
    sockets.push(s);
    expect(s.frames[0]).toMatchObject({ type: 'welcome', userId: 'usr_rtticket' });
    expect((await refusal(`${urlB}?ticket=forged.ticket.value`))?.status).toBe(401);
    // A ticket opens one socket: a second use is refused.
    const again = await refusal(`${urlB}?ticket=${encodeURIComponent(res.body.data.ticket)}`);
    expect(again?.status).toBe(401);
    expect(again?.body).toContain('already used');
  });

  it('refuses a session cookie sent from another origin', async () => {
    const token = await p.token('USER', 'usr_rtcookie');
    const cookie = `rootline_session=${token}`;
    const foreign = await refusal(urlA, { headers: { cookie, origin: 'https://evil.example' } });
    expect(foreign?.status).toBe(403);
    const same = await TestSocket.open(urlA, {
      headers: { cookie, origin: new URL(urlA.replace('ws', 'http')).origin },
    });
    sockets.push(same);
    expect(same.frames[0]).toMatchObject({ type: 'welcome', userId: 'usr_rtcookie' });
  });
});

describe('joining rooms', () => {
  it('lets a user join only rooms they may read', async () => {
    const s = await connect(urlA, 'usr_rtjoin');
    expect(await s.request({ type: 'subscribe', room: 'network' })).toMatchObject({ type: 'subscribed' });
    expect(await s.request({ type: 'subscribe', room: `plant:${PLANT}` })).toMatchObject({ type: 'subscribed' });
    expect(await s.request({ type: 'subscribe', room: 'plant:plt_unknown00001' })).toMatchObject({
      type: 'error',
      error: { code: 'NOT_FOUND' },
    });
    expect(await s.request({ type: 'subscribe', room: 'user:usr_someoneelse' })).toMatchObject({
      error: { code: 'FORBIDDEN' },
    });
    // A USER cannot read farms at all; a FARM_MANAGER who does not own the farm is refused too.
    expect(await s.request({ type: 'subscribe', room: `farm:${FARM}` })).toMatchObject({
      error: { code: 'FORBIDDEN' },
    });
    const manager = await connect(urlB, 'usr_rtmanager', 'FARM_MANAGER');
    expect(await manager.request({ type: 'subscribe', room: `farm:${FARM}` })).toMatchObject({
      error: { code: 'FORBIDDEN' },
    });
    const owner = await connect(urlB, 'usr_rtfarmer', 'FARM_MANAGER');
    expect(await owner.request({ type: 'subscribe', room: `farm:${FARM}` })).toMatchObject({ type: 'subscribed' });
    const admin = await connect(urlA, 'usr_rtadmin', 'ADMIN');
    expect(await admin.request({ type: 'subscribe', room: 'farm:frm_missing0001' })).toMatchObject({
      error: { code: 'NOT_FOUND' },
    });
  });

  it('answers malformed messages with VALIDATION_ERROR and keeps the socket open', async () => {
    const s = await connect(urlB, 'usr_rtbad');
    expect(await s.request({ type: 'subscribe', room: 'kitchen' })).toMatchObject({
      error: { code: 'VALIDATION_ERROR' },
    });
    expect(await s.request({ type: 'dance' })).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    s.ws.send('not json');
    await expect.poll(() => s.frames.filter((f) => f.type === 'error').length, { timeout: 5000 }).toBe(3);
    expect(await s.request({ type: 'ping' })).toMatchObject({ type: 'pong' });
  });
});

describe('fan-out across replicas', () => {
  it('delivers a public event to the members of its rooms on both replicas, and to nobody else', async () => {
    const onA = await connect(urlA, 'usr_rtfanA');
    const onB = await connect(urlB, 'usr_rtfanB');
    const other = await connect(urlB, 'usr_rtfanC');
    for (const s of [onA, onB]) {
      expect(await s.request({ type: 'subscribe', room: `plant:${PLANT}` })).toMatchObject({ type: 'subscribed' });
    }
    expect(await onB.request({ type: 'subscribe', room: 'network' })).toMatchObject({ type: 'subscribed' });
    expect(await other.request({ type: 'subscribe', room: `plant:${OTHER_PLANT}` })).toMatchObject({
      type: 'subscribed',
    });

    const id = await publishEvent(p.bus, plantRegistered, { plantId: PLANT, commonName: 'Tomato' });
    for (const s of [onA, onB]) {
      await expect.poll(() => s.events(`plant:${PLANT}`).length, { timeout: 10_000 }).toBe(1);
      expect(s.events(`plant:${PLANT}`)[0]).toMatchObject({
        event: 'plant.registered',
        id,
        data: { plantId: PLANT, commonName: 'Tomato' },
      });
    }
    await expect.poll(() => onB.events('network').length, { timeout: 10_000 }).toBe(1);
    // The other plant's event reaches its member; the first one never did.
    await publishEvent(p.bus, plantRegistered, { plantId: OTHER_PLANT, commonName: 'Basil' });
    await expect.poll(() => other.events().length, { timeout: 10_000 }).toBe(1);
    expect(other.events()[0]).toMatchObject({ room: `plant:${OTHER_PLANT}`, data: { commonName: 'Basil' } });
    expect(onA.events().length).toBe(1);
  });

  it('pushes in-app notifications to the user room on every replica the user is connected to', async () => {
    const onA = await connect(urlA, 'usr_rtnotified');
    const onB = await connect(urlB, 'usr_rtnotified');
    await publishEvent(p.bus, plantRegistered, { plantId: PLANT, commonName: 'Tomato', ownerId: 'usr_rtnotified' });
    for (const s of [onA, onB]) {
      await expect
        .poll(() => s.events('user:usr_rtnotified').filter((f) => f.event === 'notification').length, {
          timeout: 10_000,
        })
        .toBe(1);
    }
    const frame = onB.events('user:usr_rtnotified').find((f) => f.event === 'notification')!;
    expect(frame.data).toMatchObject({ type: 'plant-registered', read: false, link: `/plants/${PLANT}` });
    // The same notification is in the list, with the id the socket received.
    const list = await p.http('GET', '/api/notifications', { role: 'USER', sub: 'usr_rtnotified' });
    expect(list.body.data.map((n: { id: string }) => n.id)).toContain(frame.id);
  });
});

describe('slow and silent clients', () => {
  it('drops a client that stops reading, while another in the same room receives everything', async () => {
    const slow = await connect(urlA, 'usr_rtslow');
    const fast = await connect(urlA, 'usr_rtfast');
    for (const s of [slow, fast]) {
      expect(await s.request({ type: 'subscribe', room: 'network' })).toMatchObject({ type: 'subscribed' });
    }
    const before = (await p.http('GET', '/api/realtime/stats', { role: 'USER' })).body.data.droppedClients as number;
    // The slow client stops reading its TCP socket: the gateway's buffer for it grows past the limit. How much the
    // kernel holds first depends on the machine (receive buffers autotune up to `net.ipv4.tcp_rmem`, 32 MiB on some),
    // so frames of 64 KiB go out a hundred at a time until the gateway drops the client, up to 256 MiB.
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const big = 'x'.repeat(64 * 1024);
    const droppedNow = async () =>
      (await p.http('GET', '/api/realtime/stats', { role: 'USER' })).body.data.droppedClients as number;
    let sent = 0;
    while (sent < 4000 && (await droppedNow()) === before) {
      for (let n = 0; n < 100; n++, sent++) {
        await p.bus.broadcast(realtimePublished.subject, {
          room: 'network',
          event: 'test.bulk',
          data: { id: `blk_${sent}`, i: sent, big },
          sentAt: new Date().toISOString(),
        });
      }
      // The last frames reach the gateway through NATS a moment after they were published.
      await expect.poll(() => fast.events('network').length, { timeout: 20_000 }).toBe(sent);
    }
    expect(await droppedNow()).toBeGreaterThan(before);
    // The client that kept reading received every frame, in order, before and after the other was dropped.
    const got = fast.events('network').map((e) => (e.data as { i: number }).i);
    expect(got).toEqual(Array.from({ length: sent }, (_, i) => i));
  });

  it('pings every heartbeat and closes a socket that does not answer', async () => {
    const token = await p.token('USER', 'usr_rtsilent');
    const silent = await TestSocket.open(urlB, { headers: { authorization: `Bearer ${token}` }, autoPong: false });
    sockets.push(silent);
    const lively = await connect(urlB, 'usr_rtlively');
    await expect.poll(() => silent.closed, { timeout: 10_000 }).toBe(true);
    expect(lively.pings).toBeGreaterThan(0);
    expect(lively.closed).toBe(false);
  });
});

describe('statistics', () => {
  it('counts connections, rooms and messages of the replica that answers', async () => {
    const s = await connect(urlB, 'usr_rtstats');
    expect(await s.request({ type: 'subscribe', room: `plant:${PLANT}` })).toMatchObject({ type: 'subscribed' });
    const res = await b.inject({
      url: '/api/realtime/stats',
      headers: { authorization: `Bearer ${await p.token('USER', 'usr_rtstats')}` },
    });
    expect(res.statusCode).toBe(200);
    const stats = res.json().data;
    expect(stats.replicaId).toMatch(/^gw_/);
    expect(stats.connections).toBeGreaterThanOrEqual(1);
    expect(stats.byRoomKind.plant).toBeGreaterThanOrEqual(1);
    expect(stats.byRoomKind.user).toBeGreaterThanOrEqual(1);
    expect(stats.messagesSent).toBeGreaterThan(0);
    const a = (await p.http('GET', '/api/realtime/stats', { role: 'USER' })).body.data;
    expect(a.replicaId).not.toBe(stats.replicaId);
    expect((await p.http('GET', '/api/realtime/stats')).status).toBe(401);
  });
});
