import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { SERVICES } from '../../../scripts/src/services.js';
import {
  connectRealtime,
  createRootline,
  type Realtime,
  type RealtimeEvent,
  type RealtimeState,
  type RootlineClient,
  type WebSocketFactory,
} from '../src/index.js';

// The SDK's real-time connection against the real platform (every service, NATS, PostgreSQL): the WebSocket with
// its rooms, a refused room, the server-sent stream when no socket can be opened, and the end of a session.

let p: TestPlatform;
let dataDir: string;
let baseUrl: string;
let client: RootlineClient;
let userId: string;
const open: Realtime[] = [];

async function until<T>(check: () => T | undefined | null | false, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} never happened`);
}

const ticket = async () => {
  const answer = await client.POST('/api/realtime/connect');
  return answer.data!.data!.ticket;
};

async function register(commonName: string): Promise<string> {
  const made = await client.POST('/api/plants/register', {
    body: { commonName, location: { latitude: 52.37, longitude: 4.9 }, owner: { id: userId, name: 'Ada' } },
  });
  expect(made.response.status).toBe(201);
  return made.data!.data!.id;
}

/** A socket that never opens: the server is unreachable as far as the client can tell. */
class Refused {
  readyState = 3;
  onopen = null;
  onmessage = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror = null;
  constructor() {
    setTimeout(() => this.onclose?.({ code: 1006 }), 5);
  }
  send() {}
  close() {}
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'rootline-sdk-realtime-'));
  p = await startTestPlatform(SERVICES, { CHAIN_DIFFICULTY: '8', DATA_DIR: dataDir, SSE_POLL_MS: '50' });
  await p.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(p.app.server.address() as AddressInfo).port}`;
  client = createRootline({ baseUrl });
  const email = `rt-${randomBytes(4).toString('hex')}@example.org`;
  await client.POST('/api/auth/register', { body: { email, password: 'a long realtime passphrase', name: 'Ada' } });
  userId = (await client.signIn(email, 'a long realtime passphrase')).user.id;
});
afterAll(async () => {
  for (const rt of open) rt.close();
  await p?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('connectRealtime', () => {
  it('joins rooms over the WebSocket and delivers the events of each', async () => {
    const rt = connectRealtime({ baseUrl, ticket, WebSocket: WebSocket as unknown as WebSocketFactory });
    open.push(rt);
    const network: RealtimeEvent[] = [];
    const mine: RealtimeEvent[] = [];
    rt.subscribe('network', (e) => network.push(e));
    rt.subscribe(`user:${userId}`, (e) => mine.push(e));
    await until(() => rt.state === 'live', 'the socket opening');
    expect(rt.userId).toBe(userId);

    const plantId = await register('Live basil');
    const seen = await until(
      () => network.find((e) => e.event === 'plant.registered' && e.data.plantId === plantId),
      'plant.registered in the network room',
    );
    expect(seen.room).toBe('network');
    expect(seen.id).toMatch(/^evt_/);
    // The owner's own room hears of it too (the event names the owner).
    await until(() => mine.find((e) => e.data.plantId === plantId), 'the event in the owner room');

    // A plant's room, joined after the plant exists, hears what happens to that plant only.
    const ofPlant: RealtimeEvent[] = [];
    const stop = rt.subscribe(`plant:${plantId}`, (e) => ofPlant.push(e));
    const other = await register('Other basil');
    await until(() => network.find((e) => e.data.plantId === other), 'the second registration');
    expect(ofPlant.filter((e) => e.data.plantId === other)).toEqual([]);
    stop();
  });

  it('reports a room the server refuses, and keeps the socket for the others', async () => {
    const rt = connectRealtime({ baseUrl, ticket, WebSocket: WebSocket as unknown as WebSocketFactory });
    open.push(rt);
    const errors: { code: string }[] = [];
    rt.subscribe('farm:frm_doesnotexist0000000000000', () => {}, { onError: (e) => errors.push(e) });
    await until(() => errors.length > 0, 'the refusal');
    expect(['NOT_FOUND', 'FORBIDDEN']).toContain(errors[0]!.code);
    expect(rt.state).toBe('live');
  });

  it('falls back to the server-sent stream when no socket opens, with the same events in the same rooms', async () => {
    const states: RealtimeState[] = [];
    const rt = connectRealtime({
      baseUrl,
      WebSocket: Refused as unknown as WebSocketFactory,
      headers: { authorization: `Bearer ${client.token}` },
      fallbackAfter: 2,
      backoff: { initialMs: 20, maxMs: 50 },
    });
    open.push(rt);
    rt.onState((s) => states.push(s));
    const network: RealtimeEvent[] = [];
    const mine: RealtimeEvent[] = [];
    rt.subscribe('network', (e) => network.push(e));
    rt.subscribe(`user:${userId}`, (e) => mine.push(e));
    await until(() => rt.state === 'fallback', 'the fallback');
    expect(states).toContain('offline');
    // Give the stream a moment to connect before the event it should carry.
    await new Promise((r) => setTimeout(r, 300));
    const plantId = await register('Streamed sage');
    const seen = await until(
      () => network.find((e) => e.event === 'plant.registered' && e.data.plantId === plantId),
      'plant.registered from the stream',
    );
    expect(seen.occurredAt).toMatch(/^\d{4}-/);
    await until(() => mine.find((e) => e.data.plantId === plantId), 'the event in the owner room from the stream');
    // The socket is still retried while the stream carries the events.
    expect(rt.state).toBe('fallback');
  });

  it('stops reconnecting when the server ends the session, until restarted', async () => {
    const rt = connectRealtime({ baseUrl, ticket, WebSocket: WebSocket as unknown as WebSocketFactory });
    open.push(rt);
    await until(() => rt.state === 'live', 'the socket opening');
    const out = await client.POST('/api/auth/signout');
    expect(out.response.status).toBe(200);
    await until(() => rt.state === 'signed-out', 'the signed-out state');
    await new Promise((r) => setTimeout(r, 200));
    expect(rt.state).toBe('signed-out');
  });
});
