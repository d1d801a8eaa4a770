import { type ExchangeOptions, exchange, type NodeAnswer } from './bounded-request.js';

/** What a peer answered. */
export type PeerAnswer = NodeAnswer;

/** The most one answer of a peer may hold (a proof bundle is a few kilobytes). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** GETs `url` from a peer and reads the answer, within `timeoutMs` (or until `signal` aborts); through the proxy when set. */
export function getFromPeer(url: string, opts: ExchangeOptions): Promise<PeerAnswer> {
  return exchange(
    new URL(url),
    { method: 'GET', headers: { accept: 'application/json, text/plain' } },
    { maxBytes: MAX_ANSWER_BYTES, tooLong: 'the peer’s answer is too long' },
    opts,
  );
}
