import { type ExchangeOptions, exchange, type NodeAnswer } from './bounded-request.js';

/** What a witness answered. */
export type WitnessAnswer = NodeAnswer;

/** The most a witness's answer may hold (a few signature lines). */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs an add-checkpoint body to `<prefix>/add-checkpoint` (c2sp.org/tlog-witness) and reads the answer, within
 * `timeoutMs` for the whole exchange (or until `signal` aborts); through the outgoing proxy when one is set.
 */
export function postAddCheckpoint(prefix: string, body: string, opts: ExchangeOptions): Promise<WitnessAnswer> {
  return exchange(
    new URL(`${prefix}/add-checkpoint`),
    {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) },
      body,
    },
    { maxBytes: MAX_ANSWER_BYTES, tooLong: 'the witness’s answer is too long' },
    opts,
  );
}
