import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpenLoop } from '../bench/lib/open-loop.js';
import { createScope } from '../bench/lib/scope.js';

/** A server that answers 201, 500 on /fail, and never on /hang. */
let server: Server;
let url: string;
const scope = createScope();

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.once('end', () => {
      if (req.url === '/hang') return;
      res.statusCode = req.url === '/fail' ? 500 : 201;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await scope.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const base = {
  headers: { 'content-type': 'application/json' },
  timeoutSeconds: 10,
  pauseSeconds: 0,
  giveUpP99Ms: 60_000,
};

describe('open-loop load generator', () => {
  it('sends rate × seconds requests, whatever the answers, and counts non-2xx answers as errors', async () => {
    const requests = ['/ok', '/ok', '/ok', '/fail'].map((path) => ({ method: 'POST', path, body: '{"a":1}' }));
    const steps = [
      { rate: 40, seconds: 1, uncounted: true },
      { rate: 200, seconds: 1 },
      { rate: 400, seconds: 1 },
    ];
    const results = await runOpenLoop(scope, { ...base, url, requests, steps });
    // The warm-up is not reported, and stepping stops after the first counted step with errors.
    expect(results).toHaveLength(1);
    const [step] = results;
    expect(step).toMatchObject({ rate: 200, sent: 200, ok: 150, errors: 50, statusCodes: { 201: 150, 500: 50 } });
    expect(step!.latency.p50).toBeGreaterThan(0);
  });

  it('counts a request unanswered by its deadline as an error', async () => {
    const requests = [{ method: 'POST', path: '/hang', body: '{}' }];
    const steps = [{ rate: 10, seconds: 1 }];
    const results = await runOpenLoop(scope, { ...base, timeoutSeconds: 1, url, requests, steps });
    expect(results).toEqual([expect.objectContaining({ sent: 10, ok: 0, errors: 10, statusCodes: { 0: 10 } })]);
  });
});
