import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a webhook receiver got: its raw body and headers, and when it arrived. */
export interface ReceivedDelivery {
  body: string;
  headers: IncomingHttpHeaders;
  /** When its request line arrived, in milliseconds of `performance.now()` (for the times between attempts). */
  arrivedAt: number;
}

/** A local webhook receiver: what it got, its address, and the status it answers (a test may change it). */
export interface WebhookReceiver {
  got: ReceivedDelivery[];
  state: { status: number; got: ReceivedDelivery[] };
  url: string;
  stop(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 at a free port that records every request and answers `state.status` (200). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const state = { status: 200, got: [] as ReceivedDelivery[] };
  const server = createServer((req, res) => {
    const arrivedAt = performance.now();
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      state.got.push({ body, headers: req.headers, arrivedAt });
      res.writeHead(state.status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    got: state.got,
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
