import { AppError } from '@rootline/contracts';

/** One level of a pino-compatible logger: fields first (an error under `err`), then the message. */
export type BusLogFn = (fieldsOrMessage: object | string, message?: string) => void;

/**
 * Where the bus reports what no caller sees (handler failures, reconnects, poison events): the service's own
 * pino logger, so the bus writes the same structured lines as everything else in the process.
 */
export interface BusLog {
  info: BusLogFn;
  warn: BusLogFn;
  error: BusLogFn;
}

const LEVELS = { info: 30, warn: 40, error: 50 } as const;

function jsonLine(level: keyof typeof LEVELS): BusLogFn {
  return (fieldsOrMessage, message) => {
    const fields: Record<string, unknown> =
      typeof fieldsOrMessage === 'string' ? { msg: fieldsOrMessage } : { ...fieldsOrMessage, msg: message };
    const err = fields.err;
    if (err instanceof Error) fields.err = { type: err.name, message: err.message, stack: err.stack };
    const line = { level: LEVELS[level], time: new Date().toISOString(), component: 'bus', ...fields };
    process.stderr.write(`${JSON.stringify(line)}\n`);
  };
}

/** The bus's logger when none is given: pino-shaped JSON lines on stderr (tools and tests pass their own). */
export const jsonLog: BusLog = { info: jsonLine('info'), warn: jsonLine('warn'), error: jsonLine('error') };

/** Default request timeout. */
export const REQUEST_TIMEOUT_MS = 5_000;
/** Default wait for an acknowledgement before an event is redelivered. */
export const ACK_WAIT_MS = 30_000;
/** Default number of deliveries before an event is given up. */
export const MAX_DELIVER = 10;
/** Window in which a second publish of an event id is dropped (the stream's duplicate_window). */
export const DUPLICATE_WINDOW_MS = 120_000;
/**
 * How long the event stream keeps an event (the stream's max_age): long enough for a consumer that was down
 * over a long weekend to catch up, and the same as the outbox's retention of published rows, so no copy of an
 * event outlives the other by much.
 */
export const EVENT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Subjects the event stream stores. */
export const EVENT_SUBJECTS = 'evt.>';
/** Events one subscription handles at once; more wait, so a slow handler cannot pull the whole backlog. */
export const MAX_IN_FLIGHT = 8;
/** Discovery collects answers for this long by default. */
export const DISCOVER_WAIT_MS = 500;

/** Back-off before redelivering an event whose handler threw: grows with each attempt, capped at 5 s. */
export function nakDelayMs(deliveryCount: number): number {
  return Math.min(200 * deliveryCount, 5_000);
}

/** The reply sent when a handler throws: the detail goes to the log, never to the caller. */
export const INTERNAL_REPLY = { ok: false, error: { code: 'INTERNAL', message: 'Internal error' } } as const;

/** The error of a request nobody answered. */
export function unavailable(
  subject: string,
  why: 'no-responders' | 'timeout' | 'disconnected',
  timeoutMs?: number,
): AppError {
  if (why === 'no-responders')
    return new AppError('UNAVAILABLE', `${subject} did not answer: no service is serving it`);
  if (why === 'disconnected')
    return new AppError('UNAVAILABLE', `${subject} did not answer: the bus connection is down`);
  return new AppError('UNAVAILABLE', `${subject} did not answer within ${timeoutMs} ms`);
}

/** Service, durable and endpoint names: one NATS token of letters, digits, `_` and `-`. */
export const NAME = /^[-\w]+$/;

/** Resolves once the ongoing promises settle, or after `maxMs`, whichever is first. */
export async function settleWithin(pending: Iterable<Promise<unknown>>, maxMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, maxMs);
  });
  await Promise.race([Promise.allSettled([...pending]), deadline]);
  clearTimeout(timer);
}
