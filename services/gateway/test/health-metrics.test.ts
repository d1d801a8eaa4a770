import type { Endpoint, ServedService } from '@rootline/bus';
import { plantGet, SERVICE_NAMES, type ServiceName, statusSubject } from '@rootline/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveMany, startTestBus, type TestBus, testGateway } from './support.js';

let bus: TestBus;
let app: FastifyInstance;
const served: ServedService[] = [];

beforeAll(async () => {
  bus = await startTestBus();
  app = await testGateway(bus);
});
afterEach(async () => {
  await Promise.all(served.splice(0).map((s) => s.stop()));
});
afterAll(async () => {
  await app?.close();
  await bus?.close();
});

/** A status endpoint as every service serves it; `database` and `outboxBacklog` are the test's choice. */
function statusEndpoint(service: ServiceName, database: 'ok' | 'error' | 'none', outboxBacklog = 0): Endpoint {
  return {
    subject: statusSubject(service).subject,
    handler: async () => ({
      ok: true,
      data: { service, instance: `${service}-1`, version: '0.0.0-test', database, outboxBacklog, uptimeSeconds: 1 },
    }),
  };
}

/** Starts a stand-in for every service; `overrides` changes what some of them report. */
async function serveAll(overrides: Partial<Record<ServiceName, Endpoint[]>> = {}, skip: ServiceName[] = []) {
  for (const name of SERVICE_NAMES) {
    if (skip.includes(name)) continue;
    const backlog = SERVICE_NAMES.indexOf(name) + 1;
    served.push(await serveMany(bus.peer, name, overrides[name] ?? [statusEndpoint(name, 'ok', backlog)]));
  }
}

describe('liveness', () => {
  it('answers 200 with status ok, without a token and without any service', async () => {
    const res = await app.inject({ url: '/api/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { status: 'ok' }, error: null });
  });

  // Their documented 4xx: they take no query parameters, and refuse an unknown one as every operation does.
  it('refuses an unknown query parameter on the probes and the metrics with 400 VALIDATION_ERROR', async () => {
    for (const url of ['/api/health/live?verbose=1', '/api/health/ready?verbose=1', '/api/metrics?name=http']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
    }
  });
});

describe('readiness', () => {
  it('answers 503 UNAVAILABLE listing every service when none runs', async () => {
    const res = await app.inject({ url: '/api/health/ready' });
    expect(res.statusCode).toBe(503);
    const body = res.json();
    expect(body).toMatchObject({ success: false, data: null, error: { code: 'UNAVAILABLE' } });
    expect([...body.error.details.missing].sort()).toEqual([...SERVICE_NAMES].sort());
    expect(body.error.details.failing).toEqual([]);
  });

  it('names the one service that is missing', async () => {
    await serveAll({}, ['media']);
    const res = await app.inject({ url: '/api/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.details).toEqual({ missing: ['media'], failing: [] });
  });

  it('names a service whose database check fails and one whose status call fails', async () => {
    await serveAll({
      plants: [statusEndpoint('plants', 'error')],
      farm: [
        {
          subject: statusSubject('farm').subject,
          handler: async () => ({ ok: false, error: { code: 'INTERNAL', message: 'Internal error' } }),
        },
      ],
    });
    const res = await app.inject({ url: '/api/health/ready' });
    expect(res.statusCode).toBe(503);
    const { missing, failing } = res.json().error.details;
    expect(missing).toEqual([]);
    expect(failing).toEqual([
      { service: 'plants', reason: 'database check failed' },
      { service: 'farm', reason: 'Internal error' },
    ]);
  });

  it('answers 200 when every service runs and reports its database ok or none', async () => {
    await serveAll({ media: [statusEndpoint('media', 'none')] });
    const started = Date.now();
    const res = await app.inject({ url: '/api/health/ready' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, error: null, data: { status: 'ok' } });
    expect(body.data.services).toHaveLength(SERVICE_NAMES.length);
    expect(body.data.services).toContainEqual({ service: 'media', version: '0.0.0-test', database: 'none' });
    // Status calls run in parallel: well under nine sequential round trips with their timeouts.
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});

describe('metrics', () => {
  it('exposes Prometheus text with HTTP and bus histograms, outbox backlog and process metrics', async () => {
    await serveAll(
      {
        plants: [
          statusEndpoint('plants', 'ok', 7),
          {
            subject: plantGet.subject,
            handler: async () => ({ ok: false, error: { code: 'NOT_FOUND', message: 'no such plant' } }),
          },
        ],
      },
      ['notify'],
    );
    await app.inject({ url: '/api/plants/plt_01HZX3K6Q2W8N4B7T5R9V0C1MD', headers: await bus.bearer() });
    await app.inject({ url: '/api/plants/plt_01HZX3K6Q2W8N4B7T5R9V0C1ZZ', headers: await bus.bearer() });
    await app.inject({ url: '/api/some/random/path' });

    const res = await app.inject({ url: '/api/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    // Labelled by the route pattern: two plant ids, one series.
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="/api/plants/:plantId",status="404"} 2',
    );
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 1');
    expect(text).not.toContain('random/path');
    expect(text).toContain('# TYPE bus_request_duration_seconds histogram');
    expect(text).toContain('bus_request_duration_seconds_count{subject="plants.plant.get",outcome="NOT_FOUND"} 2');
    expect(text).toContain('outbox_backlog{service="plants"} 7');
    expect(text).toContain('outbox_backlog{service="farm"} 5');
    // A service that does not answer is left out, not reported as zero.
    expect(text).not.toContain('outbox_backlog{service="notify"}');
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('records a bus call nobody answered with outcome UNAVAILABLE', async () => {
    await app.inject({
      method: 'POST',
      url: '/api/plants/register',
      headers: await bus.bearer(),
      payload: {
        commonName: 'Basil',
        location: { latitude: 1, longitude: 2 },
        owner: { id: 'usr_test' },
      },
    });
    const text = (await app.inject({ url: '/api/metrics' })).body;
    expect(text).toContain(
      'bus_request_duration_seconds_count{subject="plants.plant.register",outcome="UNAVAILABLE"} 1',
    );
  });

  it('keeps a separate registry per gateway', async () => {
    const other = await testGateway(bus);
    try {
      const text = (await other.inject({ url: '/api/metrics' })).body;
      expect(text).not.toContain('route="/api/plants/:plantId"');
    } finally {
      await other.close();
    }
  });
});
