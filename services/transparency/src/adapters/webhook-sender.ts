import { lookup as dnsLookup } from 'node:dns';
import { type Agent, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { WebhookMessage } from '../domain/webhook-message.js';
import { isAllowedAddress } from './address-policy.js';

export interface SendOptions {
  /** Lets webhooks reach private, loopback and link-local addresses (tests and closed networks only). */
  allowPrivate: boolean;
  timeoutMs: number;
  /**
   * The connection agent, e.g. through the SOCKS5 proxy (SOCKS_PROXY_URL). With `socks5://` the name is still
   * resolved here through the guarded lookup; with `socks5h://` the proxy resolves it, so only the check at
   * registration and on literal addresses applies (docs/realtime.md, "Privacy network").
   */
  agent?: Agent;
}

export class RefusedAddress extends Error {}

/** A DNS lookup that refuses blocked addresses, so the check applies to the address actually connected to. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as { address: string; family: number }[];
      const bad = list.find((a) => !allowPrivate && !isAllowedAddress(a.address));
      if (bad) return callback(new RefusedAddress(`${hostname} resolves to refused address ${bad.address}`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** Checks a receiver address before it is stored: literal IPs and every address its name resolves to. */
export async function checkWebhookUrl(url: string, allowPrivate: boolean): Promise<void> {
  const { hostname } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  if (allowPrivate) return;
  if (isIP(host)) {
    if (!isAllowedAddress(host)) throw new RefusedAddress(`${host} is a private, loopback or link-local address`);
    return;
  }
  await new Promise<void>((resolve, reject) => {
    guardedLookup(false)(host, { all: true }, (err) => (err ? reject(err) : resolve()));
  });
}

/**
 * POSTs one message and resolves with the HTTP status. Redirects are not followed (a 3xx is a failed attempt),
 * so a receiver cannot bounce the request to an internal address; the address is checked after DNS resolution.
 */
export function sendWebhook(url: string, message: WebhookMessage, o: SendOptions): Promise<number> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!o.allowPrivate && isIP(host) && !isAllowedAddress(host)) {
    return Promise.reject(new RefusedAddress(`${host} is a private, loopback or link-local address`));
  }
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        headers: { ...message.headers, 'content-length': Buffer.byteLength(message.body) },
        lookup: guardedLookup(o.allowPrivate),
        timeout: o.timeoutMs,
        ...(o.agent ? { agent: o.agent } : {}),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${o.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(message.body);
  });
}
