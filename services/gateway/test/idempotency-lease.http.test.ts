import { randomUUID } from 'node:crypto';
import type { ServedService } from '@rootline/bus';
import { plantRegister } from '@rootline/contracts';
import { plantInput } from '@rootline/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, startTestBus, type TestBus, testGateway } from './support.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// No name: the gateway fills in the account's own (ADR 176).
const owner = { id: 'usr_lease' };

/**
 * The claim on an in-flight Idempotency-Key is a short lease renewed while its request runs (ADR 185): a request
 * that outlives the lease keeps its key, so a retry meanwhile is told to wait (409) and the write runs once.
 */
describe('Idempotency-Key lease', () => {
  let bus: TestBus;
  let app: FastifyInstance;
  let served: ServedService;
  let runs = 0;

  beforeAll(async () => {
    bus = await startTestBus();
    // A one-second lease, and a service slower than two leases (the bus waits long enough for it).
    app = await testGateway(bus, { IDEMPOTENCY_LOCK_SECONDS: '1', REQUEST_TIMEOUT_MS: '8000' });
    served = await serve(bus.peer, 'plants', plantRegister, async () => {
      runs += 1;
      await sleep(3500);
      return {
        ok: true,
        data: { id: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD', blockHash: 'a'.repeat(64), timestamp: new Date().toISOString() },
      };
    });
  }, 60_000);

  afterAll(async () => {
    await served?.stop();
    await app?.close();
    await bus?.close();
  });

  it('keeps the key of a request that outlives its lease: a retry gets 409, not a second run (renewal regression)', async () => {
    const headers = { ...(await bus.bearer('GROWER', owner.id)), 'idempotency-key': randomUUID() };
    const payload = plantInput({ owner });
    const first = app.inject({ method: 'POST', url: '/api/plants/register', headers, payload });
    // Once the service runs it, the key is held; past the one-second lease, the request still runs.
    await expect.poll(() => runs, { timeout: 10_000, interval: 20 }).toBe(1);
    await sleep(1500);
    const meanwhile = await app.inject({ method: 'POST', url: '/api/plants/register', headers, payload });
    expect(meanwhile.statusCode).toBe(409);
    expect(meanwhile.json().error.details).toMatchObject({ reason: 'in-flight' });
    expect((await first).statusCode).toBe(201);
    const replay = await app.inject({ method: 'POST', url: '/api/plants/register', headers, payload });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(runs).toBe(1);
  });
});
