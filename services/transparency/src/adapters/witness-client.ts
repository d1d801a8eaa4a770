import type { Agent } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What a witness answered. */
export interface WitnessAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** The most a witness's answer may hold (a few signature lines). */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs an add-checkpoint body to `<prefix>/add-checkpoint` (c2sp.org/tlog-witness) and reads the answer, within
 * `timeoutMs` for the whole exchange (or until `signal` aborts); through the outgoing proxy when one is set.
 */
export function postAddCheckpoint(
  prefix: string,
  body: string,
  opts: { timeoutMs: number; agent?: Agent | undefined; signal?: AbortSignal },
): Promise<WitnessAnswer> {
  const url = new URL(`${prefix}/add-checkpoint`);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) },
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
          if (size > MAX_ANSWER_BYTES) res.destroy(new Error('the witness’s answer is too long'));
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
    req.end(body);
  });
}
