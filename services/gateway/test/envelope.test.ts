import { JsonText, type ServedService } from '@rootline/bus';
import {
  geocodeSearch,
  type Plant,
  plantGet,
  plantNearby,
  plantNetworkGet,
  plantRegister,
  type RegistrationResult,
} from '@rootline/contracts';
import { createLogger, handle, type Logger, PAGE_PREFIX, toEndpoint } from '@rootline/host';
import { plantInput } from '@rootline/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureLogger, serve, serveMany, sleep, startTestBus, type TestBus, testGateway } from './support.js';

const PLANT_ID = 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD';
const registration: RegistrationResult = {
  id: PLANT_ID,
  blockHash: 'a'.repeat(64),
  timestamp: '2026-01-02T03:04:05.000Z',
};
const plant: Plant = {
  id: PLANT_ID,
  commonName: 'Tomato',
  scientificName: null,
  location: { latitude: 52.37, longitude: 4.89 },
  privacyLevel: 'exact',
  // The signed-in test account under its own name: nothing to add beside it (ADR 194).
  owner: { id: 'usr_test', name: 'Test USER' },
  walletAddress: null,
  generation: 0,
  parentId: null,
  propagationType: null,
  block: { index: 1, hash: 'a'.repeat(64), txId: 'tx_1' },
  registeredAt: '2026-01-02T03:04:05.000Z',
};

let bus: TestBus;
let app: FastifyInstance;
const served: ServedService[] = [];

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus, { BODY_LIMIT_BYTES: '4096' });
});
afterEach(async () => {
  await Promise.all(served.splice(0).map((s) => s.stop()));
});
afterAll(async () => {
  await app?.close();
  await bus?.close();
});

/** The signed-in test account as a plant's owner, its name left for the gateway to fill in (ADR 176). */
const OWN = { id: 'usr_test' };

const register = async (payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/plants/register',
    payload: payload as object,
    headers: { ...(await bus.bearer()), ...headers },
  });

describe('success envelope', () => {
  it('wraps a registration in {success, data, error} with 201 and passes the body to the service', async () => {
    const received: unknown[] = [];
    served.push(
      await serve(bus.peer, 'plants', plantRegister, async (payload) => {
        received.push(payload);
        return { ok: true, data: registration };
      }),
    );
    // The owner is the signed-in account, under its own name (ADR 176).
    const input = plantInput({ owner: { id: 'usr_test', name: 'Test USER' } });
    const res = await register(input);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, data: registration, error: null });
    // The contract's default (privacy level exact) is filled in once, at the gateway.
    expect(received).toEqual([{ ...input, privacyLevel: 'exact' }]);
  });

  it('reads a plant by id with 200', async () => {
    served.push(await serve(bus.peer, 'plants', plantGet, async () => ({ ok: true, data: plant })));
    const res = await app.inject({ url: `/api/plants/${PLANT_ID}`, headers: await bus.bearer() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: plant, error: null });
  });

  it('forwards a reply the service wrote by its contract as written, and shapes any other by the route schema', async () => {
    // The service's text, its keys in an order of its own: a gateway that parsed and serialised it again would
    // write the schema's order instead. (Plant reads are completed with account names, so not forwarded: ADR 194.)
    const text = JSON.stringify({
      countriesRepresented: 2,
      totalPlants: 3,
      chainLength: 4,
      difficulty: 8,
      activeGrowers: 1,
    });
    const shaped = await serve(
      bus.peer,
      'plants',
      plantNetworkGet,
      async () => new JsonText(`{"ok":true,"shaped":true,"data":${text}}`) as never,
    );
    const forwarded = await app.inject({ url: '/api/plants/network', headers: await bus.bearer() });
    await shaped.stop();
    expect(forwarded.statusCode).toBe(200);
    expect(forwarded.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(forwarded.body).toBe(`{"success":true,"data":${text},"error":null}`);

    // A reply not marked as written by its contract is serialised by the route's schema: what it does not declare
    // does not leave the gateway.
    served.push(
      await serve(bus.peer, 'plants', plantGet, async () => ({
        ok: true,
        data: { ...plant, ownerEmail: 'grower@example.org' },
      })),
    );
    const shapedHere = await app.inject({ url: `/api/plants/${PLANT_ID}`, headers: await bus.bearer() });
    expect(shapedHere.statusCode).toBe(200);
    expect(shapedHere.body).not.toContain('ownerEmail');
    expect(shapedHere.json()).toEqual({ success: true, data: plant, error: null });
  });
});

describe('page envelope', () => {
  const pagination = { page: 1, limit: 20, total: 1, totalPages: 1, totalIsEstimate: false };
  const near = { ...plant, coverPhoto: null, distanceKm: 1.25 };
  const nearby = async () => app.inject({ url: '/api/plants/nearby?lat=52.37&lon=4.89', headers: await bus.bearer() });

  it('forwards a page the service wrote by its contract: the items in data, the head beside them, unparsed', async () => {
    // The service's texts, keys in an order of their own (a gateway that parsed them would write the schema's).
    // Nearby answers are completed with account names (ADR 194), so a page of places stands for every forwarded one.
    const items = JSON.stringify([{ longitude: 4.89, latitude: 52.37, name: 'Amsterdam', country: 'NL' }]);
    const head = JSON.stringify({ pagination: { totalPages: 1, total: 1, limit: 20, page: 1 } });
    const shaped = await serve(
      bus.peer,
      'plants',
      geocodeSearch,
      async () => new JsonText(`${PAGE_PREFIX}${head.length},"head":${head},"data":${items}}`) as never,
    );
    const res = await app.inject({ url: '/api/geocode?q=amsterdam', headers: await bus.bearer() });
    await shaped.stop();
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      `{"success":true,"data":${items},"error":null,"pagination":{"totalPages":1,"total":1,"limit":20,"page":1}}`,
    );
  });

  it('writes a page with toEndpoint so that the gateway answers it as the route documents', async () => {
    served.push(
      await bus.peer.serve({ name: 'plants', version: '1.0.0' }, [
        toEndpoint(
          handle(
            plantNearby,
            async () => ({ items: [{ ...near, ownerEmail: 'x@example.org' }], pagination, extra: 1 }) as never,
          ),
          createLogger('test', 'silent'),
        ),
      ]),
    );
    const res = await nearby();
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('ownerEmail');
    expect(res.json()).toEqual({ success: true, data: [near], error: null, pagination });
  });

  it('shapes a page reply not written by its contract by the route schema', async () => {
    served.push(
      await serve(bus.peer, 'plants', plantNearby, async () => ({
        ok: true,
        data: { items: [{ ...near, ownerEmail: 'x@example.org' }], pagination },
      })),
    );
    const res = await nearby();
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('ownerEmail');
    expect(res.json()).toEqual({ success: true, data: [near], error: null, pagination });
  });
});

describe('failure envelope', () => {
  it('answers an unknown route with 404 NOT_FOUND', async () => {
    const res = await app.inject({ url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, data: null, error: { code: 'NOT_FOUND' } });
  });

  it('answers a malformed URL with 400 VALIDATION_ERROR in the envelope', async () => {
    const res = await app.inject({ url: '/api/plants/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
  });

  it('names the failing field of a schema error', async () => {
    const res = await register(plantInput({ location: { latitude: 91, longitude: 4.89 } }));
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
    expect(body.error.message).toBe('body/location/latitude must be <= 90');
    expect(body.error.details).toEqual([{ field: 'body/location/latitude', message: 'must be <= 90' }]);
  });

  it('names a missing field and an unknown field', async () => {
    const { commonName: _omitted, ...withoutName } = plantInput();
    const missing = await register(withoutName);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe('body/commonName is required');

    const unknown = await register({ ...plantInput(), colour: 'red' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe('body/colour is not an accepted property');
  });

  it('refuses a body value of the wrong type instead of converting it', async () => {
    const res = await register({ ...plantInput(), commonName: 42 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('body/commonName must be string');
    const lat = await register(plantInput({ location: { latitude: '52.3' as unknown as number, longitude: 4.89 } }));
    expect(lat.statusCode).toBe(400);
    expect(lat.json().error.message).toBe('body/location/latitude must be number');
  });

  it('rejects a path parameter that is not a plant id', async () => {
    const res = await app.inject({ url: '/api/plants/not-an-id', headers: await bus.bearer() });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/^params\/plantId must match pattern/);
  });

  it('answers malformed JSON with 400 VALIDATION_ERROR', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/plants/register',
      headers: { ...(await bus.bearer()), 'content-type': 'application/json' },
      payload: '{"commonName": "Tomato",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      data: null,
      error: { code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' },
    });
  });

  it('answers an unsupported content type with 400 VALIDATION_ERROR', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/plants/register',
      headers: { ...(await bus.bearer()), 'content-type': 'text/plain' },
      payload: 'commonName=Tomato',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Unsupported content type: send application/json',
    });
  });

  it('answers a body over BODY_LIMIT_BYTES with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await register({ ...plantInput(), commonName: 'x'.repeat(5000) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, data: null, error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('answers 503 UNAVAILABLE at once when no service serves the subject', async () => {
    const started = Date.now();
    const res = await register(plantInput({ owner: OWN }));
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, data: null, error: { code: 'UNAVAILABLE' } });
    // Well under the 800 ms reply timeout: NATS reports "no responders" without waiting.
    expect(Date.now() - started).toBeLessThan(700);
  });

  it('answers 503 UNAVAILABLE when the service does not reply within REQUEST_TIMEOUT_MS', async () => {
    served.push(
      await serve(bus.peer, 'plants', plantRegister, async () => {
        await sleep(1_500);
        return { ok: true, data: registration };
      }),
    );
    const started = Date.now();
    const res = await register(plantInput({ owner: OWN }));
    const elapsed = Date.now() - started;
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('UNAVAILABLE');
    expect(elapsed).toBeGreaterThanOrEqual(750);
    expect(elapsed).toBeLessThan(1_400);
  });

  it("passes a service's error reply through with its code, message, details and status", async () => {
    served.push(
      await serve(bus.peer, 'plants', plantRegister, async () => ({
        ok: false,
        error: { code: 'DUPLICATE', message: 'This plant is already registered', details: { id: PLANT_ID } },
      })),
      await serve(bus.peer, 'plants', plantGet, async () => ({
        ok: false,
        error: { code: 'NOT_FOUND', message: `Plant ${PLANT_ID} not found` },
      })),
    );
    const dup = await register(plantInput({ owner: OWN }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({
      success: false,
      data: null,
      error: { code: 'DUPLICATE', message: 'This plant is already registered', details: { id: PLANT_ID } },
    });
    const missing = await app.inject({ url: `/api/plants/${PLANT_ID}`, headers: await bus.bearer() });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toEqual({ code: 'NOT_FOUND', message: `Plant ${PLANT_ID} not found` });
  });
});

describe('unexpected errors', () => {
  it('answers 500 INTERNAL with a generic message when the service handler throws', async () => {
    served.push(
      await serve(bus.peer, 'plants', plantRegister, async () => {
        throw new Error('connection to postgres://admin:hunter2@db failed');
      }),
    );
    const res = await register(plantInput({ owner: OWN }));
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      data: null,
      error: { code: 'INTERNAL', message: 'Internal server error' },
    });
    expect(res.body).not.toContain('hunter2');
  });

  it("hides the text of a service's INTERNAL reply", async () => {
    served.push(
      await serve(bus.peer, 'plants', plantRegister, async () => ({
        ok: false,
        error: { code: 'INTERNAL', message: 'disk /var/lib/secret full', details: { host: 'db-7' } },
      })),
    );
    const res = await register(plantInput({ owner: OWN }));
    expect(res.statusCode).toBe(500);
    expect(res.json().error).toEqual({ code: 'INTERNAL', message: 'Internal server error' });
    expect(res.body).not.toContain('secret');
    expect(res.body).not.toContain('db-7');
  });

  it('answers a reply that breaks its contract with the generic error, its detail logged by the service', async () => {
    // Replies are serialised by their contract in the service (replyWriter) and forwarded by the gateway as
    // written: the service is where a reply that breaks it is caught.
    const capture = captureLogger();
    served.push(
      await serveMany(bus.peer, 'plants', [
        toEndpoint(
          // A reply that breaks its contract: blockHash is missing.
          handle(plantRegister, async () => ({ id: PLANT_ID, timestamp: registration.timestamp }) as never),
          capture.log as unknown as Logger,
        ),
      ]),
    );
    const res = await app.inject({
      method: 'POST',
      url: '/api/plants/register',
      payload: plantInput({ owner: { id: 'usr_test' } }),
      headers: await bus.bearer(),
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ success: false, data: null, error: { code: 'INTERNAL' } });
    expect(res.body).not.toContain('blockHash');
    expect(res.body).not.toMatch(/\bat .*\.(js|ts):\d+/);
    const errors = capture.entries.filter((e) => e.level === 'error');
    expect(JSON.stringify(errors.map((e) => String((e.args[0] as { err?: Error }).err)))).toContain('blockHash');
  });
});
