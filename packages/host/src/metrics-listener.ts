import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsListener {
  /** The port it listens on (the one asked for, or the one given for port 0). */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The small HTTP listener of a service process in cluster mode: `GET /metrics` (Prometheus text format),
 * `GET /health/live` (the process answers) and `GET /health/ready` (`ready()` resolves true: the service is
 * started and its dependencies answer), for the orchestrator's probes. Nothing else is served.
 */
export async function startMetricsListener(o: {
  registry: Registry;
  port: number;
  host?: string;
  ready: () => Promise<boolean>;
}): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'method not allowed\n');
    if (path === '/metrics') {
      o.registry.metrics().then(
        (text) => send(200, o.registry.contentType, text),
        (err: unknown) => send(500, 'text/plain', `metrics failed: ${(err as Error).message}\n`),
      );
      return;
    }
    if (path === '/health/live') return send(200, 'application/json', '{"status":"ok"}\n');
    if (path === '/health/ready') {
      o.ready().then(
        (ok) => send(ok ? 200 : 503, 'application/json', ok ? '{"status":"ok"}\n' : '{"status":"unavailable"}\n'),
        () => send(503, 'application/json', '{"status":"unavailable"}\n'),
      );
      return;
    }
    send(404, 'text/plain', 'not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
