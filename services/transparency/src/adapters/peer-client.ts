import type { Agent } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What a peer answered. */
export interface PeerAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** The most one answer of a peer may hold (a proof bundle is a few kilobytes). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** GETs `url` from a peer and reads the answer, within `timeoutMs` (or until `signal` aborts); through the proxy when set. */
export function getFromPeer(
  url: string,
  opts: { timeoutMs: number; agent?: Agent | undefined; signal?: AbortSignal },
): Promise<PeerAnswer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: 'GET',
        headers: { accept: 'application/json, text/plain' },
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
          if (size > MAX_ANSWER_BYTES) res.destroy(new Error('the peer’s answer is too long'));
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
    req.end();
  });
}
