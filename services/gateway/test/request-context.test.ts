import type { ServedService } from '@rootline/bus';
import { HEADER, plantGet } from '@rootline/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serve, startTestBus, type TestBus, testGateway } from './support.js';

const PLANT_URL = '/api/plants/plt_01HZX3K6Q2W8N4B7T5R9V0C1MD';
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

let bus: TestBus;
let app: FastifyInstance;
let served: ServedService;
const seen: Record<string, string>[] = [];

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
  served = await serve(bus.peer, 'plants', plantGet, async (_payload, headers) => {
    seen.push(headers);
    return { ok: false, error: { code: 'NOT_FOUND', message: 'no such plant' } };
  });
});
beforeEach(() => {
  seen.length = 0;
});
afterAll(async () => {
  await served?.stop();
  await app?.close();
  await bus?.close();
});

describe('call context on the bus', () => {
  it('carries the verified actor, the request id and the traceparent to the service', async () => {
    const res = await app.inject({
      url: PLANT_URL,
      headers: { ...(await bus.bearer('GROWER', 'usr_42')), 'x-request-id': 'client-req.42', traceparent: TRACEPARENT },
    });
    expect(res.statusCode).toBe(404);
    expect(seen).toHaveLength(1);
    const headers = seen[0]!;
    expect(JSON.parse(headers[HEADER.actor]!)).toEqual({ id: 'usr_42', role: 'GROWER' });
    expect(headers[HEADER.requestId]).toBe('client-req.42');
    expect(headers[HEADER.traceparent]).toBe(TRACEPARENT);
  });

  it('drops a malformed traceparent rather than passing it on', async () => {
    await app.inject({ url: PLANT_URL, headers: { ...(await bus.bearer()), traceparent: 'not-a-trace' } });
    expect(seen[0]?.[HEADER.traceparent]).toBeUndefined();
  });
});

describe('request ids', () => {
  it('echoes an incoming x-request-id', async () => {
    const res = await app.inject({ url: PLANT_URL, headers: { ...(await bus.bearer()), 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('generates an id when none is sent, and uses the same one on the bus', async () => {
    const res = await app.inject({ url: PLANT_URL, headers: await bus.bearer() });
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(seen[0]?.[HEADER.requestId]).toBe(id);
  });

  it('replaces an insane incoming id', async () => {
    for (const bad of ['has space', 'x'.repeat(129), '<script>']) {
      const res = await app.inject({ url: '/api/health/live', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id']).toMatch(/^req_/);
    }
  });

  it('echoes the id on errors and unknown routes too', async () => {
    const unauthorized = await app.inject({ url: '/api/plants/owned/usr_1', headers: { 'x-request-id': 'r-401' } });
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.headers['x-request-id']).toBe('r-401');
    const missing = await app.inject({ url: '/api/nope', headers: { 'x-request-id': 'r-404' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toBe('r-404');
  });
});
