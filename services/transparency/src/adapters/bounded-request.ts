import type { Agent } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What another node (a peer or a witness) answered. */
export interface NodeAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** One exchange with another node: its timeout covers the whole of it; through the outgoing proxy when one is set. */
export interface ExchangeOptions {
  timeoutMs: number;
  agent?: Agent | undefined;
  signal?: AbortSignal;
}

/**
 * Sends one request and reads the answer as text, refusing an answer longer than `maxBytes` with `tooLong` as the
 * error's message, within `timeoutMs` (or until `signal` aborts).
 */
export function exchange(
  url: URL,
  request: { method: 'GET' | 'POST'; headers: Record<string, string | number>; body?: string },
  limit: { maxBytes: number; tooLong: string },
  opts: ExchangeOptions,
): Promise<NodeAnswer> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: request.method,
        headers: request.headers,
        signal: opts.signal
          ? AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)])
          : AbortSignal.timeout(opts.timeoutMs),
        ...(opts.agent ? { agent: opts.agent } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > limit.maxBytes) res.destroy(new Error(limit.tooLong));
          else chunks.push(c);
        });
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}
