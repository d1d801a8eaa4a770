import { type Agent, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** A JSON answer of an outside service. */
export interface JsonAnswer {
  status: number;
  body: unknown;
}

/** Raised when an outside service cannot be reached, times out or answers what is not JSON. */
export class OutsideServiceError extends Error {}

/**
 * Sends one request to an outside service and reads its JSON answer (at most `maxBytes`), through `agent` when one
 * is given (the SOCKS proxy of `SOCKS_PROXY_URL`).
 */
export function requestJson(
  url: URL,
  options: {
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: Buffer;
    agent?: Agent | undefined;
    timeoutMs?: number;
    maxBytes?: number;
  } = {},
): Promise<JsonAnswer> {
  const { method = 'GET', headers = {}, body, agent, timeoutMs = 15_000, maxBytes = 2_000_000 } = options;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method,
        headers: { accept: 'application/json', ...headers, ...(body ? { 'content-length': body.length } : {}) },
        ...(agent ? { agent } : {}),
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) req.destroy(new OutsideServiceError('answer too large'));
          else chunks.push(c);
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
          } catch {
            reject(new OutsideServiceError(`answer of ${url.host} is not JSON (status ${res.statusCode})`));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new OutsideServiceError(`no answer from ${url.host} in ${timeoutMs} ms`)));
    req.on('error', (e) => reject(e instanceof OutsideServiceError ? e : new OutsideServiceError(e.message)));
    req.end(body);
  });
}
